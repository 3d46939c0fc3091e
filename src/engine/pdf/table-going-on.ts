/**
 * A table going on from the page before, under the header row it repeats at this page's top (a bank statement's
 * `Date · Description · Paid out · Paid in · Balance` over the last few transactions). Its columns are the header's
 * labels: a few rows leave empty cells whose channels the aligned text cannot show (`Paid in` and `Balance` read
 * as one column over a row without a payment in), and a single row under the header is no table to the aligned
 * text at all. Each cell of the rows goes to the label it overlaps most, else to the nearest. Pure.
 */
import { boundingRect } from './measure.js';
import { gridOfRows, renderTableGrid } from './table-grid.js';
import type { FoundTable } from './tables.js';
import type { Cell, TextLine } from './types.js';
import { spacedWords } from './white-space.js';

/** Rows stand at most this many times the header's height apart: a wider gap ends the table. */
const ROW_GAP_EM = 1.5;

/** The index of the line repeating `header` (its labels, in order, each a cell of the line), or -1. */
export function repeatedHeaderLine(lines: readonly TextLine[], header: readonly string[] | undefined): number {
  const labels = (header ?? []).map(spacedWords).filter(Boolean);
  if (labels.length < 2) return -1;
  return lines.findIndex((line) => line.cells.length === labels.length && line.cells.every((cell, col) => spacedWords(cell.text) === labels[col]));
}

/** The column whose label `cell` overlaps most, else whose label is nearest. */
function columnOf(cell: Cell, labels: readonly Cell[]): number {
  let best = 0;
  let bestScore = -Infinity;
  labels.forEach((label, col) => {
    const overlap = Math.min(cell.x1, label.x1) - Math.max(cell.x0, label.x0);
    const score = overlap > 0 ? overlap : -Math.abs((cell.x0 + cell.x1) / 2 - (label.x0 + label.x1) / 2);
    if (score > bestScore) [best, bestScore] = [col, score];
  });
  return best;
}

/**
 * The table under the header line at `at`: the header and the rows of two cells or more under it, each at most a
 * row's gap below the one before. Undefined when no row stands under the header.
 */
export function tableUnderHeader(lines: readonly TextLine[], at: number): FoundTable | undefined {
  const header = lines[at];
  if (!header || header.rtl) return undefined;
  const labels = [...header.cells].sort((a, b) => a.x0 - b.x0);
  const gap = ROW_GAP_EM * (header.bottom - header.top);
  let end = at + 1;
  while (end < lines.length && lines[end]!.cells.length >= 2 && lines[end]!.top - lines[end - 1]!.bottom <= gap) end++;
  if (end === at + 1) return undefined;
  const rows = lines.slice(at, end).map((line, index) => {
    const cells = labels.map(() => '');
    if (index === 0) return labels.map((label) => label.text.trim());
    for (const cell of line.cells) {
      const col = columnOf(cell, labels);
      cells[col] = cells[col] ? `${cells[col]} ${cell.text.trim()}` : cell.text.trim();
    }
    return cells;
  });
  const grid = gridOfRows(rows);
  return { start: at, end, rows, grid, markdown: renderTableGrid(grid), rect: boundingRect(lines.slice(at, end)) };
}
