/** Hostile workbooks: claimed dimensions, zip bombs, too many cells, overlapping merges. */
import * as XLSX from '@e965/xlsx';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { convertSpreadsheet, workbookModel } from '../../../src/engine/sheets/convert-sheet.js';
import { ZIP_LIMITS } from '../../../src/engine/bytes/zip.js';
import { DEFAULT_SHEET_LIMITS, MAX_SHEET_CELLS } from '../../../src/engine/sheets/limits.js';
import { findRegions, type Region } from '../../../src/engine/sheets/regions.js';
import { regionCellCount, regionRows, sheetCells } from '../../../src/engine/sheets/sheet-grid.js';
import { blocksOf, convertInput, expectEngineError, tableOnPage } from './helpers.js';

/** The sheet's regions as tables, checked against the cell limit as the converter does. */
function sheetTables(sheet: XLSX.WorkSheet, name: string, limits = DEFAULT_SHEET_LIMITS): string[][][] {
  const { cells, ref } = sheetCells(sheet, name, limits);
  const regions: Region[] = findRegions(cells);
  regionCellCount(regions, name, ref, limits.maxSheetCells);
  return regions.map(regionRows);
}

const SHEET_PART = 'xl/worksheets/sheet1.xml';

function smallXlsx(): Uint8Array {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([['a', 'b'], [1, 2]]), 'Bomb');
  return new Uint8Array(XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
}

/** Rewrites the sheet XML of an xlsx (SheetJS cannot write a sheet that claims the whole grid: it walks it). */
function patchSheetXml(xlsx: Uint8Array, patch: (xml: string) => string): Uint8Array {
  const files = unzipSync(xlsx);
  const part = files[SHEET_PART];
  if (!part) throw new Error('no sheet part');
  files[SHEET_PART] = strToU8(patch(strFromU8(part)));
  return zipSync(files);
}

