/**
 * A table as a grid of cells that may span rows and columns, and its Markdown: a GFM pipe table when no cell
 * spans (the first row is its header), else an HTML `<table>` with `colspan`/`rowspan`, since a pipe table can
 * only repeat or drop a spanning label. Pure.
 */
import { renderGfmTable } from './markdown.js';

export interface TableCell {
  /** Top-left grid position. */
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  text: string;
}

export interface TableGrid {
  rowCount: number;
  colCount: number;
  /** Every grid position is covered by exactly one cell. */
  cells: TableCell[];
}

export function hasSpans(grid: TableGrid): boolean {
  return grid.cells.some((cell) => cell.rowSpan > 1 || cell.colSpan > 1);
}

/** Each row's texts by column: a cell's text at its top-left position, empty strings elsewhere. */
export function gridRows(grid: TableGrid): string[][] {
  const rows = Array.from({ length: grid.rowCount }, () => Array<string>(grid.colCount).fill(''));
  for (const cell of grid.cells) rows[cell.row]![cell.col] = cell.text;
  return rows;
}

/**
 * Removes one row (or column) that holds no text of its own: cells starting in it are all empty. Cells reaching
 * across it lose one from their span; an empty cell starting in it and reaching further starts one later.
 */
function removeLine(grid: TableGrid, index: number, axis: 'row' | 'col'): TableGrid {
  const span = axis === 'row' ? 'rowSpan' : 'colSpan';
  const cells: TableCell[] = [];
  for (const cell of grid.cells) {
    const at = cell[axis];
    if (at === index && cell[span] === 1) continue;
    const next = { ...cell };
    if (at > index) next[axis] = at - 1;
    else if (at + cell[span] > index) next[span] = cell[span] - 1;
    cells.push(next);
  }
  return axis === 'row' ? { ...grid, rowCount: grid.rowCount - 1, cells } : { ...grid, colCount: grid.colCount - 1, cells };
}

/**
 * Drops the rows and columns no text starts in (double rules, decorative bands, padding); `axes` limits it to one,
 * and the columns in `spareCols` stay (a form's boxes left empty to write in).
 */
export function dropEmptyLines(grid: TableGrid, axes: readonly ('row' | 'col')[] = ['row', 'col'], spareCols: ReadonlySet<number> = new Set()): TableGrid {
  let out = grid;
  for (const axis of axes) {
    const count = () => (axis === 'row' ? out.rowCount : out.colCount);
    for (let index = count() - 1; index >= 0; index--) {
      if (axis === 'col' && spareCols.has(index)) continue;
      if (out.cells.every((cell) => cell[axis] !== index || cell.text === '')) out = removeLine(out, index, axis);
    }
  }
  return out;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\s*\n\s*/g, ' ').trim();
}

/** Leading rows that cells of the first row reach down into (a two-level header), at most three. */
function headerRowCount(grid: TableGrid): number {
  let rows = 1;
  for (;;) {
    const reach = grid.cells.filter((cell) => cell.row < rows).reduce((max, cell) => Math.max(max, cell.row + cell.rowSpan), rows);
    if (reach <= rows || reach > 3 || reach >= grid.rowCount) return rows;
    rows = reach;
  }
}

/** A grid of single cells from rows of texts (padded to the widest row). */
export function gridOfRows(rows: readonly (readonly string[])[]): TableGrid {
  const colCount = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const cells = rows.flatMap((row, r) => Array.from({ length: colCount }, (_, c) => ({ row: r, col: c, rowSpan: 1, colSpan: 1, text: row[c] ?? '' })));
  return { rowCount: rows.length, colCount, cells };
}

/**
 * Which part of a table split over pages a block writes: the `<table>` opening (with the header rows) only in the
 * first part, `</table>` only in the last, and the rows a later part repeats from the first (its header) left out.
 */
export interface TablePart {
  opens: boolean;
  closes: boolean;
  skipRows: number;
}

const WHOLE: TablePart = { opens: true, closes: true, skipRows: 0 };

/** The table as HTML rows; a part of a stitched table writes only its share of the markup. */
export function renderHtmlTable(grid: TableGrid, part: TablePart = WHOLE): string {
  const header = part.opens ? headerRowCount(grid) : 0;
  const byRow = Array.from({ length: grid.rowCount }, () => [] as TableCell[]);
  for (const cell of grid.cells) byRow[cell.row]!.push(cell);
  const lines = part.opens ? ['<table>'] : [];
  byRow.forEach((cells, row) => {
    if (row < part.skipRows) return;
    const tag = row < header ? 'th' : 'td';
    const html = cells
      .sort((a, b) => a.col - b.col)
      .map((cell) => {
        const spans = `${cell.rowSpan > 1 ? ` rowspan="${cell.rowSpan}"` : ''}${cell.colSpan > 1 ? ` colspan="${cell.colSpan}"` : ''}`;
        return `<${tag}${spans}>${escapeHtml(cell.text)}</${tag}>`;
      })
      .join('');
    lines.push(`<tr>${html}</tr>`);
  });
  if (part.closes) lines.push('</table>');
  return lines.join('\n');
}

/** Dot leaders (four dots or more, spaced or not) at a cell's end or start: a statement's "Revenue ........". */
const TRAILING_LEADER = /\s*(?:\.\s?){4,}$/u;
const LEADING_LEADER = /^(?:\.\s?){4,}\s*/u;

/** The cell's text without the dot leaders that ran it to the next column; a cell of dots alone stays as it is. */
export function withoutLeaders(text: string): string {
  const bare = text.replace(TRAILING_LEADER, '').replace(LEADING_LEADER, '');
  return bare === '' ? text : bare;
}

/** The table's Markdown: GFM without spans, HTML with them; dot leaders left out of the cells. */
export function renderTableGrid(grid: TableGrid): string {
  const plain = grid.cells.some((cell) => TRAILING_LEADER.test(cell.text) || LEADING_LEADER.test(cell.text))
    ? { ...grid, cells: grid.cells.map((cell) => ({ ...cell, text: withoutLeaders(cell.text) })) }
    : grid;
  return hasSpans(plain) ? renderHtmlTable(plain) : renderGfmTable(gridRows(plain));
}
