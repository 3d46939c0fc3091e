/**
 * One worksheet → the rows of plain cell text its Markdown table shows.
 *
 * - Merged ranges: the value stays in the top-left cell and every other cell of the range is left empty (a value a
 *   file keeps under a merge, which Excel would not show, is dropped; if the top-left cell is empty, the first
 *   non-empty covered value moves up into it, so no shown text is lost). Repeating the value across the range
 *   would invent data and make merged titles look like several columns.
 * - Empty rows and columns are trimmed at the edges and removed inside; the first remaining row is the header.
 * - Hidden rows and columns are kept: they hold data like any other.
 *
 * Size guards (limits.ts): the used range (`!ref`) is only read, never walked cell by cell — rows and cells are
 * visited as SheetJS stored them (a sheet claiming A1:XFD1048576 with three cells costs three cells); more than
 * MAX_SHEET_CELLS non-empty cells, or a trimmed table larger than that, is a DOCUMENT_TOO_COMPLEX error naming the
 * sheet and its dimensions (the limits can be tightened through the `limits` argument).
 */
import * as XLSX from '@e965/xlsx';
import { EngineError } from '../engine-error.js';
import { cellText } from './cell-text.js';
import { DEFAULT_SHEET_LIMITS, type SheetLimits } from './limits.js';

type Row = (XLSX.CellObject | undefined)[];
type Rows = (Row | undefined)[];

export interface SheetTable {
  /** Rows of cell text, all the same width; [] when the sheet shows no text. */
  rows: string[][];
  /** The sheet's declared used range (`!ref`), or null. */
  ref: string | null;
}

export function sheetTable(
  sheet: XLSX.WorkSheet,
  sheetName: string,
  limits: Pick<SheetLimits, 'maxSheetCells' | 'maxMergeSteps'> = DEFAULT_SHEET_LIMITS,
): SheetTable {
  const maxCells = limits.maxSheetCells;
  const ref = typeof sheet['!ref'] === 'string' ? sheet['!ref'] : null;
  const data = denseRows(sheet);
  if (data.length === 0) return { rows: [], ref };
  blankMergedCells(data, sheet['!merges'] ?? [], sheetName, limits.maxMergeSteps);

  // Visit the stored cells in row order, keeping the non-empty texts as parallel arrays.
  const rowOf: number[] = [];
  const columnOf: number[] = [];
  const texts: string[] = [];
  const usedRows: number[] = [];
  const columnUsed: boolean[] = [];
  forEachPresent(data, (row, rowIndex) => {
    let rowHasText = false;
    forEachPresent(row, (cell, columnIndex) => {
      const text = cellText(cell);
      if (text === '') return;
      if (texts.length >= maxCells) {
        throw tooComplex(sheetName, ref, `it holds more than ${count(maxCells)} non-empty cells`);
      }
      rowOf.push(rowIndex);
      columnOf.push(columnIndex);
      texts.push(text);
      columnUsed[columnIndex] = true;
      rowHasText = true;
    });
    if (rowHasText) usedRows.push(rowIndex);
  });
  if (texts.length === 0) return { rows: [], ref };

  const columnSlot = new Map<number, number>();
  forEachPresent(columnUsed, (_used, columnIndex) => {
    columnSlot.set(columnIndex, columnSlot.size);
  });
  const width = columnSlot.size;
  const height = usedRows.length;
  if (width * height > maxCells) {
    throw tooComplex(
      sheetName,
      ref,
      `its data spans ${count(height)} rows × ${count(width)} columns even with empty rows and columns removed, ` +
        `more than ${count(maxCells)} cells`,
    );
  }
  const rowSlot = new Map<number, number>();
  usedRows.forEach((rowIndex, slot) => rowSlot.set(rowIndex, slot));
  const rows: string[][] = Array.from({ length: height }, () => new Array<string>(width).fill(''));
  for (let index = 0; index < texts.length; index += 1) {
    const row = rows[rowSlot.get(rowOf[index] ?? -1) ?? -1];
    const slot = columnSlot.get(columnOf[index] ?? -1);
    if (row && slot !== undefined) row[slot] = texts[index] ?? '';
  }
  return { rows, ref };
}