/** Sets the declared uncompressed size of a zip entry in the central directory. */
function declareSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const bytes = zip.slice();
  const view = new DataView(bytes.buffer);
  for (let offset = bytes.length - 22; offset >= 0; offset -= 1) {
    if (view.getUint32(offset, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(offset + 28, true);
    if (strFromU8(bytes.subarray(offset + 46, offset + 46 + nameLength)) === name) {
      view.setUint32(offset + 24, size, true);
      return bytes;
    }
  }
  throw new Error(`no central directory entry for ${name}`);
}

/** A dense in-memory sheet whose cells all share one cell object (cheap to build at any size). */
function denseSheet(cells: [row: number, column: number][], ref: string): XLSX.WorkSheet {
  const cell: XLSX.CellObject = { t: 'n', v: 1, w: '1' };
  const data: XLSX.CellObject[][] = [];
  for (const [row, column] of cells) (data[row] ??= [])[column] = cell;
  return { '!data': data, '!ref': ref } as XLSX.WorkSheet;
}

describe('zip-bomb-like workbooks', () => {
  it('a sheet whose used range claims A1:XFD1048576 converts from the cells it really has', async () => {
    const bytes = patchSheetXml(smallXlsx(), (xml) =>
      xml
        .replace(/<dimension ref="[^"]*"\/>/, '<dimension ref="A1:XFD1048576"/>')
        .replace('</sheetData>', '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>far</t></is></c></row></sheetData>'),
    );
    const heapBefore = process.memoryUsage().heapUsed;
    const model = await convertSpreadsheet(convertInput(bytes, 'claims.xlsx'));
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(256 * 1024 * 1024);
    expect(tableOnPage(model, 1)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(blocksOf(model).at(-1)).toMatchObject({ type: 'text', markdown: 'far' });
  });

  it('a zip part declaring more than the per-part limit is refused before anything is inflated', async () => {
    const bytes = declareSize(smallXlsx(), SHEET_PART, ZIP_LIMITS.entryBytes + 1);
    await expectEngineError(
      convertSpreadsheet(convertInput(bytes, 'bomb.xlsx')),
      'DOCUMENT_TOO_COMPLEX',
      /whose part xl\/worksheets\/sheet1\.xml inflates to 64 MiB \(limit 64 MiB per part\)/,
    );
  });

  it('parts that together declare more than the total limit are refused', async () => {
    let bytes = smallXlsx();
    for (const part of [SHEET_PART, 'xl/styles.xml', 'xl/workbook.xml']) bytes = declareSize(bytes, part, 200 * 1024 * 1024);
    await expectEngineError(convertSpreadsheet(convertInput(bytes, 'bomb.xlsx')), 'DOCUMENT_TOO_COMPLEX', /whose parts inflate to 600 MiB in all \(limit 256 MiB\)/);
  });
});

describe('cell limits', () => {
  it('more than MAX_SHEET_CELLS non-empty cells → DOCUMENT_TOO_COMPLEX naming the sheet and its dimensions', () => {
    const cells: [number, number][] = [];
    for (let row = 0; row < 1001; row += 1) for (let column = 0; column < 1000; column += 1) cells.push([row, column]);
    expect(cells.length).toBeGreaterThan(MAX_SHEET_CELLS);
    expect(() => sheetTables(denseSheet(cells, 'A1:ALL1001'), 'Big')).toThrow(
      /sheet "Big" is too large to convert \(used range A1:ALL1001, 1,001 rows × 1,000 columns\): it holds more than 1,000,000 non-empty cells/,
    );
  });

  it('a sparse diagonal is 2,000 one-cell regions, not a 2,000 × 2,000 table', () => {
    const cells: [number, number][] = Array.from({ length: 2000 }, (_value, index) => [index * 3, index * 5]);
    const tables = sheetTables(denseSheet(cells, 'A1:OVH5998'), 'Diagonal');
    expect(tables).toHaveLength(2000);
    expect(tables.every((table) => table.length === 1 && table[0]?.length === 1)).toBe(true);
  });

  it('the region search stops splitting once its step budget is spent, keeping every cell', () => {
    const cells = Array.from({ length: 200 }, (_value, index) => ({ row: index * 2, column: 0, text: String(index) }));
    expect(findRegions(cells)).toHaveLength(200);
    const capped = findRegions(cells, undefined, 100);
    expect(capped).toHaveLength(1);
    expect(capped.flatMap((region) => region.cells.map((cell) => cell.text)).sort()).toEqual(cells.map((cell) => cell.text).sort());
  });

  it('an L of cells that no gap divides, spanning a huge rectangle → DOCUMENT_TOO_COMPLEX', () => {
    const cells: [number, number][] = [];
    for (let index = 0; index < 2000; index += 1) cells.push([0, index], [index, 0]);
    cells.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(() => sheetTables(denseSheet(cells, 'A1:BXX2000'), 'Corner')).toThrow(
      /sheet "Corner" is too large .*spans 2,000 rows × 2,000 columns/,
    );
  });

  it('sheets that are each within the limit but too many cells together → DOCUMENT_TOO_COMPLEX', () => {
    const cells: [number, number][] = [];
    for (let row = 0; row < 100; row += 1) for (let column = 0; column < 100; column += 1) cells.push([row, column]);
    const sheet = denseSheet(cells, 'A1:CV100');
    const names = ['One', 'Two', 'Three'];
    const workbook: XLSX.WorkBook = { SheetNames: names, Sheets: Object.fromEntries(names.map((name) => [name, sheet])) };
    const limits = { ...DEFAULT_SHEET_LIMITS, maxSheetCells: 10_000, maxWorkbookCells: 25_000 };
    let thrown: unknown;
    try {
      workbookModel(workbook, limits);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ apiCode: 'DOCUMENT_TOO_COMPLEX' });
    expect((thrown as Error).message).toMatch(
      /the workbook is too large to convert: its sheets up to "Three" \(used range A1:CV100, 100 rows × 100 columns\) hold more than 25,000 table cells/,
    );
    expect(workbookModel({ SheetNames: ['One', 'Two'], Sheets: workbook.Sheets }, limits).pages).toHaveLength(2);
  });

  it('overlapping merged ranges over a tall sheet are refused, not ground through', () => {
    const sheet = denseSheet([[0, 0], [99_999, 1]], 'A1:B100000');
    sheet['!merges'] = Array.from({ length: 10_000 }, () => XLSX.utils.decode_range('A1:B100000'));
    const limits = { maxSheetCells: MAX_SHEET_CELLS, maxMergeSteps: 1_000_000 };
    expect(() => sheetTables(sheet, 'Merges', { ...DEFAULT_SHEET_LIMITS, ...limits })).toThrow(
      /sheet "Merges" is too large .*its 10,000 merged ranges overlap or are too many to resolve/,
    );
    // The same ranges once each are fine.
    sheet['!merges'] = sheet['!merges'].slice(0, 1);
    expect(sheetTables(sheet, 'Merges', { ...DEFAULT_SHEET_LIMITS, ...limits })).toEqual([[['1']]]);
  });

  it('a merge over the whole grid with a far-away cell stays cheap', () => {
    const sheet = denseSheet([[0, 0], [5, 16_383]], 'A1:XFD1048576');
    sheet['!merges'] = [XLSX.utils.decode_range('A1:XFD1048576')];
    expect(sheetTables(sheet, 'Wide')).toEqual([[['1']]]);
  });
});
