/**
 * Two tables set side by side read as two tables, each under its caption, never as one table whose header row
 * names every column twice.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { sideBySideTables } from '../../../src/engine/pdf/side-by-side-tables.js';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

const HEADER = ['Branch', 'Visits', 'Loans'];
const YEAR_2024 = [
  ['North', '31,000', '12,400'],
  ['South', '25,400', '9,800'],
  ['East', '40,200', '15,100'],
];
const YEAR_2025 = [
  ['North', '33,500', '13,000'],
  ['South', '24,100', '9,200'],
  ['East', '42,900', '16,800'],
];
const side = (left: string[][], right: string[][]) => left.map((row, i) => [...row, ...right[i]!]);

describe('sideBySideTables', () => {
  it('parts a header of the same names twice over, with the captions above each half', () => {
    const rows = [['Table 1: 2024', '', '', 'Table 2: 2025', '', ''], [...HEADER, ...HEADER], ...side(YEAR_2024, YEAR_2025)];
    expect(sideBySideTables(rows)).toEqual([
      { caption: 'Table 1: 2024', rows: [HEADER, ...YEAR_2024] },
      { caption: 'Table 2: 2025', rows: [HEADER, ...YEAR_2025] },
    ]);
    expect(sideBySideTables([[...HEADER, ...HEADER], ...side(YEAR_2024, YEAR_2025)])).toEqual([{ rows: [HEADER, ...YEAR_2024] }, { rows: [HEADER, ...YEAR_2025] }]);
  });

  it('leaves one table: other names in each half, a name repeated within a half, a row or two under it', () => {
    expect(sideBySideTables([['Branch', 'Visits', 'Loans', 'Staff', 'Hours', 'Books'], ...side(YEAR_2024, YEAR_2025)])).toBeUndefined();
    expect(sideBySideTables([['Company', 'Company', 'Company', 'Company'], ['A2', 'B2', 'A2', 'B2'], ['80', '82', '75', '70'], ['1', '2', '3', '4']])).toBeUndefined();
    expect(sideBySideTables([[...HEADER, ...HEADER], ...side(YEAR_2024, YEAR_2025).slice(0, 1)])).toBeUndefined();
    expect(sideBySideTables([['Year', 'Visits', 'Year', 'Visits', 'Total'], ['2024', '1', '2025', '2', '3']])).toBeUndefined();
  });
});

/** A paragraph, the two years' tables side by side under their captions, a paragraph under them. */
async function sideBySidePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.TimesRoman);
  const bold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  const page = pdf.addPage([612, 792]);
  page.drawText('Visits by branch', { x: 72, y: 720, size: 14, font: bold });
  page.drawText('The council counted the visits and the loans of each branch in the last two years.', { x: 72, y: 696, size: 10.5, font: regular });
  const table = (x: number, caption: string, rows: string[][]) => {
    page.drawText(caption, { x, y: 666, size: 10.5, font: bold });
    [HEADER, ...rows].forEach((row, i) => row.forEach((text, col) => page.drawText(text, { x: x + [0, 90, 150][col]!, y: 650 - 13 * i, size: 10, font: i === 0 ? bold : regular })));
  };
  table(72, 'Table 1: 2024', YEAR_2024);
  table(330, 'Table 2: 2025', YEAR_2025);
  page.drawText('Visits rose in every branch but the southern one, where the library was closed in May.', { x: 72, y: 580, size: 10.5, font: regular });
  return pdf.save();
}

describe('two tables side by side in a PDF', () => {
  it('reads each table under its caption, the first before the second, each in its half of the page', async () => {
    const doc = await convertBytes(await sideBySidePdf(), { mode: 'fast' });
    const table = (rows: string[][]) => [HEADER, rows[0]!.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
    expect(mainMarkdown(doc)).toContain(`Table 1: 2024\n\n${table(YEAR_2024)}\n\nTable 2: 2025\n\n${table(YEAR_2025)}\n\nVisits rose`);
    const tables = allBlocks(doc).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(2);
    expect(tables[0]!.bbox![2]).toBeLessThanOrEqual(tables[1]!.bbox![0]);
    expect(allBlocks(doc).filter((block) => block.type === 'caption').map((block) => block.markdown)).toEqual(['Table 1: 2024', 'Table 2: 2025']);
  });
});
