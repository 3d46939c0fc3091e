/**
 * Row groups named in a table's first column, each name centred down its rows (`광역` beside `사회복지 | 교육 |
 * 일반공공행정`): a merged cell of a table ruled across only, or not at all, whose rows no rule parts. Read from
 * aligned text, the name is one row's first cell, the rows above and below it empty there; it spans them, as the
 * page shows it. A table whose first row under the header leaves its first column empty sets its names centred
 * (a name set at its group's top would fill that row), and then every empty first cell must fall to one name, as
 * many rows over it as under it, or the column is read as it stands. Pure.
 */
import type { TableCell, TableGrid } from './table-grid.js';

/** The rows the header covers: as far down as the first row's cells reach. */
function headerRows(grid: TableGrid): number {
  return grid.cells.reduce((rows, cell) => (cell.row === 0 ? Math.max(rows, cell.rowSpan) : rows), 1);
}

/**
 * The grid with each name in its first column spanning the rows it is centred on; the grid as it is where the
 * column does not read that way.
 */
export function withCentredRowGroups(grid: TableGrid): TableGrid {
  const top = headerRows(grid);
  if (grid.colCount < 3 || grid.rowCount - top < 3) return grid;
  // The first column's cell of each body row, where it is a cell of its own there; any other shape says no.
  const stub: (TableCell | undefined)[] = [];
  const filledElsewhere = new Array<boolean>(grid.rowCount).fill(false);
  for (const cell of grid.cells) {
    if (cell.row < top) continue;
    if (cell.col === 0) {
      if (cell.rowSpan !== 1 || cell.colSpan !== 1) return grid;
      stub[cell.row] = cell;
    } else if (cell.text !== '') filledElsewhere[cell.row] = true;
  }
  const empty = (row: number) => stub[row] !== undefined && stub[row].text === '' && filledElsewhere[row]!;
  if (!empty(top)) return grid;
  const claimed = new Array<boolean>(grid.rowCount).fill(false);
  const spans: { row: number; reach: number }[] = [];
  for (let row = top; row < grid.rowCount; row++) {
    const name = stub[row];
    if (name === undefined || name.text === '') continue;
    let above = 0;
    while (row - above - 1 >= top && !claimed[row - above - 1] && empty(row - above - 1)) above++;
    let below = 0;
    while (row + below + 1 < grid.rowCount && empty(row + below + 1)) below++;
    const reach = Math.min(above, below);
    for (let r = row - reach; r <= row + reach; r++) claimed[r] = true;
    if (reach > 0) spans.push({ row, reach });
  }
  for (let row = top; row < grid.rowCount; row++) if (empty(row) && !claimed[row]) return grid;
  if (spans.length === 0) return grid;
  const dropped = new Set<TableCell>();
  const moved = new Map<TableCell, TableCell>();
  for (const { row, reach } of spans) {
    for (let r = row - reach; r <= row + reach; r++) if (r !== row) dropped.add(stub[r]!);
    moved.set(stub[row]!, { ...stub[row]!, row: row - reach, rowSpan: 2 * reach + 1 });
  }
  return { ...grid, cells: grid.cells.filter((cell) => !dropped.has(cell)).map((cell) => moved.get(cell) ?? cell) };
}
