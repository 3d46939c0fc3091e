/**
 * Two blocks of short lines set side by side, each at its own line pitch: an invoice's sender (a name, an address,
 * a VAT number) beside its `Invoice no.` / `Date` / `Due` lines, a letterhead beside a reference block. Their
 * cells line up in columns, but their lines drift apart down the page: a line of one side stands partly beside a
 * line of the other, neither on its baseline nor a line away. A table's cells share their row's baseline, or stand
 * a row apart, or sit centred between two rows (a cell spanning them); read as a table, such blocks run one side's
 * lines into the other's rows. Pure.
 */
import type { Gutter } from './columns.js';
import type { Cell, TextLine } from './types.js';
import { countWords } from './white-space.js';

/** Baselines this close (in points) are one baseline. */
const SAME_BASELINE = 1.5;
/** Lines of two sides overlap when their baselines are nearer than this share of their type size. */
const OVERLAP_EM = 0.75;
/** A line centred between two rows of the other side lies within this share of their pitch of the middle. */
const CENTRED_SHARE = 0.15;
/** Each side holds at least this many lines. */
const MIN_LINES = 2;

interface SideLine {
  baseline: number;
  size: number;
}

/** Whether `line` sits centred between two consecutive lines of `other` (a cell spanning their rows). */
function centredBetween(line: SideLine, other: readonly SideLine[]): boolean {
  const below = other.findIndex((each) => each.baseline > line.baseline);
  if (below <= 0) return false;
  const upper = other[below - 1]!.baseline;
  const lower = other[below]!.baseline;
  return Math.abs(line.baseline - (upper + lower) / 2) <= CENTRED_SHARE * (lower - upper);
}

/**
 * Whether a line of one side stands partly beside a line of the other, on no shared baseline and centred on no row,
 * below every baseline the sides share: the blocks have drifted apart for good. A table's header may stagger its
 * labels (one wrapped over two lines beside one that is not), but its rows under it share their baselines again.
 */
function staggered(left: readonly SideLine[], right: readonly SideLine[]): boolean {
  const shared = left.filter((line) => right.some((other) => Math.abs(line.baseline - other.baseline) <= SAME_BASELINE));
  const lastShared = Math.max(-Infinity, ...shared.map((line) => line.baseline));
  return left.some((line) =>
    line.baseline > lastShared &&
    right.some((other) => {
      if (other.baseline <= lastShared) return false;
      const apart = Math.abs(line.baseline - other.baseline);
      const size = Math.max(line.size, other.size);
      return apart > SAME_BASELINE && apart < OVERLAP_EM * size && !centredBetween(line, right) && !centredBetween(other, left);
    }),
  );
}

/** The lines' cells on each side of `channel`, one entry a line that has any there, top down. */
function sides(lines: readonly TextLine[], channel: Gutter, byCells = false): [SideLine[], SideLine[]] {
  const left: SideLine[] = [];
  const right: SideLine[] = [];
  const middle = (channel.x0 + channel.x1) / 2;
  for (const line of [...lines].sort((a, b) => a.baseline - b.baseline)) {
    const leftCells = line.cells.filter((cell) => cell.x1 <= middle);
    const rightCells = line.cells.filter((cell) => cell.x0 >= middle);
    if (leftCells.length > 0) left.push({ baseline: byCells ? cellsBaseline(leftCells, line) : line.baseline, size: line.size });
    if (rightCells.length > 0) right.push({ baseline: byCells ? cellsBaseline(rightCells, line) : line.baseline, size: line.size });
  }
  const top = (a: SideLine, b: SideLine) => a.baseline - b.baseline;
  return [left.sort(top), right.sort(top)];
}

/** The baseline of the cells' first items, the lowest where they differ (a raised mark stands above it). */
function cellsBaseline(cells: readonly Cell[], line: TextLine): number {
  const baselines = cells.flatMap((cell) => (cell.items[0] ? [cell.items[0].baseline] : []));
  return baselines.length > 0 ? Math.max(...baselines) : line.baseline;
}

/** Words a line of prose holds at least, and the lines of prose that make one side a column's text. */
const PROSE_WORDS = 5;
const PROSE_LINES = 3;

/** Whether one side of `channel` holds a column's prose: PROSE_LINES lines of PROSE_WORDS words or more. */
function proseOnOneSide(lines: readonly TextLine[], channel: Gutter): boolean {
  const middle = (channel.x0 + channel.x1) / 2;
  const proseLines = (side: (cell: Cell) => boolean) =>
    lines.filter((line) => line.cells.some((cell) => side(cell) && countWords(cell.text) >= PROSE_WORDS)).length;
  return proseLines((cell) => cell.x1 <= middle) >= PROSE_LINES || proseLines((cell) => cell.x0 >= middle) >= PROSE_LINES;
}

/**
 * Whether the lines left and right of `channel` are two blocks set side by side, their lines staggered. Where one
 * side is a column's prose (a table's rows cut at a column break beside the paragraphs of the column before), each
 * side is read on its own cells' baselines: a line of each side a point or two apart is built as one line of both,
 * which hides the drift. A chart's labels, short, keep the lines' baselines.
 */
function standStaggered(lines: readonly TextLine[], channel: Gutter): boolean {
  if (lines.some((line) => line.cells.some((cell) => cell.x0 < channel.x0 && cell.x1 > channel.x1))) return false;
  const [left, right] = sides(lines, channel);
  if (left.length < MIN_LINES || right.length < MIN_LINES) return false;
  return staggered(left, right) || (proseOnOneSide(lines, channel) && staggered(...sides(lines, channel, true)));
}

/** The empty channels at least `minWidth` wide between the lines' cells, left to right. */
function channelsBetween(lines: readonly TextLine[], minWidth: number): Gutter[] {
  const spans = lines.flatMap((line) => line.cells.map((cell) => [cell.x0, cell.x1] as const)).sort((a, b) => a[0] - b[0]);
  const channels: Gutter[] = [];
  let reach = -Infinity;
  for (const [x0, x1] of spans) {
    if (Number.isFinite(reach) && x0 - reach >= minWidth) channels.push({ x0: reach, x1: x0 });
    reach = Math.max(reach, x1);
  }
  return channels;
}

/** The first channel between the lines' cells that parts two blocks set side by side (`standStaggered`), if any. */
export function staggeredChannel(lines: readonly TextLine[], minWidth: number): Gutter | undefined {
  return channelsBetween(lines, minWidth).find((channel) => standStaggered(lines, channel));
}
