/** The spreadsheet converter on workbooks built in the test: formats, dates, merges, visibility, escaping. */
import * as XLSX from '@e965/xlsx';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentModel } from '../../../src/engine/model.js';
import { convertSpreadsheet, headingText } from '../../../src/engine/sheets/convert-sheet.js';
import { convertInput, tableOnPage, tablesOnPage } from './helpers.js';

type BookType = 'xlsx' | 'xlsb' | 'biff8' | 'ods';

function workbookOf(sheets: Record<string, XLSX.WorkSheet>): XLSX.WorkBook {
  const workbook = XLSX.utils.book_new();
  for (const [name, sheet] of Object.entries(sheets)) XLSX.utils.book_append_sheet(workbook, sheet, name);
  return workbook;
}

async function convertWorkbook(workbook: XLSX.WorkBook, bookType: BookType = 'xlsx'): Promise<DocumentModel> {
  const bytes = XLSX.write(workbook, { type: 'buffer', bookType }) as Buffer;
  const extension = bookType === 'biff8' ? 'xls' : bookType;
  return convertSpreadsheet(convertInput(new Uint8Array(bytes), `built.${extension}`));
}

/** A sheet with number formats, dates, a cached formula result, an error and a boolean. */
function formattedSheet(): XLSX.WorkSheet {
  const sheet = XLSX.utils.aoa_to_sheet([
    ['short date', 'custom date', 'date time', 'percent', 'formula', 'error', 'flag', 'thousands'],
  ]);
  sheet.A2 = { t: 'n', v: 45306, z: 'm/d/yy' }; // Excel's built-in format 14, the locale's short date
  sheet.B2 = { t: 'n', v: 45306, z: 'dd/mm/yyyy' };
  sheet.C2 = { t: 'n', v: 45306 + 13.75 / 24, z: 'm/d/yy h:mm' }; // built-in 22
  sheet.D2 = { t: 'n', v: 0.125, z: '0.00%' };
  sheet.E2 = { t: 'n', v: 42, f: '6*7' };
  sheet.F2 = { t: 'e', v: 0x07 };
  sheet.G2 = { t: 'b', v: true };
  sheet.H2 = { t: 'n', v: 1234.5, z: '#,##0.00' };
  sheet['!ref'] = 'A1:H2';
  return sheet;
}

const EXPECTED_FORMATTED = ['2024-01-15', '15/01/2024', '2024-01-15 13:45:00', '12.50%', '42', '#DIV/0!', 'TRUE', '1,234.50'];

describe('cell text', () => {
  const originalTz = process.env.TZ;
  afterEach(() => {
    if (originalTz === undefined) delete process.env.TZ;
    else process.env.TZ = originalTz;
  });

  it.each<BookType>(['xlsx', 'xlsb', 'biff8'])(
    '%s: number formats as Excel shows them, locale-default dates as ISO, formula results, errors',
    async (bookType) => {
      const model = await convertWorkbook(workbookOf({ Formats: formattedSheet() }), bookType);
      expect(tableOnPage(model, 1)[1]).toEqual(EXPECTED_FORMATTED);
    },
  );

  it.each(['Pacific/Kiritimati', 'America/Los_Angeles', 'UTC'])('dates do not depend on the time zone (%s)', async (zone) => {
    process.env.TZ = zone;
    const model = await convertWorkbook(workbookOf({ Formats: formattedSheet() }));
    expect(tableOnPage(model, 1)[1]?.slice(0, 3)).toEqual(EXPECTED_FORMATTED.slice(0, 3));
  });

  it.each<BookType>(['xlsx', 'biff8'])('%s: whole numbers in General keep every digit (IDs stored as numbers), other numbers as Excel shows them', async (bookType) => {
    const sheet = XLSX.utils.aoa_to_sheet([['order', 'big', 'negative', 'fraction', 'tiny', 'formatted']]);
    sheet.A2 = { t: 'n', v: 123456789012 };
    sheet.B2 = { t: 'n', v: 999999999999999, z: 'General' };
    sheet.C2 = { t: 'n', v: -40000000000123 };
    sheet.D2 = { t: 'n', v: 1234.5 };
    sheet.E2 = { t: 'n', v: 1e-7 };
    sheet.F2 = { t: 'n', v: 123456789012, z: '0.00E+00' };
    sheet['!ref'] = 'A1:F2';
    const model = await convertWorkbook(workbookOf({ Numbers: sheet }), bookType);
    expect(tableOnPage(model, 1)[1]).toEqual(['123456789012', '999999999999999', '-40000000000123', '1234.5', '0.0000001', '1.23E+11']);
  });

  it('escapes pipes and turns line breaks into <br>', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([['a|b', 'two\nlines'], ['x', 'CR\r\nLF']]);
    const model = await convertWorkbook(workbookOf({ Text: sheet }));
    const table = model.pages[0]?.blocks[1]?.markdown ?? '';
    expect(table.split('\n')[0]).toBe('| a\\|b | two<br>lines |');
    expect(table.split('\n')[2]).toBe('| x | CR<br>LF |');
  });

  it('hyperlinks become Markdown links; a link whose text is its URL stays a bare URL', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([['site', 'url'], ['Docs (v2)', 'https://example.com']]);
    sheet.A2 = { t: 's', v: 'Docs (v2)', l: { Target: 'https://example.com/a b(1)' } };
    sheet.B2 = { t: 's', v: 'https://example.com', l: { Target: 'https://example.com' } };
    const model = await convertWorkbook(workbookOf({ Links: sheet }));
    expect(tableOnPage(model, 1)[1]).toEqual(['[Docs (v2)](https://example.com/a%20b%281%29)', 'https://example.com']);
  });
});

