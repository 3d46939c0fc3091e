/**
 * Which empty rows and columns of an OOXML sheet are spacers inside a table rather than gaps between tables
 * (regions.ts): hidden ones, columns narrower than MAX_SPACER_COLUMN_WIDTH characters and rows lower than
 * MAX_SPACER_ROW_HEIGHT points. Financial statements separate column groups with 2-character columns and put
 * 4-point rows under their headers; a gap between two tables has ordinary size.
 *
 * SheetJS only reads widths and heights with its `cellStyles` option, which makes reading a styled workbook many
 * times slower, so the `<col>` elements and the `<row>` start tags are read from the sheet XML here: one regular
 * expression pass over a sheet part (read through the engine's zip reader, bytes/zip.ts), only when a gap on that
 * sheet needs judging; parts above MAX_SCANNED_PART_BYTES are not scanned (their gaps all separate).
 * Other formats (.xlsb, .xls, .ods) have no spacers: every empty row and column separates.
 */
import type { ZipArchive } from '../bytes/zip.js';
import type { Spacers } from './regions.js';
import { type SheetPart, workbookSheetParts } from './ooxml-workbook.js';

export const MAX_SPACER_COLUMN_WIDTH = 4;
export const MAX_SPACER_ROW_HEIGHT = 9;
const MAX_SCANNED_PART_BYTES = 32 * 1024 * 1024;
/** Columns in a sheet (XFD): `<col min max>` ranges are clamped to it. */
const MAX_COLUMNS = 16_384;

/**
 * Spacers by sheet name for the worksheets of an .xlsx/.xlsm package (none for other workbooks). A sheet's part is
 * only read the first time a gap on it needs judging: a sheet whose tables have no small gaps costs nothing.
 */
export function workbookSpacers(zip: ZipArchive | undefined): Map<string, Spacers> {
  const result = new Map<string, Spacers>();
  if (zip === undefined) return result;
  let sheets: SheetPart[];
  try {
    sheets = workbookSheetParts(zip).filter((sheet) => sheet.part.includes('worksheets/'));
  } catch {
    // Layout hints only: a package this cannot read is converted with every gap separating.
    return result;
  }
  for (const sheet of sheets) {
    let loaded: Spacers | null | undefined;
    const load = (): Spacers | null => {
      if (loaded === undefined) loaded = readSpacers(zip, sheet.part);
      return loaded;
    };
    result.set(sheet.name, { row: (index) => load()?.row(index) ?? false, column: (index) => load()?.column(index) ?? false });
  }
  return result;
}

function readSpacers(zip: ZipArchive, part: string): Spacers | null {
  if ((zip.sizeOf(part) ?? Infinity) > MAX_SCANNED_PART_BYTES) return null;
  try {
    const xml = zip.readText(part);
    return xml === undefined ? null : sheetSpacers(xml);
  } catch {
    return null;
  }
}

/** The spacers a worksheet's XML declares, or null when it declares none. */
export function sheetSpacers(sheetXml: string): Spacers | null {
  const columns = new Set<number>();
  const colsEnd = sheetXml.indexOf('<sheetData');
  const head = colsEnd < 0 ? sheetXml : sheetXml.slice(0, colsEnd);
  for (const match of head.matchAll(/<(?:\w+:)?col\b([^>]*)>/g)) {
    const attributes = match[1] ?? '';
    const min = Number(attribute(attributes, 'min'));
    const max = Math.min(Number(attribute(attributes, 'max')), MAX_COLUMNS);
    const width = Number(attribute(attributes, 'width') ?? Infinity);
    const hidden = isTrue(attribute(attributes, 'hidden'));
    if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max < min) continue;
    if (hidden || width < MAX_SPACER_COLUMN_WIDTH) for (let column = min; column <= max; column += 1) columns.add(column - 1);
  }
  const rows = new Set<number>();
  let nextRow = 1;
  for (const match of sheetXml.matchAll(/<(?:\w+:)?row\b([^>]*)>/g)) {
    const attributes = match[1] ?? '';
    const declared = Number(attribute(attributes, 'r'));
    const row = Number.isInteger(declared) && declared > 0 ? declared : nextRow;
    nextRow = row + 1;
    const height = Number(attribute(attributes, 'ht') ?? Infinity);
    if (isTrue(attribute(attributes, 'hidden')) || height < MAX_SPACER_ROW_HEIGHT) rows.add(row - 1);
  }
  if (columns.size === 0 && rows.size === 0) return null;
  return { row: (index) => rows.has(index), column: (index) => columns.has(index) };
}

const ATTRIBUTE_PATTERNS = new Map(
  ['r', 'ht', 'hidden', 'min', 'max', 'width'].map((name) => [name, new RegExp(`(?:^|\\s)${name}="([^"]*)"`)]),
);

function attribute(attributes: string, name: string): string | undefined {
  return ATTRIBUTE_PATTERNS.get(name)?.exec(attributes)?.[1];
}

function isTrue(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}
