/**
 * One worksheet → the cells that show text (regions.ts groups them into tables, sheet-layout.ts lays them out).
 *
 * - Merged ranges: the value stays in the top-left cell and every other cell of the range is left empty (a value a
 *   file keeps under a merge, which Excel would not show, is dropped; if the top-left cell is empty, the first
 *   non-empty covered value moves up into it, so no shown text is lost). Repeating the value across the range
 *   would invent data and make merged titles look like several columns.
 * - Hidden rows and columns are kept: they hold data like any other.
 * - Comments and notes are collected with the address of their cell, also on cells that show no text.
 *
 * Size guards (limits.ts): the used range (`!ref`) is only read, never walked cell by cell — rows and cells are
 * visited as SheetJS stored them (a sheet claiming A1:XFD1048576 with three cells costs three cells); more than
 * MAX_SHEET_CELLS non-empty cells, or tables larger than that together, is a DOCUMENT_TOO_COMPLEX error naming the
 * sheet and its dimensions (the limits can be tightened through the `limits` argument).
 */
import * as XLSX from '@e965/xlsx';
import { EngineError } from '../engine-error.js';
import { cellText } from './cell-text.js';
import { type CellComment, cellComments } from './comments.js';
import { DEFAULT_SHEET_LIMITS, type SheetLimits } from './limits.js';
import type { Region, SheetCell } from './regions.js';

type Row = (XLSX.CellObject | undefined)[];
type Rows = (Row | undefined)[];

export interface SheetCells {
  /** The non-empty cells in row-major order. */
  cells: SheetCell[];
  /** Comments and notes on cells, in row-major order of their cells. */
  comments: CellComment[];
  /** The sheet's declared used range (`!ref`), or null. */
  ref: string | null;
}

/** The cells of a sheet that show text, after merged ranges are resolved, and the comments on its cells. */
export function sheetCells(
  sheet: XLSX.WorkSheet,
  sheetName: string,
  limits: Pick<SheetLimits, 'maxSheetCells' | 'maxMergeSteps'> = DEFAULT_SHEET_LIMITS,
): SheetCells {
  const maxCells = limits.maxSheetCells;
  const ref = typeof sheet['!ref'] === 'string' ? sheet['!ref'] : null;
  const data = denseRows(sheet);
  const cells: SheetCell[] = [];
  const comments: CellComment[] = [];
  if (data.length === 0) return { cells, comments, ref };
  blankMergedCells(data, sheet['!merges'] ?? [], sheetName, limits.maxMergeSteps);

  forEachPresent(data, (row, rowIndex) => {
    forEachPresent(row, (cell, columnIndex) => {
      if (cell.c !== undefined && comments.length < maxCells) comments.push(...cellComments(cell, rowIndex, columnIndex));
      const text = cellText(cell);
      if (text === '') return;
      if (cells.length >= maxCells) {
        throw tooComplex(sheetName, ref, `it holds more than ${count(maxCells)} non-empty cells`);
      }
      cells.push({ row: rowIndex, column: columnIndex, text });
    });
  });
  return { cells, comments, ref };
}

/** The rows and the columns a region's cells use, ascending (spacer rows and columns inside it use none). */
export function regionShape(region: Region): { rows: number[]; columns: number[] } {
  const rows: number[] = [];
  const columns = new Set<number>();
  for (const cell of region.cells) {
    if (rows[rows.length - 1] !== cell.row) rows.push(cell.row);
    columns.add(cell.column);
  }
  return { rows, columns: [...columns].sort((a, b) => a - b) };
}

/** A region as rows of cell text, all the same width, without the empty rows and columns it spans. */
export function regionRows(region: Region): string[][] {
  const shape = regionShape(region);
  const rowSlot = new Map(shape.rows.map((row, index) => [row, index]));
  const columnSlot = new Map(shape.columns.map((column, index) => [column, index]));
  const rows: string[][] = shape.rows.map(() => new Array<string>(shape.columns.length).fill(''));
  for (const cell of region.cells) {
    const row = rows[rowSlot.get(cell.row) ?? -1];
    const slot = columnSlot.get(cell.column);
    if (row && slot !== undefined) row[slot] = cell.text;
  }
  return rows;
}

/**
 * The table cells (rows × columns) a sheet's regions make; DOCUMENT_TOO_COMPLEX when one region, or all of them
 * together, would make more than `maxCells` (a sparse sheet can spread few cells over a huge rectangle).
 */
export function regionCellCount(regions: readonly Region[], sheetName: string, ref: string | null, maxCells: number): number {
  let total = 0;
  for (const region of regions) {
    const shape = regionShape(region);
    const height = shape.rows.length;
    const width = shape.columns.length;
    if (height * width > maxCells) {
      throw tooComplex(
        sheetName,
        ref,
        `its data spans ${count(height)} rows × ${count(width)} columns even with empty rows and columns removed, ` +
          `more than ${count(maxCells)} cells`,
      );
    }
    total += height * width;
    if (total > maxCells) {
      throw tooComplex(sheetName, ref, `its ${count(regions.length)} tables together span more than ${count(maxCells)} cells`);
    }
  }
  return total;
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
