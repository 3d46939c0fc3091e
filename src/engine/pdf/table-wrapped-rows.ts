/**
 * Rows of wrapped cells set apart by whitespace: a requirements matrix or a register whose cells wrap onto two or
 * three lines, its rows padded well apart (a word processor's cell padding and paragraph spacing). A row's lines
 * stand at a line's pitch, its rows much further apart, so no two neighbouring gaps are alike; the rows' gaps
 * are alike from row to row. Rows of one line each set apart keep one gap too (`atRowRhythm`).
 */
import type { TextLine } from './types.js';

type LineKind = 'multi' | 'single' | null;

/** Rows of cells set further apart than a table's lines stay one table up to this gap, in ems… */
const MAX_ROW_GAP_EM = 4.5;
/** …where two rows' gaps are alike within this share. */
const EVEN_GAP = 0.1;
/** Most lines a wrapped row spans, to look back or on for the next row's gap. */
const MAX_ROW_LINES = 4;
/** A row's own lines stand closer than this share of the gap between rows. */
const WRAPPED_SHARE = 0.5;

/** Cells start in the same column this close (points). */
const SAME_START = 1;

function gapAbove(lines: readonly TextLine[], below: number): number {
  return lines[below]!.top - lines[below - 1]!.bottom;
}

/** Whether the line opens a row: its first cell starts where the other row's first cell does, in the table's first column. */
function opensRowLike(line: TextLine, other: TextLine): boolean {
  return Math.abs(line.cells[0]!.x0 - other.cells[0]!.x0) <= SAME_START && line.cells.length >= 2 && other.cells.length >= 2;
}

/**
 * Whether line `index` and the line above it, both rows of cells, stand as far apart as the rows next to them: a
 * table of tall rows (a report's cells padded round, a CJK font's tall line) keeps one gap from row to row, header
 * to body too, where a table's end or a new one breaks that rhythm.
 */
export function atRowRhythm(lines: readonly TextLine[], kinds: readonly LineKind[], index: number): boolean {
  const rows = (below: number) => below >= 1 && below < lines.length && kinds[below] === 'multi' && kinds[below - 1] === 'multi';
  if (!rows(index)) return false;
  const gap = gapAbove(lines, index);
  if (gap > MAX_ROW_GAP_EM * Math.max(lines[index]!.size, lines[index - 1]!.size)) return false;
  const even = (other: number) => rows(other) && Math.abs(gapAbove(lines, other) - gap) <= EVEN_GAP * gap;
  return even(index - 1) || even(index + 1);
}

/**
 * Whether line `index`, a row of cells, stands as far below the row above as another row boundary within a few
 * lines (up or down) stands below its own: the lines between are the rows' wrapped lines, set closer than the
 * rows, and each row's first line opens in the same column. A table's end or a paragraph under it breaks that.
 */
export function atWrappedRowRhythm(lines: readonly TextLine[], kinds: readonly LineKind[], index: number): boolean {
  if (index < 1 || index >= lines.length || kinds[index] !== 'multi' || kinds[index - 1] === null) return false;
  const line = lines[index]!;
  const gap = gapAbove(lines, index);
  if (!(gap > 0) || gap > MAX_ROW_GAP_EM * line.size) return false;
  const alike = (other: number) => Math.abs(gapAbove(lines, other) - gap) <= EVEN_GAP * gap;
  const wrapped = (other: number) => kinds[other] !== null && kinds[other - 1] !== null && gapAbove(lines, other) < WRAPPED_SHARE * gap;
  for (const step of [-1, 1]) {
    // Across the row's wrapped lines to the next boundary, which must be as wide and open a row as this one does.
    let other = index + step;
    let crossed = 0;
    while (other >= 1 && other < lines.length && crossed < MAX_ROW_LINES && wrapped(other)) {
      other += step;
      crossed++;
    }
    if (crossed === 0 || other < 1 || other >= lines.length) continue;
    if (kinds[other] === 'multi' && kinds[other - 1] !== null && alike(other) && opensRowLike(lines[other]!, line)) return true;
  }
  return false;
}

