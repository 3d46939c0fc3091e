/**
 * One region of a sheet (regions.ts) → what the Markdown shows for it:
 *
 * - a title: rows at the top of the region holding a single non-empty cell (a title typed in one cell, or a merged
 *   cell across the table, whose text stays in its first cell) above rows with several cells become lines above
 *   the table, not a one-cell header row;
 * - a region of one cell is a line of text (a note, a lone label), not a 1×1 table; so is each cell of a region of
 *   one column holding no numbers (a heading and a sub-heading, a label above its value in a form-like sheet);
 * - anything else is a table whose first row is the header.
 */
import type { Region, SheetCell } from './regions.js';
import { regionRows } from './sheet-grid.js';

export type LayoutPart =
  | { kind: 'title'; text: string }
  | { kind: 'line'; text: string }
  | { kind: 'table'; rows: string[][] };

/** A cell showing a number, an amount, a percentage or a date. */
const NUMBER = /^[-+(]?[$€£¥]?\s?\d[\d.,:/ -]*%?\)?$/;

/** At most this many single-cell rows above a table are taken for its title lines. */
const MAX_TITLE_ROWS = 3;

export function layoutRegion(region: Region): LayoutPart[] {
  const first = region.cells[0];
  if (region.cells.length === 1 && first) return [{ kind: 'line', text: first.text }];
  if (region.left === region.right && !region.cells.some((cell) => NUMBER.test(cell.text))) {
    return region.cells.map((cell) => ({ kind: 'line', text: cell.text }));
  }
  const rows = rowsOf(region.cells);
  const parts: LayoutPart[] = [];
  let start = 0;
  while (
    start < MAX_TITLE_ROWS &&
    start < rows.length - 1 &&
    rows[start]?.length === 1 &&
    rows.slice(start + 1).some((row) => row.length > 1)
  ) {
    parts.push({ kind: 'title', text: rows[start]?.[0]?.text ?? '' });
    start += 1;
  }
  const body = start === 0 ? region : { ...region, cells: rows.slice(start).flat() };
  parts.push({ kind: 'table', rows: regionRows(body) });
  return parts;
}

/** Cells grouped by row (cells are in row-major order). */
function rowsOf(cells: readonly SheetCell[]): SheetCell[][] {
  const rows: SheetCell[][] = [];
  let current: SheetCell[] = [];
  for (const cell of cells) {
    if (current.length > 0 && (current[0] as SheetCell).row !== cell.row) {
      rows.push(current);
      current = [];
    }
    current.push(cell);
  }
  if (current.length > 0) rows.push(current);
  return rows;
}
