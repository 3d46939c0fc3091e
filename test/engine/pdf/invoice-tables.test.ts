/**
 * An invoice: the customer's address under a bold `Bill to`, set tight line under line, over the items' table
 * (its header on a shaded band, numbers set flush right), and the totals set close under a rule beneath the items,
 * each label over its amount's column.
 */
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, flushRight } from './helpers.js';

const ITEMS = [
  ['A5 flyers, full colour, 130 gsm', '2,000', '0.045', '90.00'],
  ['Posters A2, matt', '25', '3.20', '80.00'],
  ['Design and artwork', '1', '120.00', '120.00'],
  ['Delivery', '1', '12.50', '12.50'],
];
const TOTALS = [
  ['Subtotal', '302.50'],
  ['VAT 20%', '60.50'],
  ['Total due', '363.00'],
];
const ADDRESS = ['Riverside Community Centre', '3 Quay Road', 'Salford M5 4WT'];


async function invoicePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('Invoice INV-20417', { x: 72, y: 730, size: 16, font: bold });
  page.drawText('Order reference PO-5531', { x: 72, y: 708, size: 10, font: regular });
  page.drawText('Bill to', { x: 72, y: 680, size: 10, font: bold });
  ADDRESS.forEach((text, i) => page.drawText(text, { x: 72, y: 666 - 13 * i, size: 10, font: regular }));
  const top = 610;
  page.drawRectangle({ x: 72, y: top - 6, width: 468, height: 20, color: rgb(0.85, 0.85, 0.85) });
  page.drawText('Description', { x: 76, y: top, size: 10, font: bold });
  flushRight(page, 'Qty', 340, top, bold);
  flushRight(page, 'Unit price', 430, top, bold);
  flushRight(page, 'Amount', 536, top, bold);
  ITEMS.forEach(([what, qty, price, amount], i) => {
    const y = top - 24 - 18 * i;
    page.drawText(what!, { x: 76, y, size: 10, font: regular });
    flushRight(page, qty!, 340, y, regular);
    flushRight(page, price!, 430, y, regular);
    flushRight(page, amount!, 536, y, regular);
  });
  const rule = top - 24 - 18 * ITEMS.length + 8;
  page.drawLine({ start: { x: 72, y: rule }, end: { x: 540, y: rule }, thickness: 0.5 });
  TOTALS.forEach(([label, amount], i) => {
    const y = rule - 18 - 16 * i;
    page.drawText(label!, { x: 380, y, size: 10, font: regular });
    flushRight(page, amount!, 536, y, regular);
  });
  page.drawText('Payment is due within 30 days of the invoice date.', { x: 72, y: 380, size: 9, font: regular });
  return pdf.save();
}

async function tableRows(): Promise<{ rows: string[]; texts: string[] }> {
  const doc = await convertBytes(await invoicePdf(), { mode: 'fast' });
  const blocks = allBlocks(doc).filter((block) => !block.furniture);
  const tables = blocks.filter((block) => block.type === 'table');
  expect(tables).toHaveLength(1);
  return { rows: tables[0]!.markdown.split('\n'), texts: blocks.filter((block) => block.type !== 'table').map((block) => block.markdown) };
}

describe('an invoice', () => {
  it("heads its items' table with the header row; the address above it, set tighter than it stands off, stays text", async () => {
    const { rows, texts } = await tableRows();
    expect(rows[0]).toBe('| Description | Qty | Unit price | Amount |');
    expect(texts).toEqual(expect.arrayContaining(ADDRESS));
  });

  it('reads the totals set close under the items one row each', async () => {
    const { rows } = await tableRows();
    expect(rows.slice(-TOTALS.length)).toEqual(TOTALS.map(([label, amount]) => `|  |  | ${label} | ${amount} |`));
  });
});
