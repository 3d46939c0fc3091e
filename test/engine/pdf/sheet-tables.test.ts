import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';
import { printedSheetPdf } from './sheet-pdfs.js';

const HEADER = ['Region', 'Q1', 'Q2', 'Q3', 'Q4'];
const BODY = [
  ['North', '43445', '20772', '52750', '86319'],
  ['South', '7328', '10494', '71239', '13337'],
  ['East', '48931', '77387', '8602', '67510'],
  ['West', '29140', '5914', '12265', '57838'],
  ['Total', '128844', '114567', '144856', '225004'],
];
const WIDTHS = [72, 72, 72, 72, 72];

function tableMarkdown(rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(rows[0]!), line(rows[0]!.map(() => '---')), ...rows.slice(1).map(line)].join('\n');
}

async function tablesOf(pdf: Uint8Array) {
  const doc = await convertBytes(pdf);
  return { doc, tables: allBlocks(doc).filter((block) => block.type === 'table') };
}

describe('a spreadsheet printed to PDF', () => {
  it("heads its table with the column names, set from their cells' left edges over numbers set flush right", async () => {
    const { tables } = await tablesOf(printedSheetPdf({ widths: WIDTHS, rows: [HEADER, ...BODY] }));
    expect(tables.map((table) => table.markdown)).toEqual([tableMarkdown([HEADER, ...BODY])]);
  });

  it('gives each bold name its own column where it stands nearer the numbers of the column before', async () => {
    const rows = [['Name', 'Qty', 'Price'], ['Apple', '3', '1.2'], ['Pear', '5', '0.8'], ['Plum', '12', '0.25'], ['Fig', '40', '0.6'], ['Kiwi', '7', '0.35']];
    const { tables } = await tablesOf(printedSheetPdf({ widths: [79, 80, 80], rows, boldHeader: true }));
    expect(tables.map((table) => table.markdown)).toEqual([tableMarkdown(rows)]);
  });

  it('keeps the sheet name printed over the page out of the table', async () => {
    const { doc, tables } = await tablesOf(printedSheetPdf({ name: 'Sheet1', widths: WIDTHS, rows: [HEADER, ...BODY] }));
    expect(tables.map((table) => table.markdown)).toEqual([tableMarkdown([HEADER, ...BODY])]);
    expect(allBlocks(doc).map((block) => block.markdown)).toContain('Sheet1');
  });

  it('keeps a title row set over a blank row out of the table, as text above it', async () => {
    const { doc, tables } = await tablesOf(printedSheetPdf({ name: 'Sales', widths: WIDTHS, rows: [['Quarterly sales report 2024'], [], HEADER, ...BODY] }));
    expect(tables.map((table) => table.markdown)).toEqual([tableMarkdown([HEADER, ...BODY])]);
    const texts = allBlocks(doc).map((block) => block.markdown);
    expect(texts.findIndex((text) => text.includes('Quarterly sales report 2024'))).toBeLessThan(texts.indexOf(tables[0]!.markdown));
  });
});

describe('a sheet of numbers printed to PDF', () => {
  it('is a table, though a column of it falls by one step a row as a chart axis does', async () => {
    const rows = [
      ['first', 'second', 'third'],
      ['1', '5', '9'],
      ['2', '4', '6'],
      ['3', '3', '3'],
      ['4', '2', '0'],
      ['5', '1', '-3'],
      ['6', '0', '-6'],
    ];
    const { tables } = await tablesOf(printedSheetPdf({ widths: [72, 72, 72], rows }));
    expect(tables.map((table) => table.markdown)).toEqual([tableMarkdown(rows)]);
  });
});
