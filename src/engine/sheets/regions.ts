/**
 * The separate tables an author laid out on one sheet: regions of non-empty cells that entirely empty rows or
 * columns keep apart (two tables side by side, a second table below the first, a note under a table).
 *
 * The cut is recursive (an X-Y cut): a region is split at every row no cell of it uses, each band at every column
 * no cell of it uses, and so on until nothing splits. A region that no empty row or column divides is also split
 * where two blocks only touch at a corner (one ends in the row and column before the other starts, the
 * "diagonal" layout), since no table is shaped like that. Inside a final region every row and column holds a cell,
 * spacers (below) excepted.
 *
 * Spacer rows and columns do not separate: authors of financial statements and forms put narrow empty columns
 * and short empty rows between the parts of one table (a 2-character column between column groups, a 4-point
 * row under the header). What counts as a spacer (a hidden, narrow or short row or column) is the caller's call,
 * through `Spacers`.
 *
 * Regions come out in reading order: top to bottom, then left to right. The work is bounded by `maxSteps` (cells
 * visited over all the passes): a pathological arrangement that would need more stops being split and keeps the
 * regions found so far, which is still a correct rendering of its cells, only with fewer tables.
 */

/** One non-empty cell: its 0-based row and column in the sheet and the text it shows. */
export interface SheetCell {
  row: number;
  column: number;
  text: string;
}

export interface Region {
  top: number;
  left: number;
  bottom: number;
  right: number;
  /** The region's cells in row-major order. */
  cells: SheetCell[];
}

interface Group {
  cells: SheetCell[];
  byRows: boolean;
  otherFailed: boolean;
}

/** Cells visited by all the passes together, per sheet (a few passes over a million cells is the usual worst). */
export const MAX_REGION_STEPS = 50_000_000;

/** Empty rows and columns that keep the cells on both sides together (see the module comment). */
export interface Spacers {
  row(index: number): boolean;
  column(index: number): boolean;
}

const NO_SPACERS: Spacers = { row: () => false, column: () => false };

/** A gap longer than this always separates (no one spaces a table with dozens of thin rows). */
const MAX_SPACER_GAP = 8;

/** Splits cells (given in row-major order) into regions, in reading order. */
export function findRegions(
  cells: readonly SheetCell[],
  spacers: Spacers = NO_SPACERS,
  maxSteps: number = MAX_REGION_STEPS,
): Region[] {
  if (cells.length === 0) return [];
  const done: SheetCell[][] = [];
  // A group of cells still to examine, the direction of its next cut, and whether the other direction is already
  // known not to cut it (a band that one cut produced has no gap in that direction).
  const pending: Group[] = [{ cells: [...cells], byRows: true, otherFailed: false }];
  let steps = 0;
  while (pending.length > 0) {
    const group = pending.pop() as Group;
    steps += group.cells.length;
    if (steps > maxSteps) {
      done.push(group.cells);
      for (const rest of pending) done.push(rest.cells);
      break;
    }
    const parts = group.byRows ? splitByRows(group.cells, spacers) : splitByColumns(group.cells, spacers);
    if (parts.length > 1) {
      for (const part of parts) pending.push({ cells: part, byRows: !group.byRows, otherFailed: true });
      continue;
    }
    if (!group.otherFailed) {
      pending.push({ cells: group.cells, byRows: !group.byRows, otherFailed: true });
      continue;
    }
    const corners = splitAtCorners(group.cells);
    if (corners.length > 1) {
      for (const part of corners) pending.push({ cells: part, byRows: true, otherFailed: false });
      continue;
    }
    done.push(group.cells);
  }
  return done.map(regionOf).sort((a, b) => a.top - b.top || a.left - b.left);
}

function regionOf(cells: SheetCell[]): Region {
  let top = Infinity;
  let left = Infinity;
  let bottom = -1;
  let right = -1;
  for (const cell of cells) {
    if (cell.row < top) top = cell.row;
    if (cell.row > bottom) bottom = cell.row;
    if (cell.column < left) left = cell.column;
    if (cell.column > right) right = cell.column;
  }
  const ordered = isRowMajor(cells) ? cells : cells.slice().sort((a, b) => a.row - b.row || a.column - b.column);
  return { top, left, bottom, right, cells: ordered };
}

/** Bands of consecutive used rows (cells sorted by row first). */
function splitByRows(cells: SheetCell[], spacers: Spacers): SheetCell[][] {
  const sorted = isRowMajor(cells) ? cells : cells.slice().sort((a, b) => a.row - b.row || a.column - b.column);
  const bands: SheetCell[][] = [];
  let band: SheetCell[] = [];
  let lastRow = -2;
  for (const cell of sorted) {
    if (band.length > 0 && separates(lastRow, cell.row, spacers.row)) {
      bands.push(band);
      band = [];
    }
    band.push(cell);
    lastRow = cell.row;
  }
  if (band.length > 0) bands.push(band);
  return bands;
}

