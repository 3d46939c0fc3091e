/**
 * The parts a table block read from the page may hold besides one table: a caption read into its top rows, two
 * tables set side by side. Pure.
 */
import { isCaptionText } from './captions.js';
import { escapeMarkdownText } from './markdown.js';
import { sideBySideTables } from './side-by-side-tables.js';
import { gridOfRows, gridRows, hasSpans, renderTableGrid, type TableGrid } from './table-grid.js';
import type { ProtoBlock, Rect } from './types.js';
import { countCodePointsBesideSpaces } from './white-space.js';

/**
 * A table block as the blocks it holds: a caption read into its top rows first (captionRowsApart), then two tables
 * side by side (side-by-side-tables.ts) each its caption (when it had one) then its table, the left one first, each
 * in its half of the rectangle; any other block as it is.
 */
export function tableParts(block: ProtoBlock): ProtoBlock[] {
  const captioned = captionRowsApart(block);
  if (captioned.length > 1) return [captioned[0]!, ...tableParts(captioned[1]!)];
  const pair = block.table && !hasSpans(block.table) ? sideBySideTables(gridRows(block.table)) : undefined;
  if (!pair) return [block];
  const middle = (block.rect.x0 + block.rect.x1) / 2;
  return pair.flatMap((part, index) => {
    const rect: Rect = index === 0 ? { ...block.rect, x1: middle } : { ...block.rect, x0: middle };
    const table = withGrid(block, gridOfRows(part.rows), rect, part.rows.length);
    return part.caption ? [captionBlock(part.caption, rect, 1, block.size), table] : [table];
  });
}

/**
 * A table block whose top rows are a caption alone ("Table 2: Results on the three test sets.", set over the
 * table's top rule and read with its cells), as the caption's block and the table's without them; any other block
 * as it is. The rows below must still be a table (two or more).
 */
function captionRowsApart(block: ProtoBlock): ProtoBlock[] {
  const grid = block.table;
  if (!grid) return [block];
  const rows = gridRows(grid);
  let count = 0;
  while (count < rows.length) {
    const filled = rows[count]!.filter((text) => text.trim() !== '');
    if (filled.length !== 1 || !isCaptionText(filled[0]!)) break;
    count++;
  }
  const rest = withoutTopRows(grid, count);
  if (count === 0 || !rest || rest.rowCount < 2) return [block];
  const text = rows
    .slice(0, count)
    .map((row) => row.join(' ').trim())
    .join(' ');
  const split = block.rect.y0 + ((block.rect.y1 - block.rect.y0) * count) / rows.length;
  return [captionBlock(text, { ...block.rect, y1: split }, count, block.size), withGrid(block, rest, { ...block.rect, y0: split }, Math.max(1, block.lines - count))];
}

/** `block` as the table of `grid`, standing in `rect` over `lines` lines. */
function withGrid(block: ProtoBlock, grid: TableGrid, rect: Rect, lines: number): ProtoBlock {
  const text = gridRows(grid)
    .map((row) => row.join(' '))
    .join('\n');
  return { ...block, markdown: renderTableGrid(grid), text, table: grid, rect, lines, chars: countCodePointsBesideSpaces(text) };
}

function captionBlock(text: string, rect: Rect, lines: number, size: number): ProtoBlock {
  return { kind: 'caption', markdown: escapeMarkdownText(text), text, rect, lines, size, bold: false, chars: countCodePointsBesideSpaces(text) };
}

/** The grid without its first `count` rows, or undefined where a cell of those rows spans below them. */
function withoutTopRows(grid: TableGrid, count: number): TableGrid | undefined {
  if (grid.cells.some((cell) => cell.row < count && cell.row + cell.rowSpan > count)) return undefined;
  const cells = grid.cells.filter((cell) => cell.row >= count).map((cell) => ({ ...cell, row: cell.row - count }));
  return { rowCount: grid.rowCount - count, colCount: grid.colCount, cells };
}