/** A table's row as laid out in columns: its cells' texts, and the baseline of its last line. */
interface LaidRow {
  cells: readonly string[];
  baseline: number;
}

/** A row's lines stand at most this share further apart than the table's closest lines, to be one row's lines. */
const WRAP_PITCH_SLACK = 1.15;
/** A table's rows stand this many times further apart than a row's wrapped lines, where whitespace sets them apart. */
export const SET_APART_ROWS = 1.5;
/** A cell of figures only: a row of its own under a group's label, never a wrapped cell's end. */
const FIGURES = /^[\d\s.,%()+\-–−$€£¥]+$/u;

/**
 * The pitch a row's wrapped lines stand at, in a table whose rows each open in its first column and stand much
 * further apart than the lines with the first column empty: a requirements matrix whose cells wrap, its rows padded
 * apart. Undefined where the table's lines do not fall so into rows.
 */
export function wrappedLinePitch(rows: readonly LaidRow[]): number | undefined {
  const opening: number[] = [];
  const wrapped: number[] = [];
  rows.forEach((row, at) => {
    if (at === 0) return;
    const pitch = row.baseline - rows[at - 1]!.baseline;
    (row.cells[0] ? opening : wrapped).push(pitch);
  });
  if (opening.length < 2 || wrapped.length === 0) return undefined;
  const widest = Math.max(...wrapped);
  return Math.min(...opening) >= SET_APART_ROWS * widest && Math.min(...wrapped) > 0 ? Math.min(...wrapped) : undefined;
}

/**
 * Whether `row`, right under `above` at `wrappedLinePitch`, carries on the cells of `above`: its first column
 * empty, each of its cells under a cell of `above` and some cell of `above` with nothing more (a wrapped cell's
 * last words, `AA.`, whatever their case), and not a row of figures of its own.
 */
export function carriesOnRow(above: LaidRow, row: LaidRow, pitch: number | undefined): boolean {
  if (pitch === undefined || row.cells[0]) return false;
  if (row.baseline - above.baseline > WRAP_PITCH_SLACK * pitch) return false;
  const filled = row.cells.flatMap((cell, col) => (cell ? [col] : []));
  const filledAbove = above.cells.filter(Boolean).length;
  if (filled.length === 0 || filled.length >= filledAbove) return false;
  return filled.every((col) => above.cells[col] && !FIGURES.test(row.cells[col]!));
}

/**
 * Whether `line`, a short line right under a table's rows, starts where a wrapped line of the rows starts a cell
 * right of the table's first column: the last row's cell wrapped once more (`documents.` under `as printable`),
 * not a paragraph after the table, which starts at the table's left edge.
 */
export function startsLikeWrappedCell(rows: readonly TextLine[], line: TextLine): boolean {
  const left = Math.min(...rows.map((row) => row.x0));
  return rows.some((row) => row.x0 > left + SAME_START && Math.abs(row.x0 - line.x0) <= SAME_START);
}

/** A row's wrapped line stands at most this many ems below the line above (baseline to baseline). */
const WRAPPED_LINE_PITCH_EM = 1.6;

/**
 * Kinds with a one-cell line between two rows of cells taken as part of the table, however many words it holds,
 * where it is a wrapped cell's line: close under the row above, starting where a cell of that row starts, right of
 * the row's first cell (`server and checked each week for a month.` under `The nightly backup is restored to a
 * spare`). A paragraph set under a table starts at its left edge.
 */
export function withWrappedCellLines(lines: readonly TextLine[], kinds: readonly LineKind[]): LineKind[] {
  return kinds.map((kind, at) => {
    const line = lines[at]!;
    const above = lines[at - 1];
    if (kind !== null || line.zone || line.cells.length !== 1 || !above || kinds[at - 1] !== 'multi' || kinds[at + 1] !== 'multi') return kind;
    if (line.baseline - above.baseline > WRAPPED_LINE_PITCH_EM * line.size || Math.abs(line.size - above.size) > 0.15 * line.size) return kind;
    const underCell = above.cells.slice(1).some((cell) => Math.abs(cell.x0 - line.x0) <= SAME_START);
    return underCell ? 'single' : kind;
  });
}
