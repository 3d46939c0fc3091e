/**
 * A borderless table's columns set close (8 pt of padding between them, under an em of a large body type) lose
 * their channel on the lines where a wrapped cell's text runs up to its column's edge: `training lead`, the end of
 * a criterion and its owner's name, read as one cell, and the line as prose. Where the rows round such a line
 * start a cell at the very place a word of the line starts, past a gap wider than a word space, the line is cut
 * there too: the table's columns, which its other rows set out, hold on it.
 */
import { buildLine } from './lines.js';
import type { Cell, TextLine } from './types.js';

/** Gaps this wide (ems) may part two columns' texts; a word space is 0.2–0.35 em. */
const COLUMN_GAP_EM = 0.45;
/** A word starts at a column's start this close (points). */
const SAME_START = 1;
/** Lines above and below that may set out the columns. */
const NEIGHBOURS = 3;
/** Cells a line needs to set out columns: a table's row, not a line of prose with one gap. */
const ROW_CELLS = 3;
/** Rows round the line that must start a cell at the place. */
const ROWS_AT_START = 2;

/** Cell starts (but the first) of the rows of three cells or more round line `at`, each with how many rows start there. */
function columnStartsAround(lines: readonly TextLine[], at: number): number[] {
  const starts: number[] = [];
  for (let k = Math.max(0, at - NEIGHBOURS); k <= Math.min(lines.length - 1, at + NEIGHBOURS); k++) {
    const line = lines[k]!;
    if (k === at || line.rtl || line.cells.length < ROW_CELLS) continue;
    for (const cell of line.cells.slice(1)) starts.push(cell.x0);
  }
  return starts.filter((x) => starts.filter((other) => Math.abs(other - x) <= SAME_START).length >= ROWS_AT_START);
}

function joined(a: Cell, b: Cell): Cell {
  return { items: [...a.items, ...b.items], text: `${a.text} ${b.text}`, x0: Math.min(a.x0, b.x0), x1: Math.max(a.x1, b.x1) };
}

/** The line with its cells cut where a word starts at one of `starts`, past a gap of COLUMN_GAP_EM or more. */
function cutAt(line: TextLine, starts: readonly number[]): TextLine {
  const fine = buildLine(
    line.cells.flatMap((cell) => cell.items),
    COLUMN_GAP_EM,
  ).cells;
  if (fine.length <= line.cells.length) return line;
  const boundaries = new Set(line.cells.slice(1).map((cell) => cell.items[0]));
  const cells: Cell[] = [];
  for (const cell of fine) {
    const last = cells[cells.length - 1];
    const cut = boundaries.has(cell.items[0]) || starts.some((x) => Math.abs(cell.x0 - x) <= SAME_START);
    if (last && !cut) cells[cells.length - 1] = joined(last, cell);
    else cells.push(cell);
  }
  return cells.length > line.cells.length ? { ...line, cells } : line;
}

/** The lines, each cut where the table rows round it start their columns (the same lines where none is). */
export function withCellsAtColumnStarts(lines: readonly TextLine[]): TextLine[] {
  return lines.map((line, at) => {
    if (line.rtl || line.zone) return line;
    const starts = columnStartsAround(lines, at).filter((x) => x > line.x0 + SAME_START && x < line.x1);
    return starts.length === 0 ? line : cutAt(line, starts);
  });
}
