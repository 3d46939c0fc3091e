/**
 * A table of contents that another reader (LiteParse) took for tables: its entries line up in columns (number,
 * title, page number), and the reader's rows can merge two entries (`A first conversion 2 Keeping it running` |
 * `2 4`) or part one list into two tables, so its rows no longer read as contents. The page's own lines decide
 * instead: the lines the table covers, and the entries above and below it that end in a page number at the same
 * right edge, are read as contents (contents.ts); if they are, the table is no table, and the lines stay in the
 * flow, where they are read as contents lines. Pure.
 */
import { contentsLines } from './contents.js';
import type { FoundTable } from './types.js';
import type { TextLine } from './types.js';

/** A page number ends its entry at the list's right edge, within this many points. */
const EDGE = 2;
/** Entries of one list are at most this many line heights apart. */
const ENTRY_GAP = 2.5;

const PAGE_NUMBER = /^(?:\d{1,4}|[ivxlc]{1,7})$/i;

function endsInPageNumber(line: TextLine): boolean {
  return line.cells.length >= 2 && PAGE_NUMBER.test(line.cells[line.cells.length - 1]!.text.trim());
}

function within(line: TextLine, table: FoundTable): boolean {
  const middle = (line.top + line.bottom) / 2;
  return middle >= table.rect.y0 && middle <= table.rect.y1 && line.x1 > table.rect.x0 && line.x0 < table.rect.x1;
}

/** Whether the reader's rows could be part of a contents list: two of them or more end in a page number. */
export function mayBeContents(table: FoundTable): boolean {
  let entries = 0;
  for (const row of table.rows) {
    const cells = row.filter((cell) => cell.trim() !== '');
    if (cells.length >= 2 && PAGE_NUMBER.test(cells[cells.length - 1]!.trim()) && ++entries >= 2) return true;
  }
  return false;
}

/** Whether the lines under `table`, with the entries next to them, are a table of contents. `lines` top to bottom. */
export function coversContents(table: FoundTable, lines: readonly TextLine[]): boolean {
  const inside = lines.flatMap((line, index) => (within(line, table) ? [index] : []));
  if (inside.length === 0) return false;
  const edges = inside.filter((index) => endsInPageNumber(lines[index]!)).map((index) => lines[index]!.x1);
  if (edges.length === 0) return false;
  const edge = Math.max(...edges);
  const entry = (index: number) => {
    const line = lines[index];
    return line !== undefined && endsInPageNumber(line) && Math.abs(line.x1 - edge) <= EDGE;
  };
  const near = (above: TextLine, below: TextLine) => below.top - above.bottom <= ENTRY_GAP * Math.max(above.size, below.size);
  let first = inside[0]!;
  let last = inside[inside.length - 1]!;
  while (entry(first - 1) && near(lines[first - 1]!, lines[first]!)) first--;
  while (entry(last + 1) && near(lines[last]!, lines[last + 1]!)) last++;
  const rows = lines.slice(first, last + 1).map((line) => line.cells.map((cell) => cell.text));
  return contentsLines(rows) !== undefined;
}