describe('layout', () => {
  it('trims empty edges; empty rows and columns of ordinary size separate tables, read top to bottom then left to right', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([]);
    XLSX.utils.sheet_add_aoa(sheet, [['name', 'qty'], ['bolt', 4], ['nut', 10]], { origin: 'C3' });
    XLSX.utils.sheet_add_aoa(sheet, [['city', 'zip'], ['Oslo', '0150']], { origin: 'F4' });
    XLSX.utils.sheet_add_aoa(sheet, [['total', 14]], { origin: 'C8' });
    sheet['!ref'] = 'A1:Z40';
    const model = await convertWorkbook(workbookOf({ Parts: sheet }));
    expect(tablesOnPage(model, 1)).toEqual([
      [['name', 'qty'], ['bolt', '4'], ['nut', '10']],
      [['city', 'zip'], ['Oslo', '0150']],
      [['total', '14']],
    ]);
  });

  it('hidden, narrow and short empty rows and columns are spacers inside one table', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['Region', null, 'Q1', null, 'Q2'],
      [null, null, null, null, null],
      ['North', null, 1, null, 2],
      [null, null, null, null, null],
      ['South', null, 3, null, 4],
    ]);
    sheet['!cols'] = [{ wch: 12 }, { wch: 1 }, { wch: 10 }, { hidden: true, wch: 10 }, { wch: 10 }];
    sheet['!rows'] = [{ hpt: 15 }, { hpt: 4 }, { hpt: 15 }, { hidden: true, hpt: 15 }, { hpt: 15 }];
    const model = await convertWorkbook(workbookOf({ Spaced: sheet }));
    expect(tablesOnPage(model, 1)).toEqual([[['Region', 'Q1', 'Q2'], ['North', '1', '2'], ['South', '3', '4']]]);
  });

  it('a title above a table is a line, not a one-cell header row', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([['Quarterly sales', null, null], ['Region', 'Q1', 'Q2'], ['North', 1, 2]]);
    sheet['!merges'] = [XLSX.utils.decode_range('A1:C1')];
    const model = await convertWorkbook(workbookOf({ Sales: sheet }));
    expect(model.pages[0]?.blocks.map((block) => [block.type, block.markdown])).toEqual([
      ['section_header', '## Sales'],
      ['text', 'Quarterly sales'],
      ['table', '| Region | Q1 | Q2 |\n| --- | --- | --- |\n| North | 1 | 2 |'],
    ]);
    expect(model.pages[0]?.blocks[1]?.label).toBe('table-title');
  });

  it('merged cells: value in the top-left cell only; a value under the merge is dropped or moved up', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['Title', 'stale', 'stale'],
      ['a', 'b', 'c'],
      [null, null, 'moved up'],
      [null, null, null],
    ]);
    sheet['!merges'] = [XLSX.utils.decode_range('A1:C1'), XLSX.utils.decode_range('A3:C4')];
    const model = await convertWorkbook(workbookOf({ Merged: sheet }));
    // The merged A1:C1 over the table is its title line.
    expect(model.pages[0]?.blocks[1]?.markdown).toBe('Title');
    expect(tableOnPage(model, 1)).toEqual([
      ['a', 'b', 'c'],
      ['moved up', '', ''],
    ]);
  });

  it('merged cells in .ods: the covered cells stay empty', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([['Region', 'Q1', 'Q2'], ['North', 1, 2], [null, 3, 4]]);
    sheet['!merges'] = [XLSX.utils.decode_range('A2:A3')];
    const model = await convertWorkbook(workbookOf({ Data: sheet }), 'ods');
    expect(tableOnPage(model, 1)).toEqual([['Region', 'Q1', 'Q2'], ['North', '1', '2'], ['', '3', '4']]);
  });
});

