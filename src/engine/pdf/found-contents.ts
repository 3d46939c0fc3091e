/**
 * A table of contents that another reader (LiteParse) took for tables: its entries line up in columns (number,
 * title, page number), and the reader's rows can merge two entries (`A first conversion 2 Keeping it running` |
 * `2 4`) or part one list into two tables, so its rows no longer read as contents. The page's own lines decide
 * instead: the lines the table covers, and the entries above and below it that end in a page number at the same
 * right edge, are read as contents (contents.ts); if they are, the table is no table, and the lines stay in the
 * flow, where they are read as contents lines. Pure.
 */
import { contentsLines, entryCells } from './contents.js';
import type { FoundTable } from './types.js';
import type { TextLine } from './types.js';

/** A page number ends its entry at the list's right edge, within this many points. */
const EDGE = 2;
/** Entries of one list are at most this many line heights apart. */
const ENTRY_GAP = 2.5;

const NUMBER = String.raw`(?:\d{1,4}|[ivxlc]{1,7})`;
const PAGE_NUMBER = new RegExp(`^${NUMBER}$`, 'i');
/** A reader's cell holding the page numbers of entries it merged into one row (`3 4`). */
const PAGE_NUMBERS = new RegExp(`^${NUMBER}(?:\\s+${NUMBER})*$`, 'i');

function endsInPageNumber(line: TextLine): boolean {
  const cells = entryCells(line.cells.map((cell) => cell.text));
  return cells.length >= 2 && PAGE_NUMBER.test(cells[cells.length - 1]!);
}

function within(line: TextLine, table: FoundTable): boolean {
  const middle = (line.top + line.bottom) / 2;
  return middle >= table.rect.y0 && middle <= table.rect.y1 && line.x1 > table.rect.x0 && line.x0 < table.rect.x1;
}

/** Whether the reader's rows could be part of a contents list: two of them or more end in a page number. */
export function mayBeContents(table: FoundTable): boolean {
  let entries = 0;
  for (const row of table.rows) {
    const cells = entryCells(row);
    if (cells.length >= 2 && PAGE_NUMBERS.test(cells[cells.length - 1]!) && ++entries >= 2) return true;
  }
  return false;
}

/**
 * The lines `first` to `last` (indexes into `lines`, top to bottom) widened over the contents entries next to them:
 * lines ending in a page number at the same right edge as theirs, each near the next. Undefined when none of them
 * ends in a page number.
 */
export function widenedOverEntries(lines: readonly TextLine[], first: number, last: number): { first: number; last: number } | undefined {
  const edges: number[] = [];
  for (let index = first; index <= last; index++) if (endsInPageNumber(lines[index]!)) edges.push(lines[index]!.x1);
  if (edges.length === 0) return undefined;
  const edge = Math.max(...edges);
  const entry = (index: number) => {
    const line = lines[index];
    return line !== undefined && endsInPageNumber(line) && Math.abs(line.x1 - edge) <= EDGE;
  };
  const near = (above: TextLine, below: TextLine) => below.top - above.bottom <= ENTRY_GAP * Math.max(above.size, below.size);
  while (entry(first - 1) && near(lines[first - 1]!, lines[first]!)) first--;
  while (entry(last + 1) && near(lines[last]!, lines[last + 1]!)) last++;
  return { first, last };
}

/** The cells' texts of lines `first` to `last`, as rows. */
export function rowsOfLines(lines: readonly TextLine[], first: number, last: number): string[][] {
  return lines.slice(first, last + 1).map((line) => line.cells.map((cell) => cell.text));
}

/** Whether the lines under `table`, with the entries next to them, are a table of contents. `lines` top to bottom. */
export function coversContents(table: FoundTable, lines: readonly TextLine[]): boolean {
  const inside = lines.flatMap((line, index) => (within(line, table) ? [index] : []));
  if (inside.length === 0) return false;
  const run = widenedOverEntries(lines, inside[0]!, inside[inside.length - 1]!);
  return run !== undefined && contentsLines(rowsOfLines(lines, run.first, run.last)) !== undefined;
}
