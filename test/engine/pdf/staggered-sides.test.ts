/**
 * An invoice's head: the sender's name and address set at the left, line under line, beside the word INVOICE and
 * its `Invoice no.` / `Date` / `Due` lines at the right, set at a pitch of their own, so that the two blocks' lines
 * drift apart down the page. They are two blocks, read one after the other: the sender's lines as lines, the
 * invoice's fields as a table of their own, never one table whose rows mix an address line with a field.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { staggeredChannel } from '../../../src/engine/pdf/staggered-sides.js';
import { allBlocks, convertBytes, flushRight } from './helpers.js';
import { item } from './synthetic.js';

const SENDER = ['Brightwater Print Ltd', '12 Harbour Street', 'Bristol BS1 4RT', 'Tel 0117 496 0321'];
const FIELDS = [
  ['Invoice no.', 'INV-3391'],
  ['Date', '2 Nov 2026'],
  ['Due', '2 Dec 2026'],
  ['Customer ID', 'C-0457'],
];
const ITEMS = [
  ['Menus, A4 laminated', '40', '100.00'],
  ['Business cards', '500', '40.00'],
  ['Window poster', '2', '30.00'],
];


async function invoicePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  // The sender at 13 points a line, the fields at 16: level at the top, apart by a few points from the next line on.
  page.drawText(SENDER[0]!, { x: 72, y: 730, size: 14, font: bold });
  SENDER.slice(1).forEach((text, i) => page.drawText(text, { x: 72, y: 712 - 13 * i, size: 10, font: regular }));
  page.drawText('INVOICE', { x: 400, y: 730, size: 18, font: bold });
  FIELDS.forEach(([label, value], i) => {
    page.drawText(label!, { x: 400, y: 712 - 16 * i, size: 10, font: bold });
    flushRight(page, value!, 540, 712 - 16 * i, regular);
  });
  const top = 600;
  page.drawText('Description', { x: 72, y: top, size: 10, font: bold });
  flushRight(page, 'Qty', 440, top, bold);
  flushRight(page, 'Amount', 540, top, bold);
  ITEMS.forEach(([what, qty, amount], i) => {
    const y = top - 20 - 16 * i;
    page.drawText(what!, { x: 72, y, size: 10, font: regular });
    flushRight(page, qty!, 440, y, regular);
    flushRight(page, amount!, 540, y, regular);
  });
  return pdf.save();
}

describe("an invoice's sender beside its fields", () => {
  it('reads the sender line by line, then the fields as a table of their own, then the items', async () => {
    const doc = await convertBytes(await invoicePdf(), { mode: 'fast' });
    const blocks = allBlocks(doc).filter((block) => !block.furniture);
    const texts = blocks.map((block) => block.markdown);
    expect(texts.slice(0, SENDER.length).map((text) => text.replace(/^#+ /, ''))).toEqual(SENDER);
    expect(texts[SENDER.length]).toMatch(/^(?:#+ )?INVOICE$/);
    const tables = blocks.filter((block) => block.type === 'table').map((block) => block.markdown.split('\n'));
    expect(tables).toHaveLength(2);
    expect(tables[0]).toEqual([`| ${FIELDS[0]![0]} | ${FIELDS[0]![1]} |`, '| --- | --- |', ...FIELDS.slice(1).map(([label, value]) => `| ${label} | ${value} |`)]);
    expect(tables[1]![0]).toBe('| Description | Qty | Amount |');
  });
});

describe('staggered sides', () => {
  it("are not a table's header whose label wraps beside labels that do not, over rows sharing their baselines", () => {
    // `Observed returns` wraps over two lines, centred on neither; the years and figures under it share baselines.
    const lines = buildLines([
      item('Observed returns on', 150, 100),
      item('Year', 60, 105),
      item('the portfolio', 150, 110),
      item('Change', 300, 105),
      ...[0, 1, 2].flatMap((row) => [item(`${2020 + row}`, 60, 130 + 16 * row), item(`${10 + row}%`, 150, 130 + 16 * row), item(`${row}%`, 300, 130 + 16 * row)]),
    ]);
    expect(staggeredChannel(lines, 8)).toBeUndefined();
  });
});