describe('workbook structure', () => {
  it('keeps hidden sheets (listed in metadata), skips very hidden ones; pages stay consecutive', async () => {
    const workbook = workbookOf({
      Visible: XLSX.utils.aoa_to_sheet([['v'], [1]]),
      Hidden: XLSX.utils.aoa_to_sheet([['h'], [2]]),
      Secret: XLSX.utils.aoa_to_sheet([['s'], [3]]),
      Last: XLSX.utils.aoa_to_sheet([['l'], [4]]),
    });
    workbook.Workbook = { Sheets: [{ Hidden: 0 }, { Hidden: 1 }, { Hidden: 2 }, { Hidden: 0 }] };
    const model = await convertWorkbook(workbook);
    expect(model.metadata.sheetNames).toEqual(['Visible', 'Hidden', 'Last']);
    expect(model.metadata.hiddenSheets).toEqual(['Hidden']);
    expect(model.pages.map((page) => [page.pageNumber, page.blocks[0]?.markdown])).toEqual([
      [1, '## Visible'],
      [2, '## Hidden'],
      [3, '## Last'],
    ]);
  });

  it('title and author come from the workbook properties', async () => {
    const workbook = workbookOf({ Only: XLSX.utils.aoa_to_sheet([['x']]) });
    workbook.Props = { Title: 'Quarterly figures', Author: 'Ann Example' };
    const model = await convertWorkbook(workbook);
    expect(model.metadata).toMatchObject({ title: 'Quarterly figures', author: 'Ann Example', sheetNames: ['Only'] });
  });

  it('sheet names are escaped for a heading only where Markdown would misread them', () => {
    expect(headingText('missing_header_head')).toBe('missing_header_head');
    expect(headingText('_draft_')).toBe('\\_draft\\_');
    expect(headingText('Q1 *final* [v2]')).toBe('Q1 \\*final\\* \\[v2\\]');
    expect(headingText('Totals #')).toBe('Totals \\#');
    expect(headingText('a<b>\nc')).toBe('a\\<b\\> c');
    expect(headingText('  ')).toBe('(unnamed sheet)');
  });
});

describe('older and text-based spreadsheet formats', () => {
  // biff3 and biff4 are written by SheetJS but missing from its BookType union.
  it.each(['biff2', 'biff3', 'biff4', 'biff5', 'xlml', 'fods', 'html'])('%s saved as .xls converts', async (bookType) => {
    const bytes = XLSX.write(workbookOf({ Parts: XLSX.utils.aoa_to_sheet([['name', 'qty'], ['bolt', 4]]) }), {
      type: 'buffer',
      bookType: bookType as XLSX.BookType,
    }) as Buffer;
    const model = await convertSpreadsheet(convertInput(new Uint8Array(bytes), 'old.xls'));
    expect(model.pages).toHaveLength(1);
    expect(tableOnPage(model, 1)).toEqual([['name', 'qty'], ['bolt', '4']]);
  });
});
