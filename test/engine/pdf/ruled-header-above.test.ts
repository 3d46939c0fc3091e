/**
 * A ruled table's header row set just above its top rule (a table ruled from under its header down) heads the
 * table; a running header in smaller type set as tight above a table at the top of a page does not (generated PDFs).
 */
import { describe, expect, it } from 'vitest';
import { writePdf, type TextRun } from './fixtures/pdf-writer.js';
import { allBlocks, convertBytes } from './helpers.js';
import { cellRuns, gridOperators } from './ruled-pdfs.js';

const XS = [72, 222, 372, 522];
const BODY = [
  ['Item 26', '562', 'in stock'],
  ['Item 27', '599', 'ordered'],
  ['Item 28', '136', 'in stock'],
];
/** Rows 20 pt apart from the top rule at 740 down. */
const YS = [740, 720, 700, 680];

async function tablesOf(above: TextRun[]): Promise<string[]> {
  const runs = [...above, ...cellRuns(BODY, XS, YS), { x: 72, y: 640, text: 'All counts were checked twice.', size: 10 }];
  const model = await convertBytes(writePdf({ pages: [{ runs, graphics: gridOperators(XS, YS, 'stroke') }] }), { mode: 'fast' });
  return allBlocks(model)
    .filter((block) => block.type === 'table')
    .map((block) => block.markdown);
}

describe('a line of labels just above a ruled grid', () => {
  it('in the table\'s type heads it', async () => {
    const header = ['Item', 'Count', 'Status'].map((text, i) => ({ x: XS[i]! + 5, y: 745, text, size: 10, font: 'bold' as const }));
    const [table] = await tablesOf(header);
    expect(table).toMatch(/^\| Item \| Count \| Status \|\n\| --- \| --- \| --- \|\n\| Item 26 \|/);
  });

  it("in a running header's smaller type at the top of the page stays out of it", async () => {
    const running = [
      { x: 80, y: 744, text: '2:32 PM', size: 8 },
      { x: 380, y: 744, text: 'Stock report Q3', size: 8 },
    ];
    const [table] = await tablesOf(running);
    expect(table).toMatch(/^\| Item 26 \| 562 \| in stock \|\n\| --- \| --- \| --- \|/);
    expect(table).not.toContain('Stock report');
  });
});
