/**
 * A table of contents set in two sizes, as LaTeX and Texinfo set them: each chapter's line bold and bigger, its
 * sections under it in the body's size, every entry led out to its page number at one right edge. The table finder
 * takes each chapter's sections for a table of their own and leaves the chapter lines out (their size differs), so
 * each chapter line would be read alone, a heading ending in its page number. Here a table that reads as contents
 * takes in the entries next to it at its right edge, and the contents tables they join become one list, read as
 * contents lines. Pure.
 */
import { contentsLines } from './contents.js';
import { rowsOfLines, widenedOverEntries } from './found-contents.js';
import { boundingRect } from './measure.js';
import { gridOfRows, renderTableGrid } from './table-grid.js';
import type { FoundTable } from './tables.js';
import type { TextLine } from './types.js';

function isContents(table: FoundTable): boolean {
  return contentsLines(table.rows) !== undefined;
}

/** `tables` (in order, on the region's `lines`) with each table of contents widened over the entries beside it. */
export function withContentsWhole(lines: readonly TextLine[], tables: readonly FoundTable[]): FoundTable[] {
  const out: FoundTable[] = [];
  tables.forEach((table, index) => {
    const run = isContents(table) ? widenedOverEntries(lines, table.start, table.end - 1) : undefined;
    if (!run) {
      out.push(table);
      return;
    }
    const before = out[out.length - 1];
    const after = tables[index + 1];
    // Entries reaching the contents table above or below make one list with it (the one below joins it in turn);
    // any other table keeps its lines.
    const joins = before !== undefined && run.first <= before.end && isContents(before);
    const first = joins ? before.start : Math.max(run.first, before?.end ?? 0);
    const last = after && !isContents(after) ? Math.min(run.last, after.start - 1) : run.last;
    const rows = rowsOfLines(lines, first, last);
    if (contentsLines(rows) === undefined) {
      out.push(table);
      return;
    }
    if (joins) out.pop();
    const grid = gridOfRows(rows);
    out.push({ start: first, end: last + 1, rows, grid, markdown: renderTableGrid(grid), rect: boundingRect(lines.slice(first, last + 1)) });
  });
  return out;
}
