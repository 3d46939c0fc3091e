/**
 * Tables of right-to-left text (Hebrew, Arabic) in their reading order: the page sets a table's first column at its
 * right edge, and the table readers give columns from left to right, so that `מחלקה` heading the rightmost column
 * came out last, where the same table read from the word processor's own file, or from a web page, comes first.
 * Such a table's columns are put back in reading order: the rightmost first. Pure.
 */
import { STRONG_RTL } from './lines.js';
import { gridRows, renderTableGrid, type TableGrid } from './table-grid.js';
import type { ProtoBlock } from './types.js';

const RTL_LETTER = new RegExp(STRONG_RTL.source, 'gu');
const LETTER = /\p{L}/gu;

/** Whether most of the text's letters are of a right-to-left script. */
export function readsRightToLeft(text: string): boolean {
  const letters = text.match(LETTER)?.length ?? 0;
  return letters > 0 && (text.match(RTL_LETTER)?.length ?? 0) > letters / 2;
}

/** The grid with its columns in the opposite order, spans kept. */
export function mirroredGrid(grid: TableGrid): TableGrid {
  return { ...grid, cells: grid.cells.map((cell) => ({ ...cell, col: grid.colCount - cell.col - cell.colSpan })) };
}

/** A table block of mostly right-to-left text with its columns in reading order (in place); other blocks as they are. */
export function inRightToLeftOrder(block: ProtoBlock): void {
  if (block.kind !== 'table' || !block.table || !readsRightToLeft(block.text)) return;
  const grid = mirroredGrid(block.table);
  block.table = grid;
  block.markdown = renderTableGrid(grid);
  block.text = gridRows(grid)
    .map((row) => row.join(' '))
    .join('\n');
}
