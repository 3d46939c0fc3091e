/**
 * A table another reader found (LiteParse) can take in a line of the prose just above or below it: the last line
 * of a paragraph that ends over a ruled table, cut at the table's column edges into cells (`at the rate the
 * service | states in | its last | refusal.`). Such a line is one run of words spaced as words (no gap wide enough
 * to part cells, lines.ts), where the reader's row splits it into several cells: it leaves the table and goes back
 * to the flow, to its paragraph. A header label spanning its columns is one cell of the reader's row, and stays.
 * A table whose rows are as much such lines as not is no table (`2 | Background`, `2.1 | Rate limits` over the
 * lines of the paragraph under them): all of it stays in the flow. Pure.
 */
import type { FoundTable } from './types.js';
import type { TextLine } from './types.js';
import { withDashesAsHyphens } from './liteparse/dash-widths.js';

/** A line of prose at a table's edge spans at least this share of the table's width. */
const PROSE_WIDTH = 0.5;
/** …and holds at least this many words. */
const PROSE_WORDS = 4;

/** The words of a text, spaced once, its dashes hyphens as LiteParse's cells write them. */
function wordsOf(text: string): string {
  return withDashesAsHyphens(text).split(/\s+/).filter(Boolean).join(' ');
}

/** Whether `line` is one run of prose that the reader's `row` cut into cells. */
function isProseCutIntoCells(line: TextLine, row: readonly string[], tableWidth: number): boolean {
  if (line.cells.length !== 1 || row.filter((cell) => cell.trim()).length < 2) return false;
  const text = wordsOf(line.text);
  if (text !== wordsOf(row.join(' ')) || text.split(' ').length < PROSE_WORDS) return false;
  return line.x1 - line.x0 >= PROSE_WIDTH * tableWidth;
}

/**
 * The table without the prose lines at its top and bottom; the table as it is when it has none, or when it holds
 * spans of its own (its grid), or undefined when fewer than two rows, or no more rows than were prose, would be left.
 * `lines` are the page's lines of the text inside the table's box.
 */
export function withoutProseEdges(table: FoundTable, lines: readonly TextLine[]): FoundTable | undefined {
  if (table.grid || table.rows.length < 2) return table;
  if (lines.length < 2) return table;
  const width = table.rect.x1 - table.rect.x0;
  let first = 0;
  let last = table.rows.length - 1;
  let top = 0;
  let bottom = lines.length - 1;
  while (first < last && top < bottom && isProseCutIntoCells(lines[top]!, table.rows[first]!, width)) {
    first++;
    top++;
  }
  while (last > first && bottom > top && isProseCutIntoCells(lines[bottom]!, table.rows[last]!, width)) {
    last--;
    bottom--;
  }
  if (first === 0 && last === table.rows.length - 1) return table;
  // Mostly prose: the reader's table was a paragraph with a few short lines (numbered headings) above it.
  const kept = last - first + 1;
  if (kept < 2 || table.rows.length - kept >= kept) return undefined;
  const y0 = first > 0 ? (lines[top - 1]!.bottom + lines[top]!.top) / 2 : table.rect.y0;
  const y1 = last < table.rows.length - 1 ? (lines[bottom]!.bottom + lines[bottom + 1]!.top) / 2 : table.rect.y1;
  return { rect: { ...table.rect, y0, y1 }, rows: table.rows.slice(first, last + 1) };
}
