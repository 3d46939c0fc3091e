/**
 * A fax cover sheet: a large FAX, then two columns of bold labels (`To:`, `Fax:`, `Phone:`, `Re:` and `From:`,
 * `Pages:`, `Date:`, `CC:`) each with its value a little to its right, the values of a column starting at one
 * place. A long label (`Phone:`) ends close to its value: each value still reads whole in its cell, its first word
 * never drawn into the label's.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ownReadingHoldsMore } from '../../../src/engine/pdf/table-choice.js';
import { allBlocks, convertBytes } from './helpers.js';

const LEFT = [
  ['To:', 'Dr. Alan Brooks'],
  ['Fax:', '+44 20 7946 0011'],
  ['Phone:', '+44 20 7946 0010'],
  ['Re:', 'Test results'],
];
const RIGHT = [
  ['From:', 'Clinic reception'],
  ['Pages:', '3 (including cover)'],
  ['Date:', '12/11/2026'],
  ['CC:', 'Patient file'],
];

async function faxPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('FAX', { x: 72, y: 720, size: 36, font: bold });
  for (const [fields, x] of [[LEFT, 72], [RIGHT, 320]] as const) {
    fields.forEach(([label, value], i) => {
      page.drawText(label!, { x, y: 660 - 24 * i, size: 11, font: bold });
      page.drawText(value!, { x: x + 48, y: 660 - 24 * i, size: 11, font: regular });
    });
  }
  page.drawText('Comments:', { x: 72, y: 510, size: 11, font: bold });
  page.drawText('Please find the blood test results attached.', { x: 72, y: 490, size: 11, font: regular });
  return pdf.save();
}

describe('a fax cover sheet', () => {
  it('reads its two columns of labels and values as a table, each value whole in its cell', async () => {
    const doc = await convertBytes(await faxPdf(), { mode: 'fast' });
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    const rows = LEFT.map((left, i) => `| ${[...left, ...RIGHT[i]!].join(' | ')} |`);
    expect(tables[0]!.markdown.split('\n')).toEqual([rows[0], '| --- | --- | --- | --- |', ...rows.slice(1)]);
  });
});

describe("the page's own reading of a table", () => {
  const rect = { x0: 72, y0: 100, x1: 460, y1: 200 };
  it("replaces another reader's with the same words when a word at a cell's edge sits in the next cell", () => {
    const found = { rect, rows: [['To:', 'Dr. Alan Brooks'], ['Phone: +44', '20 7946 0010']] };
    const own = { rect, rows: [['To:', 'Dr. Alan Brooks'], ['Phone:', '+44 20 7946 0010']] };
    expect(ownReadingHoldsMore(own, found)).toBe(true);
  });

  it('leaves it where the words and cells are the same', () => {
    const rows = [['To:', 'Dr. Alan Brooks'], ['Phone:', '+44 20 7946 0010']];
    expect(ownReadingHoldsMore({ rect, rows }, { rect, rows })).toBe(false);
  });
});