/** The sheet's cells as rows (SheetJS dense mode); a sparse sheet (keyed by A1 address) is converted. */
function denseRows(sheet: XLSX.WorkSheet): Rows {
  const dense: unknown = sheet['!data'];
  if (Array.isArray(dense)) return dense as Rows;
  const rows: Rows = [];
  for (const key of Object.keys(sheet)) {
    if (key.startsWith('!')) continue;
    const address = XLSX.utils.decode_cell(key);
    if (address.r < 0 || address.c < 0) continue;
    (rows[address.r] ??= [])[address.c] = sheet[key] as XLSX.CellObject;
  }
  return rows;
}

/** Short arrays are walked by index; long ones (a row with a cell in column XFD) by their present keys only. */
const INDEX_WALK_LIMIT = 4096;

function forEachPresent<T>(array: readonly (T | undefined)[], visit: (value: T, index: number) => void): void {
  if (array.length <= INDEX_WALK_LIMIT) {
    for (let index = 0; index < array.length; index += 1) {
      const value = array[index];
      if (value !== undefined && value !== null) visit(value, index);
    }
    return;
  }
  // Integer keys come back in ascending order; a sparse array keeps only the cells that exist.
  for (const key of Object.keys(array)) {
    const index = Number(key);
    if (!Number.isInteger(index)) continue;
    const value = array[index];
    if (value !== undefined && value !== null) visit(value, index);
  }
}

/**
 * Leaves only the top-left cell of each merged range (see the module comment). The work is bounded by the rows and
 * cells that exist inside each range, and by `maxSteps` in all (overlapping ranges could multiply it).
 */
function blankMergedCells(data: Rows, merges: readonly XLSX.Range[], sheetName: string, maxSteps: number): void {
  let steps = 0;
  const lastRow = data.length - 1;
  for (const merge of merges) {
    const top = merge.s.r;
    const left = merge.s.c;
    const bottom = Math.min(merge.e.r, lastRow);
    const right = merge.e.c;
    if (top < 0 || left < 0 || bottom < top || right < left) continue;
    let anchorEmpty = cellText(data[top]?.[left]) === '';
    for (let rowIndex = top; rowIndex <= bottom; rowIndex += 1) {
      steps += 1;
      const row = data[rowIndex];
      if (!row) continue;
      const visit = (cell: XLSX.CellObject, columnIndex: number) => {
        steps += 1;
        if (columnIndex < left || columnIndex > right || (rowIndex === top && columnIndex === left)) return;
        row[columnIndex] = undefined;
        if (anchorEmpty && cellText(cell) !== '') {
          (data[top] ??= [])[left] = cell;
          anchorEmpty = false;
        }
      };
      if (right - left < 64) {
        for (let columnIndex = left; columnIndex <= Math.min(right, row.length - 1); columnIndex += 1) {
          const cell = row[columnIndex];
          if (cell) visit(cell, columnIndex);
          else steps += 1;
        }
      } else {
        forEachPresent(row, visit);
      }
    }
    if (steps > maxSteps) {
      throw tooComplex(sheetName, null, `its ${count(merges.length)} merged ranges overlap or are too many to resolve`);
    }
  }
}

function tooComplex(sheetName: string, ref: string | null, why: string): EngineError {
  return new EngineError(
    'DOCUMENT_TOO_COMPLEX',
    `sheet "${sheetName}" is too large to convert${ref ? ` (used range ${describeRange(ref)})` : ''}: ${why}`,
  );
}

/** "A1:XFD1048576, 1,048,576 rows × 16,384 columns". */
export function describeRange(ref: string): string {
  try {
    const range = XLSX.utils.decode_range(ref);
    return `${ref}, ${count(range.e.r - range.s.r + 1)} rows × ${count(range.e.c - range.s.c + 1)} columns`;
  } catch {
    return ref;
  }
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
