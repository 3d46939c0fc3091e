/**
 * A multi-level header over a table read from aligned text: a label centred over several columns (a group name
 * over its column names, often with a short rule beneath it) spans those columns, and a label standing alone in
 * its column among the header rows (a stub label set level with a middle header row) spans the header rows. The
 * spans are taken from where the labels sit, so a pipe table's empty cells beside a group label become one HTML
 * cell with `colspan`/`rowspan`. A group label is centred over the room its columns have between their neighbours,
 * not over their ink: cells set flush left in a borderless table put the ink left of the cells' centre. A stub
 * label centred down the header's height, between two header lines, is a line of its own that heads no group: it
 * spans the header rows as a stub set level with the column names would. Pure.
 */
import { isCaptionText } from './captions.js';
import type { TableCell, TableGrid } from './table-grid.js';

/** Horizontal extent of a text on the page. */
export interface Extent {
  x0: number;
  x1: number;
}

/** A row of the table: its cells' texts by column, and where each filled cell's text lies. */
export interface PlacedRow {
  cells: readonly string[];
  boxes: readonly (Extent | undefined)[];
}

/** Most header rows looked at (labels above labels above column names). */
const MAX_HEADER_ROWS = 4;
/** A group label's centre may sit this share of the group's width off the group's centre, or this many units. */
const CENTRED = 0.04;
const CENTRED_MIN = 2;
/** A group label may reach this share of its own width past the group's outer columns. */
const REACH = 0.25;

/** Columns `a`..`b` (inclusive) of one header row. */
interface Unit {
  a: number;
  b: number;
  text: string;
}

function centre(extent: Extent): number {
  return (extent.x0 + extent.x1) / 2;
}

/** Whether a label spanning `label` sits centred over a group of columns spanning `group` (CENTRED, CENTRED_MIN). */
export function isCentredOn(label: Extent, group: Extent): boolean {
  return Math.abs(centre(group) - centre(label)) <= Math.max(CENTRED_MIN, CENTRED * (group.x1 - group.x0));
}

/**
 * Whether a label sits centred over columns `a`..`b`: over their ink, or over the room they have between their
 * neighbours. The cells' edges are not drawn, so each edge lies somewhere in the gutter beside the columns (cells
 * set flush left leave their gutter on the right, flush right on the left): the label's centre may lie anywhere
 * between the centres of the narrowest and the widest cells those gutters allow.
 */
function centredOverColumns(label: Extent, columns: readonly Extent[], a: number, b: number, topRow: boolean): boolean {
  const ink = { x0: columns[a]!.x0, x1: columns[b]!.x1 };
  if (isCentredOn(label, ink)) return true;
  // A label set flush with its first column's start (or its last's end) is aligned, not centred: where it ends
  // says nothing of the columns it heads. One centred over the whole table on the header's top line is its title;
  // under that line, a group label near the table's middle heads a group (`Part-time` under `Undergraduate`).
  if (Math.abs(label.x0 - ink.x0) <= CENTRED_MIN || Math.abs(label.x1 - ink.x1) <= CENTRED_MIN) return false;
  if (topRow && isCentredOn(label, { x0: columns[0]!.x0, x1: columns[columns.length - 1]!.x1 })) return false;
  // An outer column has no neighbour beyond it: its room reaches as far as the column pitch beside it allows.
  const leftmost = a > 0 ? columns[a - 1]!.x1 : Math.min(ink.x0, columns[a]!.x1 - pitchOf(columns, a + 1, 'x1'));
  const rightmost = b + 1 < columns.length ? columns[b + 1]!.x0 : Math.max(ink.x1, columns[b]!.x0 + pitchOf(columns, b, 'x0'));
  const x = centre(label);
  return (leftmost + ink.x1) / 2 <= x && x <= (ink.x0 + rightmost) / 2;
}

/** How far column `col` starts (or ends) from the column before it; 0 where there is none. */
function pitchOf(columns: readonly Extent[], col: number, edge: 'x0' | 'x1'): number {
  return col > 0 && col < columns.length ? columns[col]![edge] - columns[col - 1]![edge] : 0;
}

