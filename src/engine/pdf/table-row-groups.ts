/**
 * Row groups named in a table's first columns: a word processor's row-spanning cell (`광역` beside `사회복지 | 교육 |
 * 일반공공행정`) in a table ruled across only, or not at all, whose rows no rule parts. Read from aligned text, the
 * name is one row's cell with the rows of its group empty there; it spans them, as the page shows it. The name
 * stands where its cell sets it:
 * - centred down an even number of rows, on a line of its own between the group's middle rows (`Baseline` between
 *   its `Scratch` and `Pre-trained` rows), in columns the rows leave empty;
 * - centred down an odd number of rows, on the middle row's line, as many rows over it as under it empty there;
 * - at its group's top, the rows under it empty there (a cell set at its top, or a statistics table's stub that
 *   names a group once).
 * A table whose first row under the header leaves its first column empty sets its names centred (a name set at
 * its group's top would fill that row), and then every empty first cell must fall to one name. One whose first
 * body row has a name may set them either way: at their tops each spans the rows under it up to the next. Where
 * neither reading takes every empty first cell, the column is read as it stands. Pure.
 */
import { gridWithHeaderSpans, type Extent } from './table-header-spans.js';

/** A table's row as laid out from its line: its cells' texts by column, where each lies, and its line's place. */
export interface LaidOutRow {
  cells: string[];
  boxes: (Extent | undefined)[];
  baseline: number;
  size: number;
  /** Rows the row's label cells span down, itself included: a name heading its group of rows. */
  spanDown?: number;
}

/** A name spanning down `span` rows from row `first`: the cells of row `from` in columns `cols`. */
interface RowGroup {
  first: number;
  span: number;
  from: number;
  cols: readonly number[];
}

/** How far off the middle between two rows (a share of their pitch) a label may sit and be centred down them. */
const MIDWAY = 0.2;
/** Fewest columns, and body rows, a table of named row groups has. */
const MIN_COLUMNS = 3;
const MIN_BODY_ROWS = 3;

function used(row: LaidOutRow): number[] {
  return row.cells.flatMap((cell, i) => (cell ? [i] : []));
}

/** Three ordinary rows span at least two line pitches (over 2 em); a label between two rows closer than that is squeezed. */
export function squeezedBetween(above: LaidOutRow, below: LaidOutRow): boolean {
  return below.baseline - above.baseline < 1.8 * Math.max(above.size, below.size);
}

/** Whether row `at` holds only label cells, in columns left of all others, that the rows above and below leave empty, midway between them. */
function centredLabelRow(rows: readonly LaidOutRow[], at: number): boolean {
  const above = rows[at - 1];
  const below = rows[at + 1];
  if (!above || !below) return false;
  const mine = used(rows[at]!);
  const theirs = [...used(above), ...used(below)];
  if (mine.length === 0 || used(above).length < 2 || used(below).length < 2) return false;
  if (Math.max(...mine) >= Math.min(...theirs)) return false;
  const pitch = below.baseline - above.baseline;
  return !squeezedBetween(above, below) && Math.abs(rows[at]!.baseline - (above.baseline + below.baseline) / 2) <= MIDWAY * pitch;
}

/** The rows a table's header takes: those its header spans cover, or its first row alone. */
function headerRowCount(rows: readonly LaidOutRow[]): number {
  const grid = gridWithHeaderSpans(rows);
  if (!grid) return 1;
  const gridRows = grid.cells.reduce((count, cell) => (cell.row === 0 ? Math.max(count, cell.rowSpan) : count), 1);
  // A stub label's line folded into the header's lines leaves the grid a row short of the rows.
  return Math.max(1, gridRows + rows.length - grid.rowCount);
}

/** Names on lines of their own between the two middle rows of their groups; the rows they claim. */
function namesBetweenRows(rows: readonly LaidOutRow[], top: number, claimed: Set<number>): RowGroup[] {
  const between = rows.map((_, at) => at - 1 >= top && centredLabelRow(rows, at) && !centredLabelRow(rows, at - 1));
  between.forEach((label, at) => {
    if (label) [at - 1, at, at + 1].forEach((k) => claimed.add(k));
  });
  const groups: RowGroup[] = [];
  between.forEach((label, at) => {
    if (!label) return;
    const cols = used(rows[at]!);
    const free = (k: number) => k >= top && rows[k] !== undefined && !claimed.has(k) && used(rows[k]!).length >= 2 && cols.every((col) => !rows[k]!.cells[col]);
    let reach = 0;
    while (free(at - 2 - reach) && free(at + 2 + reach)) {
      claimed.add(at - 2 - reach);
      claimed.add(at + 2 + reach);
      reach++;
    }
    groups.push({ first: at - 1 - reach, span: 2 + 2 * reach, from: at, cols });
  });
  return groups;
}

