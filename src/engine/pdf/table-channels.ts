/**
 * A table set in one column of a page of two: the channel between its columns is as empty down the page as the
 * gutter between the page's columns, and would part the page into three. A channel with no prose on either side
 * (a strip of labels beside a strip of figures) is a table's, not the page's: the page keeps only the gutters
 * that have prose beside them. Pure.
 */
import type { Gutter } from './columns.js';
import type { TextLine } from './types.js';
import { countWords } from './white-space.js';

/** A line of prose holds this many words in one strip; a strip holding a few such lines is a column of prose. */
const PROSE_WORDS = 5;
const PROSE_LINES = 3;

/** Whether the strip from x0 to x1 holds PROSE_LINES lines of PROSE_WORDS words or more within it. */
function holdsProse(lines: readonly TextLine[], x0: number, x1: number): boolean {
  let prose = 0;
  for (const line of lines) {
    const words = line.cells.filter((cell) => cell.x0 >= x0 && cell.x1 <= x1).reduce((sum, cell) => sum + countWords(cell.text), 0);
    if (words >= PROSE_WORDS && ++prose >= PROSE_LINES) return true;
  }
  return false;
}

/** Most words a table's cell holds: a label, a figure. */
const CELL_WORDS = 3;
/** Share of the lines in two strips that must hold a cell in each: rows across the channel between them. */
const ROWS_ACROSS = 0.8;

/**
 * Whether the lines in the strips `a0`–`a1` and `b0`–`b1` are a table's rows: short cells, most lines holding one
 * in each strip (cards or panels side by side hold lines of their own in each).
 */
function rowsAcross(lines: readonly TextLine[], a0: number, a1: number, b0: number, b1: number): boolean {
  let either = 0;
  let both = 0;
  for (const line of lines) {
    const left = line.cells.filter((cell) => cell.x0 >= a0 && cell.x1 <= a1);
    const right = line.cells.filter((cell) => cell.x0 >= b0 && cell.x1 <= b1);
    if ([...left, ...right].some((cell) => countWords(cell.text) > CELL_WORDS)) return false;
    if (left.length > 0 || right.length > 0) either++;
    if (left.length > 0 && right.length > 0) both++;
  }
  return either > 0 && both >= ROWS_ACROSS * either;
}

/**
 * The gutters without those between two strips of no prose whose lines are a table's rows, where another gutter,
 * with prose beside it, stays: a page of columns with a table in one of them. Left as they are otherwise (a page
 * of lists or cards side by side).
 */
export function withoutTableChannels(lines: readonly TextLine[], gutters: readonly Gutter[]): Gutter[] {
  if (gutters.length < 2) return [...gutters];
  const edges = [-Infinity, ...gutters.flatMap((gutter) => [gutter.x0, gutter.x1]), Infinity];
  const prose = gutters.map((_, k) => holdsProse(lines, edges[2 * k]!, edges[2 * k + 1]!));
  prose.push(holdsProse(lines, edges[edges.length - 2]!, Infinity));
  const kept = gutters.filter((_, k) => prose[k] || prose[k + 1] || !rowsAcross(lines, edges[2 * k]!, edges[2 * k + 1]!, edges[2 * k + 2]!, edges[2 * k + 3]!));
  return kept.length > 0 ? kept : [...gutters];
}
