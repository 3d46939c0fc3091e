/**
 * A data sheet's specifications: label and value rows shaded every other row (zebra stripes), the shading running
 * past the values to the table's right edge, the first row shaded and the last, under the last stripe, not. Every
 * row is the table's, the first and the last too.
 */
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';

const SPECIFICATIONS = [
  ['Measuring range', '-40 to +125 °C'],
  ['Accuracy', '±0.5 °C (0 to 70 °C)'],
  ['Supply voltage', '3.0 to 5.5 V DC'],
  ['Output', 'I2C, 16-bit'],
  ['Housing', 'Stainless steel, IP67'],
  ['Weight', '12 g'],
];

async function dataSheetPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('TX-200 Temperature Sensor', { x: 72, y: 700, size: 18, font: bold });
  page.drawText('Specifications', { x: 72, y: 668, size: 13, font: bold });
  SPECIFICATIONS.forEach(([label, value], i) => {
    const y = 644 - 18 * i;
    if (i % 2 === 0) page.drawRectangle({ x: 72, y: y - 5, width: 400, height: 18, color: rgb(0.93, 0.93, 0.93) });
    page.drawText(label!, { x: 76, y, size: 10, font: regular });
    page.drawText(value!, { x: 250, y, size: 10, font: regular });
  });
  page.drawText('The sensor is calibrated at the factory and needs no adjustment in use.', { x: 72, y: 510, size: 10, font: regular });
  return pdf.save();
}

describe('a table shaded every other row', () => {
  it('holds every row, the shaded first and the unshaded last', async () => {
    const doc = await convertBytes(await dataSheetPdf(), { mode: 'fast' });
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    const rows = tables[0]!.markdown.split('\n').filter((row) => !row.startsWith('| ---'));
    expect(rows).toEqual(SPECIFICATIONS.map((row) => `| ${row.join(' | ')} |`));
  });
});
