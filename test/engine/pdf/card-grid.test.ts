/**
 * A catalogue's products as cards side by side, three to a row: a picture, the product's name in bold, its price,
 * and a sentence or two of description wrapped in the card's width. Each card is read whole, the name over its
 * price and its description, never the names of a row in one line and the descriptions' lines mixed, nor a table.
 */
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';
import { raggedLines } from './ragged-lines.js';

const PRODUCTS = [
  ['Border spade', '£24.99', 'Stainless steel blade with an ash handle, for digging in tight borders.'],
  ['Hand trowel', '£8.50', 'Forged head that will not bend, with a soft grip handle.'],
  ['Pruning shears', '£15.00', 'Bypass blades for clean cuts on stems up to 20 mm thick.'],
  ['Garden fork', '£27.99', 'Four square tines for lifting and turning heavy soil.'],
  ['Watering can', '£12.75', 'Ten litres, with a detachable brass rose for seedlings.'],
  ['Kneeler pad', '£6.99', 'Thick foam pad that protects your knees on hard paths.'],
];
const INTRODUCTION =
  'Every tool in this range is made to last and comes with a ten-year guarantee. Prices include delivery to any address in the country.';

async function cataloguePdf(products: readonly string[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('Garden tools', { x: 72, y: 730, size: 20, font: bold });
  raggedLines(INTRODUCTION, regular, 10, 468).forEach((line, i) => page.drawText(line, { x: 72, y: 705 - 13 * i, size: 10, font: regular }));
  products.forEach(([name, price, description], k) => {
    const x = 72 + (k % 3) * 160;
    const top = 560 - Math.floor(k / 3) * 220;
    page.drawRectangle({ x, y: top, width: 140, height: 100, color: rgb(0.85, 0.9, 0.85) });
    page.drawText(name!, { x, y: top - 18, size: 12, font: bold });
    page.drawText(price!, { x, y: top - 34, size: 11, font: regular });
    raggedLines(description!, regular, 9, 140).forEach((line, i) => page.drawText(line, { x, y: top - 50 - 11 * i, size: 9, font: regular }));
  });
  return pdf.save();
}

async function read(products: readonly string[][]) {
  const doc = await convertBytes(await cataloguePdf(products), { mode: 'fast' });
  return allBlocks(doc).filter((block) => !block.furniture);
}

/** Each card's name, price and description, one after the other in the blocks. */
function expectCardsWhole(texts: readonly string[], products: readonly string[][]): void {
  for (const [name, price, description] of products) {
    const at = texts.findIndex((text) => text.replace(/^#+ /, '') === name);
    expect(at, name).toBeGreaterThanOrEqual(0);
    expect(texts.slice(at + 1, at + 3)).toEqual([price, description]);
  }
}

describe('cards side by side', () => {
  it('are read card by card over two rows, no table of their lines', async () => {
    const blocks = await read(PRODUCTS);
    expect(blocks.filter((block) => block.type === 'table')).toEqual([]);
    expectCardsWhole(
      blocks.map((block) => block.markdown),
      PRODUCTS,
    );
  });
});