function distance(x: number, extent: Extent): number {
  return x < extent.x0 ? extent.x0 - x : x > extent.x1 ? x - extent.x1 : 0;
}

/**
 * One header row's cells over the units of the row below: each unit goes to the nearest label, and a label takes
 * the run of its units it is centred over; a label centred over none keeps its own column. Undefined when a label
 * has no place.
 */
function rowOver(row: PlacedRow, below: readonly Unit[], columns: readonly Extent[], topRow: boolean): Unit[] | undefined {
  const labels: { col: number; text: string; box: Extent }[] = [];
  for (let col = 0; col < row.cells.length; col++) {
    const text = row.cells[col];
    if (!text) continue;
    const box = row.boxes[col];
    if (!box) return undefined;
    labels.push({ col, text, box });
  }
  const unitExtent = (first: Unit, last: Unit): Extent => ({ x0: columns[first.a]!.x0, x1: columns[last.b]!.x1 });
  const owner = below.map((unit) => {
    const x = centre(unitExtent(unit, unit));
    let best = -1;
    let bestDistance = Infinity;
    labels.forEach((label, index) => {
      const d = distance(x, label.box);
      if (d < bestDistance) [best, bestDistance] = [index, d];
    });
    return best;
  });
  const taken = new Array<Unit | undefined>(columns.length);
  let clash = false;
  labels.forEach((label, index) => {
    // The fewest units the label is centred over: a label centred over one column heads that column alone.
    let best: Unit | undefined;
    let bestUnits = Infinity;
    for (let i = 0; i < below.length; i++) {
      for (let j = i; j < below.length && owner[j] === index; j++) {
        if (owner[i] !== index) break;
        const extent = unitExtent(below[i]!, below[j]!);
        const reach = REACH * (label.box.x1 - label.box.x0);
        if (label.box.x0 < extent.x0 - reach || label.box.x1 > extent.x1 + reach) continue;
        // A group names labelled columns, and not all of them (a label over the whole table is its title).
        if (below.slice(i, j + 1).some((unit) => !unit.text) || (below[i]!.a === 0 && below[j]!.b === columns.length - 1)) continue;
        if (centredOverColumns(label.box, columns, below[i]!.a, below[j]!.b, topRow) && j - i + 1 < bestUnits) {
          [best, bestUnits] = [{ a: below[i]!.a, b: below[j]!.b, text: label.text }, j - i + 1];
        }
      }
    }
    const unit = best ?? { a: label.col, b: label.col, text: label.text };
    for (let col = unit.a; col <= unit.b; col++) {
      if (taken[col]) clash = true;
      taken[col] = unit;
    }
  });
  // Two labels claiming one column: the reading is not a header over groups.
  if (clash) return undefined;
  const units: Unit[] = [];
  for (let col = 0; col < columns.length; col++) {
    const unit = taken[col];
    if (!unit) units.push({ a: col, b: col, text: '' });
    else if (unit.a === col) units.push(unit);
    else if (units.at(-1) !== unit) return undefined;
  }
  return units;
}

/** Each column's extent in the rows from `from` down (the column names and the body). */
function columnExtents(rows: readonly PlacedRow[], from: number, count: number): Extent[] | undefined {
  const columns = Array.from({ length: count }, () => ({ x0: Infinity, x1: -Infinity }));
  for (const row of rows.slice(from)) {
    row.boxes.forEach((box, col) => {
      if (!box || col >= count) return;
      columns[col]!.x0 = Math.min(columns[col]!.x0, box.x0);
      columns[col]!.x1 = Math.max(columns[col]!.x1, box.x1);
    });
  }
  return columns.every((column) => column.x0 < column.x1) ? columns : undefined;
}

