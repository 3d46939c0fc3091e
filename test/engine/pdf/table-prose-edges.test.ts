import { describe, expect, it } from 'vitest';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import type { FoundTable } from '../../../src/engine/pdf/types.js';
import { itemsInside } from '../../../src/engine/pdf/table-header-above.js';
import { withoutProseEdges as withoutProseEdgesOfLines } from '../../../src/engine/pdf/table-prose-edges.js';
import type { PdfTextItem } from '../../../src/engine/pdf/types.js';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { item } from './synthetic.js';

const ROWS = [
  ['Archive', 'Files', 'Pages', 'Size (GB)'],
  ['Legal', '120,000', '2,400,000', '310'],
  ['Medical', '45,500', '610,000', '88'],
  ['Web', '1,200,000', '1,200,000', '41'],
];
const XS = [80, 150, 210, 272];
const TABLE_MARKDOWN = [
  '| Archive | Files | Pages | Size (GB) |',
  '| --- | --- | --- | --- |',
  '| Legal | 120,000 | 2,400,000 | 310 |',
  '| Medical | 45,500 | 610,000 | 88 |',
  '| Web | 1,200,000 | 1,200,000 | 41 |',
].join('\n');

/**
 * A column of a paper as LaTeX sets it: a paragraph whose last line ends just above a table ruled by three
 * horizontal rules (top, under the header, bottom), as `\hline` or booktabs draw them, and its caption below.
 */
function paperColumnPdf(): Uint8Array {
  const prose = [
    'Our pipeline keeps one token bucket per queue in Redis. Each',
    'worker takes a token before it sends a request, and returns it',
    'when the request is refused. The bucket refills at the pace the',
    'service states in each refusal it sends back.',
  ];
  const runs: TextRun[] = prose.map((text, i) => ({ x: 72, y: 700 - 12 * i, text, size: 10 }));
  ROWS.forEach((row, r) => row.forEach((text, c) => runs.push({ x: XS[c]!, y: 640 - 13 * r, text, size: 10 })));
  runs.push({ x: 100, y: 575, text: 'Table 1: The three archives of the evaluation.', size: 10 });
  const rule = (y: number) => `72 ${y} m 330 ${y} l S`;
  return writePdf({ pages: [{ runs, graphics: ['0.5 w 0 G', rule(653), rule(636), rule(597)].join('\n') }] });
}

/** The table without its prose edges, the lines of its box built from `items` as the page's layout builds them. */
function withoutProseEdges(table: FoundTable, items: PdfTextItem[]): FoundTable | undefined {
  return withoutProseEdgesOfLines(table, buildLines(itemsInside(table.rect, items)));
}

describe('a prose line at the edge of a found table', () => {
  it('goes back to its paragraph, and the table keeps its rows alone', async () => {
    const doc = await convertBytes(paperColumnPdf());
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables.map((table) => table.markdown)).toEqual([TABLE_MARKDOWN]);
    const markdown = mainMarkdown(doc);
    expect(markdown).toContain('The bucket refills at the pace the service states in each refusal it sends back.');
    expect(markdown.indexOf('sends back.')).toBeLessThan(markdown.indexOf('| Archive'));
  });

  // Geometry alone (top-down page space): rows 14 apart from 150, in the columns of XS.
  const bodyItems = ROWS.flatMap((row, r) => row.map((text, c) => item(text, XS[c]!, 150 + r * 14)));
  const rect = { x0: 72, y0: 126, x1: 330, y1: 200 };

  it('leaves the bottom of the table too, where the next paragraph begins under it', () => {
    // A sentence of word-spaced items under the last row, which the reader cut at the column edges.
    const below = ['The counts above', 'were taken', 'on the first', 'day'].map((text, i, all) =>
      item(text, 72 + (i === 0 ? 0 : all.slice(0, i).join(' ').length + 1) * 5, 150 + 4 * 14),
    );
    const found = withoutProseEdges({ rect: { ...rect, y1: 214 }, rows: [...ROWS, ['The counts above', 'were taken', 'on the first', 'day']] }, [...bodyItems, ...below]);
    expect(found?.rows).toEqual(ROWS);
    expect(itemsInside(found!.rect, below)).toEqual([]);
    expect(itemsInside(found!.rect, bodyItems)).toHaveLength(16);
  });

  it('gives a table made of prose under two short lines back to the flow whole', () => {
    const prose = ['A rate limit admits at most N requests per window', 'of length W, and a client that exceeds it gets an', 'error back and must wait before it sends again.'];
    // Each line's words as items one word space apart, cut by the reader after its first word.
    const lineItems = (text: string, baseline: number) => {
      let x = 72;
      return text.split(' ').map((word) => {
        const at = item(word, x, baseline);
        x = at.x1 + 5;
        return at;
      });
    };
    const items = [item('2', 72, 150), item('Background', 90, 150), item('2.1', 72, 164), item('Rate limits', 90, 164), ...prose.flatMap((text, i) => lineItems(text, 178 + 14 * i))];
    const rows = [['2', 'Background'], ['2.1', 'Rate limits'], ...prose.map((text) => [text.slice(0, text.indexOf(' ')), text.slice(text.indexOf(' ') + 1)])];
    expect(withoutProseEdges({ rect: { x0: 72, y0: 140, x1: 330, y1: 210 }, rows }, items)).toBeUndefined();
  });

  it('keeps a header label spanning its columns, which the reader gave as one cell', () => {
    const label = item('Documents in each archive', 150, 136);
    const table = { rect, rows: [['', 'Documents in each archive', '', ''], ...ROWS] };
    expect(withoutProseEdges(table, [label, ...bodyItems])).toBe(table);
  });

  it('keeps a row of cells apart from one another', () => {
    const table = { rect, rows: ROWS };
    expect(withoutProseEdges(table, bodyItems)).toBe(table);
  });
});
