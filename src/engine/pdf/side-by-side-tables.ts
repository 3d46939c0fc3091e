/**
 * Two tables set side by side (a year beside the year before, one branch beside another) line up as one: the
 * rows of both read across, their column names twice in one header row, their captions in one row above it. A
 * table whose header row is the same names twice over, in two halves, is two tables: each half with its own
 * rows, and a caption row over both ("Table 1: 2024" … "Table 2: 2025") becomes each half's caption. Pure.
 */
import { isCaptionText } from './captions.js';

/** One of the tables read from the two halves: its caption, if a row above its header gave one, and its rows. */
interface SideTable {
  caption?: string;
  rows: string[][];
}

/** The fewest column names in each half of the header: one repeated name says little. */
const MIN_NAMES = 2;
/** Each table has at least this many rows under its header. */
const MIN_BODY_ROWS = 2;

/** `rows` as two tables side by side, or undefined when its header row is not two halves of the same names. */
export function sideBySideTables(rows: readonly (readonly string[])[]): [SideTable, SideTable] | undefined {
  const cols = Math.max(0, ...rows.map((row) => row.length));
  if (cols < 2 * MIN_NAMES || cols % 2 !== 0) return undefined;
  const half = cols / 2;
  const cell = (row: readonly string[], col: number) => (row[col] ?? '').trim();
  const header = rows.findIndex((row) => row.some((_, col) => cell(row, col) !== ''));
  // Caption rows first: each names a table in its half's first column and nothing else.
  let first = header;
  const captions: [string[], string[]] = [[], []];
  while (first >= 0 && first < rows.length) {
    const row = rows[first]!;
    const filled = row.map((_, col) => col).filter((col) => cell(row, col) !== '');
    if (filled.length !== 2 || filled[0] !== 0 || filled[1] !== half || !isCaptionText(cell(row, 0)) || !isCaptionText(cell(row, half))) break;
    captions[0].push(cell(row, 0));
    captions[1].push(cell(row, half));
    first++;
  }
  const names = rows[first];
  if (!names) return undefined;
  const left = Array.from({ length: half }, (_, col) => cell(names, col).toLowerCase());
  const right = Array.from({ length: half }, (_, col) => cell(names, half + col).toLowerCase());
  const named = left.filter((name) => name !== '');
  // Names of columns, each once in its half (a chart's axis labels repeat one word across).
  if (named.length < MIN_NAMES || new Set(named).size !== named.length || left.some((name, col) => name !== right[col])) return undefined;
  const body = rows.slice(first);
  const part = (from: number, caption: readonly string[]): SideTable => ({
    ...(caption.length > 0 ? { caption: caption.join(' ') } : {}),
    rows: body.map((row) => Array.from({ length: half }, (_, col) => cell(row, from + col))).filter((row) => row.some((text) => text !== '')),
  });
  const pair: [SideTable, SideTable] = [part(0, captions[0]), part(half, captions[1])];
  return pair.every((table) => table.rows.length > MIN_BODY_ROWS) ? pair : undefined;
}
