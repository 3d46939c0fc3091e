/**
 * An income statement: a period line under the title, the years (and their unit) over two columns of figures set
 * flush right, negatives in parentheses, the rows of one section indented under a label that holds no figure
 * (`Operating expenses`), subtotals in bold under short rules. The statement is one table, its section label a
 * row of its own, and the period line over the label column stays text: it heads none of the columns.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, flushRight } from './helpers.js';

/** Label, indent level, this year, last year, whether it is a subtotal. */
const ROWS: readonly [string, number, string, string, boolean][] = [
  ['Revenue', 0, '12,480', '11,302', false],
  ['Cost of sales', 0, '(7,215)', '(6,640)', false],
  ['Gross profit', 0, '5,265', '4,662', true],
  ['Operating expenses', 0, '', '', false],
  ['Distribution costs', 1, '(1,104)', '(998)', false],
  ['Administrative expenses', 1, '(2,031)', '(1,870)', false],
  ['Other operating income', 1, '112', '87', false],
  ['Operating profit', 0, '2,242', '1,881', true],
  ['Finance costs', 0, '(310)', '(295)', false],
  ['Profit before tax', 0, '1,932', '1,586', true],
];
const PERIOD = 'For the year ended 31 December';
const COLUMNS = [440, 530];


async function statementPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('Consolidated income statement', { x: 72, y: 730, size: 16, font: bold });
  page.drawText(PERIOD, { x: 72, y: 712, size: 10, font: regular });
  ['2026', '2025'].forEach((year, i) => flushRight(page, year, COLUMNS[i]!, 680, bold));
  for (const x1 of COLUMNS) flushRight(page, '£000', x1, 667, regular, 9);
  page.drawLine({ start: { x: 72, y: 662 }, end: { x: 540, y: 662 }, thickness: 0.5 });
  ROWS.forEach(([label, level, current, previous, subtotal], i) => {
    const y = 645 - 18 * i;
    const font = subtotal ? bold : regular;
    if (subtotal) for (const x1 of COLUMNS) page.drawLine({ start: { x: x1 - 50, y: y + 12 }, end: { x: x1, y: y + 12 }, thickness: 0.5 });
    page.drawText(label, { x: 72 + 14 * level, y, size: 10, font });
    flushRight(page, current, COLUMNS[0]!, y, font);
    flushRight(page, previous, COLUMNS[1]!, y, font);
  });
  return pdf.save();
}

describe('an income statement', () => {
  it('is one table from its years down, a section label with no figures a row of its own', async () => {
    const doc = await convertBytes(await statementPdf(), { mode: 'fast' });
    const blocks = allBlocks(doc).filter((block) => !block.furniture);
    const tables = blocks.filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]!.markdown.split('\n')).toEqual([
      '|  | 2026 £000 | 2025 £000 |',
      '| --- | --- | --- |',
      ...ROWS.map(([label, , current, previous]) => `| ${label} | ${current} | ${previous} |`),
    ]);
  });

  it('keeps the period line over the label column as text under the title', async () => {
    const doc = await convertBytes(await statementPdf(), { mode: 'fast' });
    const texts = allBlocks(doc)
      .filter((block) => !block.furniture && block.type !== 'table')
      .map((block) => block.markdown);
    expect(texts).toEqual(['# Consolidated income statement', PERIOD]);
  });
});