/** The header's rows of units, top first, when every row above the column names holds a label over several columns. */
function headerUnits(rows: readonly PlacedRow[], headerRows: number, count: number): Unit[][] | undefined {
  const columns = columnExtents(rows, headerRows - 1, count);
  if (!columns) return undefined;
  const leaf = rows[headerRows - 1]!;
  let below: Unit[] = Array.from({ length: count }, (_, col) => ({ a: col, b: col, text: leaf.cells[col] ?? '' }));
  const out: Unit[][] = [below];
  for (let r = headerRows - 2; r >= 0; r--) {
    const units = rowOver(rows[r]!, below, columns, r === 0);
    if (!units || !units.some((unit) => unit.b > unit.a && unit.text)) return undefined;
    // A caption over the table is centred over its columns too, but heads none of them.
    if (units.some((unit) => isCaptionText(unit.text))) return undefined;
    out.unshift(units);
    below = units;
  }
  return out;
}

function filledColumns(row: PlacedRow): number[] {
  return row.cells.flatMap((text, col) => (text ? [col] : []));
}

/**
 * The rows with a stub label set between the header's first lines moved down into the line below it: a line of
 * the header (not its first) whose labels stand only in columns the lines above and below it leave empty is a
 * label centred down the header's height (`Country` between `Primary` over its columns and `Male`/`Female` under
 * it). Undefined when the header has no such line.
 */
function withStubLineFolded(rows: readonly PlacedRow[]): PlacedRow[] | undefined {
  for (let r = 1; r + 1 < Math.min(MAX_HEADER_ROWS, rows.length - 1); r++) {
    const line = filledColumns(rows[r]!);
    const around = new Set([...filledColumns(rows[r - 1]!), ...filledColumns(rows[r + 1]!)]);
    if (line.length === 0 || line.some((col) => around.has(col))) continue;
    const below = rows[r + 1]!;
    const folded: PlacedRow = {
      cells: below.cells.map((text, col) => text || rows[r]!.cells[col] || ''),
      boxes: below.boxes.map((box, col) => box ?? rows[r]!.boxes[col]),
    };
    return [...rows.slice(0, r), folded, ...rows.slice(r + 2)];
  }
  return undefined;
}

/**
 * The table as a grid with its header's spans, or undefined when its first rows are not a header with a label over
 * several columns (the rows then read as they are).
 */
export function gridWithHeaderSpans(rows: readonly PlacedRow[]): TableGrid | undefined {
  const grid = gridOfHeaderSpans(rows);
  if (grid) return grid;
  const folded = withStubLineFolded(rows);
  return folded && gridOfHeaderSpans(folded);
}

function gridOfHeaderSpans(rows: readonly PlacedRow[]): TableGrid | undefined {
  const count = rows.reduce((max, row) => Math.max(max, row.cells.length), 0);
  for (let headerRows = Math.min(MAX_HEADER_ROWS, rows.length - 1); headerRows >= 2; headerRows--) {
    const header = headerUnits(rows, headerRows, count);
    if (!header) continue;
    const cells: TableCell[] = [];
    // A column whose header cells are all one column wide and at most one of them has text: one label down the
    // header (the stub's, left empty over the row labels where the header names none).
    const stub = (col: number) => {
      const inColumn = header.map((units) => units.find((unit) => unit.a <= col && col <= unit.b)!);
      return inColumn.every((unit) => unit.a === unit.b) && inColumn.filter((unit) => unit.text).length <= 1 ? inColumn : undefined;
    };
    const stubs = new Map<number, string>();
    for (let col = 0; col < count; col++) {
      const column = stub(col);
      if (column) stubs.set(col, column.find((unit) => unit.text)?.text ?? '');
    }
    for (const [col, text] of stubs) cells.push({ row: 0, col, rowSpan: headerRows, colSpan: 1, text });
    header.forEach((units, row) => {
      for (const unit of units) {
        if (unit.a === unit.b && stubs.has(unit.a)) continue;
        cells.push({ row, col: unit.a, rowSpan: 1, colSpan: unit.b - unit.a + 1, text: unit.text });
      }
    });
    rows.slice(headerRows).forEach((row, index) => {
      for (let col = 0; col < count; col++) cells.push({ row: headerRows + index, col, rowSpan: 1, colSpan: 1, text: row.cells[col] ?? '' });
    });
    return { rowCount: rows.length, colCount: count, cells };
  }
  return undefined;
}
