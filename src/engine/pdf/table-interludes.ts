/**
 * The text between two tables ruled alike, one under the other, without a paragraph of prose between them: a
 * statistics report's source under the first (`자료: 행정안전부`), the next section's heading, and the units note
 * over the second (`(단위: 명, %)`), each a line of one cell. A band between two rules of one table holds rows of
 * cells in one size; these lines are set in sizes of their own (a heading larger than the notes round it), or end
 * in a units note set flush right over the next table. Pure.
 */
import type { TextLine } from './types.js';
import { isUnitsNote } from './units-note.js';

/** A heading stands this many times larger than the smallest line near it. */
const HEADING_SIZE = 1.2;
/** Whether the line is a units note over a table: one parenthesised cell that starts right of the middle of the band's text. */
function isUnitsNoteOver(line: TextLine, lines: readonly TextLine[]): boolean {
  const x0 = Math.min(...lines.map((each) => each.x0));
  const x1 = Math.max(...lines.map((each) => each.x1));
  return isUnitsNote(line, x0, x1);
}

/** Whether lines of one cell each (top down) are notes and a heading between two tables, not a row of one. */
export function isTextBetweenTables(lines: readonly TextLine[]): boolean {
  if (lines.length < 2 || lines.some((line) => line.cells.length !== 1)) return false;
  const smallest = Math.min(...lines.map((line) => line.size));
  return lines.some((line) => line.size >= HEADING_SIZE * smallest) || isUnitsNoteOver(lines[lines.length - 1]!, lines.slice(0, -1));
}