/** Names in the first column on a row of their group, centred down it or at its top, as the first body row shows. */
function namesInFirstColumn(rows: readonly LaidOutRow[], top: number, claimed: ReadonlySet<number>): RowGroup[] {
  const open = (row: number) => row >= top && row < rows.length && !claimed.has(row);
  const filledElsewhere = (row: number) => rows[row]!.cells.some((cell, col) => col > 0 && cell !== '');
  const empty = (row: number) => open(row) && rows[row]!.cells[0] === '' && filledElsewhere(row);
  const named = (row: number) => open(row) && rows[row]!.cells[0] !== '';
  let first = top;
  while (first < rows.length && claimed.has(first)) first++;
  const centred = namesCentred(rows, top, empty, named);
  if (empty(first) || !named(first) || !filledElsewhere(first)) return centred;
  // Names that each head one or two rows read as well centred down groups of one row and of three: the page
  // cannot tell them apart, and a word processor centres a merged cell. Groups of three rows or more, one as many
  // as the other, are a stub that names each group at its top.
  const atTops = namesAtTops(rows, first, empty, named);
  const sizes = new Set(atTops.map((group) => group.span));
  return centred.length === 0 || (sizes.size === 1 && Math.min(...sizes) >= 3) ? atTops : centred;
}

/** Each name spanning as many empty rows over it as under it; none where an empty first cell falls to no name. */
function namesCentred(rows: readonly LaidOutRow[], top: number, empty: (row: number) => boolean, named: (row: number) => boolean): RowGroup[] {
  const taken = new Set<number>();
  const groups: RowGroup[] = [];
  for (let row = top; row < rows.length; row++) {
    if (!named(row)) continue;
    let above = 0;
    while (!taken.has(row - above - 1) && empty(row - above - 1)) above++;
    let below = 0;
    while (empty(row + below + 1)) below++;
    const reach = Math.min(above, below);
    for (let r = row - reach; r <= row + reach; r++) taken.add(r);
    if (reach > 0) groups.push({ first: row - reach, span: 2 * reach + 1, from: row, cols: [0] });
  }
  for (let row = top; row < rows.length; row++) if (empty(row) && !taken.has(row)) return [];
  return groups;
}

/**
 * Each name spanning the empty rows under it, where they are whole rows of its group: each fills as many of the
 * other columns as the name's row, but one (a figure left out), and a name's own row fills two or more; two
 * names or more head such rows. A line
 * whose first cell is empty and whose other cells are few is a wrapped line, not a row of the group.
 */
function namesAtTops(rows: readonly LaidOutRow[], first: number, empty: (row: number) => boolean, named: (row: number) => boolean): RowGroup[] {
  const groups: RowGroup[] = [];
  for (let row = first; row < rows.length; row++) {
    if (!named(row)) continue;
    const filled = used(rows[row]!).length - 1;
    let below = 0;
    while (empty(row + below + 1)) below++;
    if (below === 0) continue;
    const whole = rows.slice(row + 1, row + below + 1).every((under) => used(under).length >= Math.max(2, filled - 1));
    if (filled < 2 || !whole) return [];
    groups.push({ first: row, span: below + 1, from: row, cols: [0] });
  }
  // One name over empty rows among names of single rows is a header's second line or a note, not a stub's groups.
  return groups.length >= 2 ? groups : [];
}

/**
 * The rows with each name moved to its group's first row, spanning down the group (`spanDown`), its line of its
 * own (a name between two rows) dropped; the rows as they are where no column reads so. The header takes as many
 * rows as its spans cover, and at least `headerLines`.
 */
export function withRowGroups<R extends LaidOutRow>(rows: R[], headerLines = 1): R[] {
  const header = Math.max(headerLines, headerRowCount(rows));
  const columns = rows.reduce((count, row) => Math.max(count, row.cells.length), 0);
  if (columns < MIN_COLUMNS || rows.length - header < MIN_BODY_ROWS) return rows;
  const claimed = new Set<number>();
  const between = namesBetweenRows(rows, header, claimed);
  const groups = [...between, ...namesInFirstColumn(rows, header, claimed)];
  if (groups.length === 0) return rows;
  const dropped = new Set(between.map((group) => group.from));
  const moved = new Map(groups.map((group) => [group.from, group]));
  const heads = new Map(groups.map((group) => [group.first, group]));
  const out: R[] = [];
  rows.forEach((row, at) => {
    if (dropped.has(at)) return;
    const away = moved.get(at);
    const left = away ? { ...row, cells: row.cells.map((cell, col) => (away.cols.includes(col) ? '' : cell)), boxes: row.boxes.map((box, col) => (away.cols.includes(col) ? undefined : box)) } : row;
    const group = heads.get(at);
    if (!group) {
      out.push(left);
      return;
    }
    const label = rows[group.from]!;
    const cells = left.cells.map((cell, col) => (group.cols.includes(col) ? label.cells[col]! : cell));
    const boxes = left.boxes.map((box, col) => (group.cols.includes(col) ? label.boxes[col] : box));
    out.push({ ...left, cells, boxes, spanDown: group.span });
  });
  return out;
}
