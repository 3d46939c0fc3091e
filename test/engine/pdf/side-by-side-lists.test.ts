import { describe, expect, it } from 'vitest';
import { listColumns } from '../../../src/engine/pdf/table-kinds.js';
import { readFileSync } from 'node:fs';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';

const STRENGTHS = ['Loyal customers', 'Broad catalogue', 'Efficient logistics'];
const RISKS = ['Rising supplier prices', 'Currency exposure', 'New competitors'];

/** A slide of two columns of bullets under its title, as a two-content layout prints. */
function twoListsSlide(): Uint8Array {
  const runs: TextRun[] = [{ x: 60, y: 380, text: 'Strengths and risks', size: 36, font: 'bold' }];
  STRENGTHS.forEach((text, i) => runs.push({ x: 60, y: 300 - 36 * i, text: `\u2022 ${text}`, size: 24 }));
  RISKS.forEach((text, i) => runs.push({ x: 420, y: 300 - 36 * i, text: `\u2022 ${text}`, size: 24 }));
  return writePdf({ pages: [{ runs, width: 794, height: 446 }] });
}

describe('lists side by side', () => {
  it('are read list by list, not as a table of bullets nor as lines across both', async () => {
    const doc = await convertBytes(twoListsSlide());
    expect(allBlocks(doc).filter((block) => block.type === 'table')).toEqual([]);
    const lists = [STRENGTHS, RISKS].map((items) => items.map((item) => `- ${item}`).join('\n'));
    expect(mainMarkdown(doc)).toBe(`# Strengths and risks\n\n${lists.join('\n\n')}`);
  });

  it('numbered lists and lists under a label side by side are read list by list too', async () => {
    const column = (x: number, lines: readonly string[]) => lines.map((text, i): TextRun => ({ x, y: 300 - 24 * i, text, size: 18 }));
    const runs: TextRun[] = [
      ...column(60, ['1. Plan the route', '2. Pack the bags', '3. Leave at dawn']),
      ...column(300, ['Bring along:', '\u2022 Water', '\u2022 A map']),
      ...column(540, ['Then check:', '1. The weather', '2. The tides']),
    ];
    const doc = await convertBytes(writePdf({ pages: [{ runs, width: 794, height: 446 }] }));
    expect(allBlocks(doc).filter((block) => block.type === 'table')).toEqual([]);
    expect(mainMarkdown(doc)).toBe(
      ['1. Plan the route\n2. Pack the bags\n3. Leave at dawn', 'Bring along:\n\n- Water\n- A map', 'Then check:\n\n1. The weather\n2. The tides'].join('\n\n'),
    );
  });

  it('are grids whose filled cells open with list markers, a label heading a column and the wrapped tail of an item aside', () => {
    const texts = (rows: Parameters<typeof listColumns>[0]) => listColumns(rows)?.map((list) => [list.label ?? '', ...list.items.map((item) => item.text)]);
    expect(texts([['• Loyal customers', '• Rising prices'], ['• Broad catalogue', '']])).toEqual([['', 'Loyal customers', 'Broad catalogue'], ['', 'Rising prices']]);
    expect(texts([['1. List item4', 'Some info:', '• l'], ['2. List item5 3. List item6', '• Item A', '1'], ['', '• Item B', '• l 2']])).toEqual([
      ['', 'List item4', 'List item5', 'List item6'],
      ['Some info:', 'Item A', 'Item B'],
      ['', 'l 1', 'l 2'],
    ]);
    // A text box narrower than its items hangs their words apart from their bullets: a column of bullets alone.
    expect(
      texts([
        ['1. List item4', '• I1', 'Some info:', 'Maybe a list?', '•', 'l'],
        ['2. List item5 3. List item6', '• I2', '• Item A', '1. List1', '', '1'],
        ['', '• I3', '• Item B', '2. List2', '•', 'l'],
        ['', '• I4', '', '3. List3', '', '2'],
      ]),
    ).toEqual([
      ['', 'List item4', 'List item5', 'List item6'],
      ['', 'I1', 'I2', 'I3', 'I4'],
      ['Some info:', 'Item A', 'Item B'],
      ['Maybe a list?', 'List1', 'List2', 'List3'],
      ['', 'l 1', 'l 2'],
    ]);
    // Their tails set lower still, in the rows between the items: a column of its own.
    expect(
      texts([
        ['Maybe a list?', '•', 'l', ''],
        ['1. List1 2. List2', '', '', '1'],
        ['3. List3', '•', 'l', ''],
        ['', '', '', '2'],
      ]),
    ).toEqual([
      ['Maybe a list?', 'List1', 'List2', 'List3'],
      ['', 'l 1', 'l 2'],
    ]);
    expect(listColumns([['Region', 'Change'], ['• North', '+21%']])).toBeUndefined();
    expect(listColumns([['1. First', '2. Second']])).toBeUndefined();
    expect(listColumns([['Name', 'Tasks'], ['Alice', '• Write the report']])).toBeUndefined();
  });

  it("are read list by list from a slide LibreOffice prints, five text boxes side by side, the last one's words hung apart from its bullets", async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/powerpoint-sample.pdf', import.meta.url)));
    const doc = await convertBytes(bytes, { mode: 'fast' });
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    // The first slide's table only.
    expect(tables.map((block) => block.markdown.includes('A merged with B'))).toEqual([true]);
    expect(mainMarkdown(doc)).toContain(
      ['1. List item4\n2. List item5\n3. List item6', '- I1\n- I2\n- I3\n- I4', 'Some info:\n\n- Item A\n- Item B', 'Maybe a list?\n\n1. List1\n2. List2\n3. List3'].join('\n\n'),
    );
  });

  it('are read list by list from an Impress slide, and a table of bulleted cells in shaded rows stays a table', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/odf-presentation.pdf', import.meta.url)));
    const doc = await convertBytes(bytes, { mode: 'fast' });
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]!.markdown).toMatch(/\| ● R1 \| ● True \| ● False \|/);
    expect(mainMarkdown(doc)).toContain(
      ['1. List item4\n2. List item5\n3. List item6', '- I1\n- I2\n- I3\n- I4', 'Some info:\n\n- Item A\n- Item B', 'Maybe a list?\n\n1. List1\n2. List2\n3. List3', '- l 1\n- l 2'].join('\n\n'),
    );
  });
});
