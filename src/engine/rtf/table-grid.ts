/**
 * An RTF table's cells set on one grid of columns. RTF gives no column count: each row lists its cells' right
 * edges (`\cellx`, in twips from the row's left, `\trleft`), so a cell that spans two columns of the rows around
 * it is simply wider (what LibreOffice and Word write for a merged header: "Region" over two columns), or is a first
 * cell followed by cells merged into it (`\clmgf`, `\clmrg`); a cell merged into the one above is `\clvmgf` /
 * `\clvmrg`. Read cell by cell, a wide cell would shift the rest of its row left under the wrong headers.
 *
 * The grid's columns are the right edges of every row's cells, edges a few twips apart counting as one. A cell
 * covers the columns from its left edge (the cell before's right edge) to its own; its text is repeated in each
 * column it covers and in the cells merged into it, as the Word and OpenDocument converters write merged cells.
 * A row whose cell count does not match its definition (a damaged or partial one) keeps its cells as read.
 */

export interface CellDefinition {
  /** The cell's right edge, in twips (`\cellxN`). */
  right: number;
  /** `\clmgf` first of cells merged side by side, `\clmrg` merged into the cell before. */
  horizontalMerge: 'first' | 'continue' | null;
  /** `\clvmgf` first of cells merged down, `\clvmrg` merged into the cell above. */
  verticalMerge: 'first' | 'continue' | null;
}

export interface RowDefinition {
  /** The row's left edge (`\trleftN`), in twips. */
  left: number;
  cells: CellDefinition[];
}

export interface ReadRow {
  cells: string[];
  definition: RowDefinition | null;
}

/** Right edges closer than this (twips; a third of a millimetre) are one column edge. */
const EDGE_TOLERANCE = 20;
/** Columns a table may have on the grid: more (a hostile file) and the rows are kept as read. */
const MAX_GRID_COLUMNS = 1000;

export function layOutRows(rows: readonly ReadRow[]): string[][] {
  const fitting = (row: ReadRow): row is ReadRow & { definition: RowDefinition } => row.definition !== null && row.definition.cells.length === row.cells.length && row.cells.length > 0;
  const edges = gridEdges(rows.filter(fitting).flatMap((row) => row.definition.cells.map((cell) => cell.right)));
  if (edges.length === 0 || edges.length > MAX_GRID_COLUMNS) return rows.map((row) => row.cells);
  const laidOut: string[][] = [];
  for (const row of rows) {
    if (!fitting(row)) {
      laidOut.push(row.cells);
      continue;
    }
    const above = laidOut.at(-1);
    const line = new Array<string>(edges.length).fill('');
    let left = row.definition.left;
    let previousText = '';
    row.definition.cells.forEach((definition, index) => {
      const first = edges.findIndex((edge) => edge > left + EDGE_TOLERANCE);
      let last = edges.findLastIndex((edge) => edge <= definition.right + EDGE_TOLERANCE);
      left = Math.max(left, definition.right);
      if (first < 0) return;
      if (last < first) last = first;
      let text = row.cells[index] ?? '';
      if (definition.horizontalMerge === 'continue') text = previousText;
      else if (definition.verticalMerge === 'continue') text = above?.[first] ?? '';
      for (let column = first; column <= last; column += 1) line[column] = text;
      previousText = text;
    });
    laidOut.push(line);
  }
  return laidOut;
}

/** The distinct right edges, ascending, edges within the tolerance of the one before merged into it. */
function gridEdges(rights: readonly number[]): number[] {
  const edges: number[] = [];
  for (const right of [...rights].sort((a, b) => a - b)) {
    const last = edges.at(-1);
    if (last === undefined || right - last > EDGE_TOLERANCE) edges.push(right);
  }
  return edges;
}