/** Bands of consecutive used columns, each keeping its cells in row-major order. */
function splitByColumns(cells: SheetCell[], spacers: Spacers): SheetCell[][] {
  const columns = usedColumns(cells);
  const bandOf = new Map<number, number>();
  let band = 0;
  columns.forEach((column, index) => {
    if (index > 0 && separates(columns[index - 1] ?? column, column, spacers.column)) band += 1;
    bandOf.set(column, band);
  });
  if (band === 0) return [cells];
  const bands: SheetCell[][] = Array.from({ length: band + 1 }, () => []);
  for (const cell of cells) bands[bandOf.get(cell.column) ?? 0]?.push(cell);
  return bands;
}

/** The distinct columns of some cells, ascending; in time proportional to the cells, not to the columns' span. */
function usedColumns(cells: readonly SheetCell[]): number[] {
  let min = Infinity;
  let max = -Infinity;
  for (const cell of cells) {
    if (cell.column < min) min = cell.column;
    if (cell.column > max) max = cell.column;
  }
  const span = max - min + 1;
  if (span > 4 * cells.length + 64) return [...new Set(cells.map((cell) => cell.column))].sort((a, b) => a - b);
  // A dense group (the usual case, up to a million cells): a flag per column beats a set of every cell's column.
  const used = new Uint8Array(span);
  for (const cell of cells) used[cell.column - min] = 1;
  const columns: number[] = [];
  for (let offset = 0; offset < span; offset += 1) if (used[offset] === 1) columns.push(min + offset);
  return columns;
}

/**
 * Splits between rows where everything above lies entirely left (or entirely right) of everything below: blocks
 * that touch only at a corner.
 */
function splitAtCorners(cells: SheetCell[]): SheetCell[][] {
  const sorted = isRowMajor(cells) ? cells : cells.slice().sort((a, b) => a.row - b.row || a.column - b.column);
  // Per used row: its first cell's index and the smallest and largest column it uses.
  const starts: number[] = [];
  const minColumn: number[] = [];
  const maxColumn: number[] = [];
  sorted.forEach((cell, index) => {
    const last = starts.length - 1;
    if (last < 0 || (sorted[index - 1]?.row ?? -1) !== cell.row) {
      starts.push(index);
      minColumn.push(cell.column);
      maxColumn.push(cell.column);
    } else {
      minColumn[last] = Math.min(minColumn[last] ?? cell.column, cell.column);
      maxColumn[last] = Math.max(maxColumn[last] ?? cell.column, cell.column);
    }
  });
  const rows = starts.length;
  if (rows < 2) return [sorted];
  const suffixMin: number[] = new Array<number>(rows);
  const suffixMax: number[] = new Array<number>(rows);
  for (let index = rows - 1; index >= 0; index -= 1) {
    suffixMin[index] = Math.min(minColumn[index] ?? Infinity, suffixMin[index + 1] ?? Infinity);
    suffixMax[index] = Math.max(maxColumn[index] ?? -Infinity, suffixMax[index + 1] ?? -Infinity);
  }
  const parts: SheetCell[][] = [];
  let prefixMin = Infinity;
  let prefixMax = -Infinity;
  let partStart = 0;
  for (let index = 0; index < rows - 1; index += 1) {
    prefixMin = Math.min(prefixMin, minColumn[index] ?? Infinity);
    prefixMax = Math.max(prefixMax, maxColumn[index] ?? -Infinity);
    const below = index + 1;
    if (prefixMax < (suffixMin[below] ?? -Infinity) || prefixMin > (suffixMax[below] ?? Infinity)) {
      const end = starts[below] ?? sorted.length;
      parts.push(sorted.slice(partStart, end));
      partStart = end;
      prefixMin = Infinity;
      prefixMax = -Infinity;
    }
  }
  parts.push(sorted.slice(partStart));
  return parts;
}

/** Whether the empty rows (or columns) strictly between two used ones separate them. */
function separates(before: number, after: number, isSpacer: (index: number) => boolean): boolean {
  if (after <= before + 1) return false;
  if (after - before - 1 > MAX_SPACER_GAP) return true;
  for (let index = before + 1; index < after; index += 1) if (!isSpacer(index)) return true;
  return false;
}

function isRowMajor(cells: readonly SheetCell[]): boolean {
  for (let index = 1; index < cells.length; index += 1) {
    const previous = cells[index - 1] as SheetCell;
    const cell = cells[index] as SheetCell;
    if (cell.row < previous.row || (cell.row === previous.row && cell.column < previous.column)) return false;
  }
  return true;
}
