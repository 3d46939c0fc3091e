/**
 * A memo: MEMORANDUM, then its head's fields (`To:`, `From:`, `Date:`, `Subject:`), each bold label with its value
 * set at a tab, a rule, then the body. The head reads as lines, a field a line, never a table whose first field is
 * the header of the others.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { fieldLines } from '../../../src/engine/pdf/field-lines.js';
import { allBlocks, convertBytes } from './helpers.js';

const FIELDS = [
  ['To:', 'All department heads'],
  ['From:', 'Sarah Lindqvist, Finance Director'],
  ['Date:', '4 November 2026'],
  ['Subject:', 'Budget submissions for 2027'],
];
const BODY = 'Please send your budget submissions for next year to the finance office by Friday 20 November.';

async function memoPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('MEMORANDUM', { x: 72, y: 720, size: 20, font: bold });
  FIELDS.forEach(([label, value], i) => {
    page.drawText(label!, { x: 72, y: 680 - 20 * i, size: 11, font: bold });
    page.drawText(value!, { x: 144, y: 680 - 20 * i, size: 11, font: regular });
  });
  page.drawLine({ start: { x: 72, y: 600 }, end: { x: 540, y: 600 }, thickness: 1 });
  page.drawText(BODY, { x: 72, y: 570, size: 11, font: regular });
  return pdf.save();
}

describe("a memo's head", () => {
  it('reads a field a line, then the body', async () => {
    const doc = await convertBytes(await memoPdf(), { mode: 'fast' });
    const blocks = allBlocks(doc).filter((block) => !block.furniture);
    expect(blocks.filter((block) => block.type === 'table')).toEqual([]);
    expect(blocks.map((block) => block.markdown)).toEqual(['# MEMORANDUM', FIELDS.map(([label, value]) => `${label} ${value}`).join('  \n'), BODY]);
  });
});

describe('field lines', () => {
  it('are two columns of labels ending in a colon beside values in words, not a table of several columns', () => {
    expect(fieldLines([['To:', 'Staff'], ['From:', 'Finance']])).toEqual(['To: Staff', 'From: Finance']);
    expect(fieldLines([['To:', 'Staff', 'From:', 'Finance'], ['Fax:', '0117', 'Pages:', '3']])).toBeUndefined();
    expect(fieldLines([['Item', 'Amount'], ['Total:', '12.00']])).toBeUndefined();
    // An invoice's totals: amounts beside their labels stay a table's figures.
    expect(fieldLines([['Subtotal:', '191.40'], ['VAT (20%):', '38.28'], ['Total Due:', '229.68']])).toBeUndefined();
  });
});
