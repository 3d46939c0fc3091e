/**
 * A sheet LibreOffice Calc prints (test/fixtures/printed/calc-sheet.pdf): one word a cell, so hardly a text item holds
 * two words, and the font's word boxes, cut to the glyphs, show their many heights in items of one word. Told from
 * those, the footer's `Page 1` is a page number, its `1` level with `Page` (whose `g` reaches lower), not a raised mark.
 * Its short months' figures, flush right, end 0.23 em before the longer totals of the next column start. A ledger
 * Calc prints (ledger-sheet.pdf) sets its account numbers as close before their names, and its footer in a face of
 * its own, whose two words cannot show how its boxes are cut; its last two columns go on a page of their own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

describe('a spreadsheet printed one word a cell', () => {
  it("reads its footer's `Page 1` as the page number, not `Page ¹` in the text", async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/calc-sheet.pdf', import.meta.url)));
    const model = await convertBytes(bytes, { mode: 'fast' });
    const feet = allBlocks(model).filter((block) => block.markdown.startsWith('Page'));
    expect(feet.map((block) => [block.type, block.markdown])).toEqual([['page_number', 'Page 1']]);
    expect(mainMarkdown(model)).not.toContain('¹');
    expect(mainMarkdown(model)).toContain('| North | Store N01 | 1766 |');
  });

  it('reads every row of the sheet as its CSV holds it, a short month beside a long total two columns', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/calc-sheet.pdf', import.meta.url)));
    const csv = readFileSync(new URL('../../fixtures/printed/calc-sheet.csv', import.meta.url), 'utf8').trim().split('\n');
    const markdown = mainMarkdown(await convertBytes(bytes, { mode: 'fast' }));
    const rows = markdown.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| ---'));
    expect(rows).toEqual(csv.map((line) => `| ${line.split(',').join(' | ')} |`));
  });

  it('reads a Cyrillic footer, `Страница 1`, as the page number: its `р` reaches below the line as a `g` does', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/merged-cells-sheet.pdf', import.meta.url)));
    const model = await convertBytes(bytes, { mode: 'fast' });
    const feet = allBlocks(model).filter((block) => block.markdown.startsWith('Страница'));
    expect(feet.map((block) => [block.type, block.markdown])).toEqual([['page_number', 'Страница 1']]);
    expect(mainMarkdown(model)).not.toContain('¹');
  });

  it("reads a ledger's account numbers apart from their names and its footer, in a face of its own, as the page number", async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/ledger-sheet.pdf', import.meta.url)));
    const model = await convertBytes(bytes, { mode: 'fast' });
    const feet = allBlocks(model).filter((block) => block.markdown.startsWith('Page'));
    expect(feet.map((block) => [block.type, block.markdown])).toEqual([
      ['page_number', 'Page 1'],
      ['page_number', 'Page 2'],
    ]);
    const rows = mainMarkdown(model).split('\n').filter((line) => line.startsWith('| '));
    expect(rows[0]).toBe('| Account | Description | Q1 2026 | Q2 2026 | Q3 2026 | Q4 2026 | FY 2026 |');
    expect(rows[2]).toBe('| 6000 | Salaries | 85690 | 249277 | 40344 | 104300 | 479611 |');
  });

  it('reads the last two columns, printed on a page of their own with their figures 0.2 em apart, as a table', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/ledger-sheet.pdf', import.meta.url)));
    const model = await convertBytes(bytes, { mode: 'fast' });
    const second = model.pages.find((page) => page.pageNumber === 2)!;
    const rows = second.blocks.filter((block) => block.type === 'table').map((block) => block.markdown.split('\n'));
    expect(rows.map((table) => [table[0], table[2], table.length])).toEqual([['| Budget | Var % |', '| 508566 | -5.7% |', 22]]);
  });
});

