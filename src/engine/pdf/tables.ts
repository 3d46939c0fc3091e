/**
 * Tables from aligned text. A run of consecutive lines, most of them split into several cells, whose cells
 * leave the same vertical whitespace channels free in (nearly) every row, becomes one table: the channels are
 * the column boundaries. Conservative on purpose: prose lines (one wide cell) end a run, cells full of prose
 * reject it, and a column of equation numbers is not a table.
 */
import { CODE_LINE_SHARE } from './text-items.js';
import { gridWithHeaderSpans, type Extent } from './table-header-spans.js';
import { gridOfRows, renderTableGrid, type TableGrid } from './table-grid.js';
import { squeezedBetween, withRowGroups, type LaidOutRow } from './table-row-groups.js';
import { labelsOverFigures } from './header-labels.js';
import { withCellsAtColumnStarts } from './table-column-starts.js';
import { atRowRhythm, atWrappedRowRhythm, carriesOnRow, SET_APART_ROWS, startsLikeWrappedCell, withWrappedCellLines, wrappedLinePitch } from './table-wrapped-rows.js';
import type { Rect, TextLine } from './types.js';
import { isUnitsNote } from './units-note.js';
import { runsOnFrom } from './columns.js';
import { buildLine } from './lines.js';
import { boundingRect, median } from './measure.js';
import { listColumns, readAsLines, readsAsTable } from './table-kinds.js';
import { countWords } from './white-space.js';
import { FIGURE, FIGURE_BAND_EM, isPairSplit, splitFigurePairs, withFigurePairRuns } from './table-figure-pairs.js';
import { NOTE_START } from './paragraphs.js';

export interface FoundTable {
  /** Index of the first line and one past the last line of the region's lines. */
  start: number;
  end: number;
  rows: string[][];
  /** The rows as cells, a header's labels over several columns or down its rows spanning them. */
  grid: TableGrid;
  markdown: string;
  rect: Rect;
}

export interface TableOptions {
  /** Fewest rows with two or more filled columns. */
  minRows?: number;
  /**
   * Monospaced lines are preformatted text (code, program output) that keeps its own alignment; set when the
   * page's body is proportional, so such lines stay out of tables.
   */
  skipMonospace?: boolean;
}

const LIST_START = /^(?:[•◦▪▫‣●○■□►▸➢–—]\s|[-*]\s)/;
const EQUATION_NUMBER = /^\(\s*[\dA-Za-z]{1,4}(?:\.\d+)?\s*\)$/;

function isProseCell(text: string): boolean {
  return countWords(text) >= 9 || text.length > 70;
}

/** Lines that may belong to a table: several cells, or one short cell (a header, a wrapped cell). */
function tableish(line: TextLine, regionX0: number, regionWidth: number, skipMonospace: boolean): 'multi' | 'single' | null {
  if (line.zone || (skipMonospace && line.monoShare >= CODE_LINE_SHARE)) return null;
  if (line.cells.length >= 2) {
    return line.cells.some((cell) => isProseCell(cell.text)) && line.cells.length === 2 ? null : 'multi';
  }
  const cell = line.cells[0];
  if (!cell || LIST_START.test(cell.text)) return null;
  if (cell.x1 - cell.x0 < 0.4 * regionWidth && countWords(cell.text) <= 6) return 'single';
  // An indented line that starts inside the table (a wrapped cell of a later column).
  if (cell.x0 > regionX0 + 0.2 * regionWidth && countWords(cell.text) <= 12) return 'single';
  return null;
}

/** A row's label: a few words (a time, a term, a number). */
const MAX_LABEL_WORDS = 3;
/** Cells of two lines start in one column when their starts are this close (points). */
const SAME_START = 1;

/** The two cells of a line that a label opens and a long cell closes (a time beside an agenda item that runs long). */
function labelledLine(line: TextLine): boolean {
  return line.cells.length === 2 && countWords(line.cells[0]!.text) <= MAX_LABEL_WORDS;
}

/**
 * Lines of a label and a long cell (`09:10` beside an agenda item running past the measure) are rows where the
 * lines next to them above and below are rows of the same two columns (their cells starting where this line's do),
 * each with a label of its own: a long cell alone beside its label is a label's paragraph, but among such rows it
 * is one row of them.
 */
function withLongRowsAmongRows(lines: readonly TextLine[], kinds: ('multi' | 'single' | null)[]): ('multi' | 'single' | null)[] {
  const sameColumns = (a: TextLine, b: TextLine | undefined) =>
    b !== undefined &&
    labelledLine(b) &&
    Math.abs(a.cells[0]!.x0 - b.cells[0]!.x0) <= SAME_START &&
    Math.abs(a.cells[1]!.x0 - b.cells[1]!.x0) <= SAME_START;
  /** The nearest line above (`step` -1) or below (1) that is not the long cell's own wrapped line, if a row. */
  const neighbour = (index: number, step: number) => {
    for (let at = index + step; at >= 0 && at < lines.length; at += step) {
      const line = lines[at]!;
      if (line.cells.length === 1 && Math.abs(line.x0 - lines[index]!.cells[1]!.x0) <= SAME_START) continue;
      return kinds[at] === 'multi' ? line : undefined;
    }
    return undefined;
  };
  return kinds.map((kind, index) => {
    const line = lines[index]!;
    if (kind !== null || line.zone || !labelledLine(line)) return kind;
    const above = neighbour(index, -1);
    const below = neighbour(index, 1);
    if (!above || !below || !sameColumns(line, above) || !sameColumns(line, below)) return kind;
    // A table's labels name each its row; a transcript's turns repeat their speakers (`Q.`, `A.`), and stay text.
    const labels = new Set([line, above, below].map((each) => each.cells[0]!.text.trim()));
    return labels.size === 3 ? 'multi' : kind;
  });
}

/** How close (in the line's size) a line's baseline stands to both neighbours' to lie between them, not under them. */
const SQUEEZED_PITCH = 0.75;

/**
 * A one-cell line squeezed between two rows of a table, nearer each than a line's pitch, is a cell centred down a
 * row whose other cells wrap (a word processor centres a table's cells vertically: `One phone or tablet at a time`
 * set half a line below `Devices at`, half above `once`): a part of the table however many words it holds.
 */
function withCentredCells(lines: readonly TextLine[], kinds: ('multi' | 'single' | null)[]): ('multi' | 'single' | null)[] {
  return kinds.map((kind, index) => {
    const line = lines[index]!;
    const above = lines[index - 1];
    const below = lines[index + 1];
    if (kind !== null || line.zone || line.cells.length !== 1 || !above || !below) return kind;
    if (kinds[index - 1] !== 'multi' || kinds[index + 1] === null) return kind;
    const squeezed = (other: TextLine) => Math.abs(line.baseline - other.baseline) < SQUEEZED_PITCH * line.size;
    return squeezed(above) && squeezed(below) ? 'single' : kind;
  });
}

/**
 * A line of a long cell beside short ones (`Draft the travel policy … and a rule` beside `12 Dec`) with a line right
 * under it, nearer than a line's pitch, holding the row's other cells centred down it (`3.1`, `M. Rossi`, each
 * in a column the first line leaves empty), is the first line of that row, not a paragraph: no line of prose has
 * another line's words half a line under it, between its own.
 */
function withRowsOverCentredCells(lines: readonly TextLine[], kinds: ('multi' | 'single' | null)[]): ('multi' | 'single' | null)[] {
  return kinds.map((kind, index) => {
    const line = lines[index]!;
    const below = lines[index + 1];
    if (kind !== null || line.zone || line.cells.length < 2 || !below || kinds[index + 1] !== 'multi') return kind;
    if (!(below.baseline - line.baseline < SQUEEZED_PITCH * line.size) || Math.abs(below.size - line.size) > 0.15 * line.size) return kind;
    const apart = line.cells.every((cell) => below.cells.every((other) => other.x1 <= cell.x0 || other.x0 >= cell.x1));
    return apart ? 'multi' : kind;
  });
}

/** Most words a group's label row holds (`Region: Europe, the Middle East and Africa`), and fewest cells of the rows round it. */
const GROUP_LABEL_WORDS = 8;
const GROUP_ROW_CELLS = 3;

/**
 * A one-cell line between two rows of a table, starting where the row under it starts, a label rather than a
 * sentence (a few words, no full stop), is a row of the table that labels the rows under it, however far it runs
 * across the columns: a group's label row (`Region: Europe, the Middle East and Africa`).
 */
function withGroupLabels(lines: readonly TextLine[], kinds: ('multi' | 'single' | null)[]): ('multi' | 'single' | null)[] {
  return kinds.map((kind, index) => {
    const line = lines[index]!;
    const below = lines[index + 1];
    if (kind !== null || line.zone || line.cells.length !== 1 || !below) return kind;
    if (kinds[index - 1] !== 'multi' || kinds[index + 1] !== 'multi') return kind;
    // Between rows of three cells or more: two blocks of text side by side are no table's rows.
    if (lines[index - 1]!.cells.length < GROUP_ROW_CELLS || below.cells.length < GROUP_ROW_CELLS) return kind;
    const text = line.cells[0]!.text.trim();
    const label = countWords(text) <= GROUP_LABEL_WORDS && !/[.!?]$/.test(text);
    return label && Math.abs(line.x0 - below.x0) <= SAME_START ? 'single' : kind;
  });
}

interface Channel {
  x0: number;
  x1: number;
}

/**
 * Vertical whitespace channels free in (nearly) every line of the run. A sparse line (half the cells of the
 * fullest line or fewer) may cross one more channel than the others: a label centred over several columns.
 */
function findChannels(lines: readonly TextLine[], minGap: number): Channel[] {
  let minX = Infinity;
  let maxX = -Infinity;
  let most = 0;
  for (const line of lines) {
    most = Math.max(most, line.cells.length);
    for (const cell of line.cells) {
      minX = Math.min(minX, cell.x0);
      maxX = Math.max(maxX, cell.x1);
    }
  }
  const span = Math.ceil(maxX - minX);
  if (!(span > 0) || span > 20_000) return [];
  const dense = new Int32Array(span + 2);
  const sparse = new Int32Array(span + 2);
  for (const line of lines) {
    const diff = line.cells.length * 2 <= most ? sparse : dense;
    for (const cell of line.cells) {
      const a = Math.max(0, Math.floor(cell.x0 - minX + 0.5));
      const b = Math.min(span + 1, Math.max(a + 1, Math.ceil(cell.x1 - minX - 0.5)));
      diff[a] = diff[a]! + 1;
      diff[b] = diff[b]! - 1;
    }
  }
  const allowance = Math.floor(0.15 * lines.length);
  const labelAllowance = allowance + (lines.length >= 5 ? 1 : 0);
  const channels: Channel[] = [];
  let denseRunning = 0;
  let sparseRunning = 0;
  let start = -1;
  for (let i = 0; i <= span; i++) {
    denseRunning += dense[i]!;
    sparseRunning += sparse[i]!;
    if (denseRunning <= allowance && denseRunning + sparseRunning <= labelAllowance) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (start > 0 && i - start >= minGap) channels.push({ x0: minX + start, x1: minX + i });
      start = -1;
    }
  }
  return channels;
}

interface Row extends LaidOutRow {
  top: number;
}

function overlap(a: Channel, b: Channel): boolean {
  return a.x0 <= b.x1 && b.x0 <= a.x1;
}

/** Whether `finer` channels refine `channels`: each old channel still lies inside one of the new ones. */
function refines(finer: readonly Channel[], channels: readonly Channel[]): boolean {
  return channels.every((old) => finer.some((channel) => overlap(channel, old)));
}

/** A table's rows as laid out, with the lines and the channels they were laid out from. */
interface LaidOut {
  rows: Row[];
  lines: readonly TextLine[];
  channels: readonly Channel[];
}

/**
 * Lays the run's cells into the columns between channels; null when the result does not look like a table. The
 * first `centredHeader` lines are a header whose labels go to the body's columns nearest their centres.
 */
function layOut(lines: readonly TextLine[], channels: readonly Channel[], minRows: number, centredHeader = 0): Row[] | null {
  const k = channels.length + 1;
  const columnOf = (x: number) => {
    let col = 0;
    while (col < channels.length && x >= channels[col]!.x0 - 0.5) col++;
    return col;
  };
  // The body's extent in each column, for a header whose labels are centred over their columns.
  const extents = Array.from({ length: k }, () => ({ x0: Infinity, x1: -Infinity }));
  if (centredHeader > 0) {
    for (const line of lines.slice(centredHeader)) {
      for (const cell of line.cells) {
        const extent = extents[columnOf(cell.x0)]!;
        extent.x0 = Math.min(extent.x0, cell.x0);
        extent.x1 = Math.max(extent.x1, cell.x1);
      }
    }
  }
  const nearestColumn = (x: number) => {
    let best = 0;
    let bestDistance = Infinity;
    extents.forEach((extent, col) => {
      const distance = x < extent.x0 ? extent.x0 - x : x > extent.x1 ? x - extent.x1 : 0;
      if (distance < bestDistance) [best, bestDistance] = [col, distance];
    });
    return best;
  };
  // A header label whose nearest column the label before it took heads the next column right of it: a spreadsheet
  // sets a column's name from its cell's left edge and its numbers flush right, nearer the column before.
  const headerColumn = (cell: Extent, last: number) => {
    const nearest = nearestColumn((cell.x0 + cell.x1) / 2);
    if (nearest > last) return nearest;
    const right = extents.findIndex((extent, col) => col > last && extent.x0 >= cell.x1);
    return right >= 0 ? right : nearest;
  };
  const rows: Row[] = [];
  lines.forEach((line, index) => {
    const cells: string[] = Array.from({ length: k }, () => '');
    const boxes: (Extent | undefined)[] = Array.from({ length: k }, () => undefined);
    const ordered = [...line.cells].sort((a, b) => a.x0 - b.x0);
    let last = -1;
    for (const cell of ordered) {
      const col = index < centredHeader ? headerColumn(cell, last) : columnOf(cell.x0);
      last = Math.max(last, col);
      cells[col] = cells[col] ? `${cells[col]} ${cell.text}` : cell.text;
      boxes[col] = unite(boxes[col], cell);
    }
    rows.push({ cells, boxes, top: line.top, baseline: line.baseline, size: line.size });
  });
  const filled = rows.filter((row) => row.cells.filter(Boolean).length >= 2).length;
  if (filled < minRows) return null;
  const cells = rows.flatMap((row) => row.cells).filter(Boolean);
  if (cells.filter(isProseCell).length > 0.25 * cells.length) return null;
  if (cells.length < 0.4 * rows.length * k) return null;
  for (let col = 0; col < k; col++) {
    const values = rows.map((row) => row.cells[col]!).filter(Boolean);
    if (values.length >= 2 && values.every((value) => EQUATION_NUMBER.test(value))) return null;
    // Each column must be used by at least two rows; a lone stray cell does not make a column.
    if (values.length < 2) return null;
  }
  const merged = withRowGroups(mergeContinuationRows(mergeSpanningLabels(rows)), centredHeader);
  const texts = merged.map((row) => row.cells);
  // Contents lists, chart labels and lists side by side go on as found grids: the layout writes them as lines.
  return readsAsTable(texts) || readAsLines(texts) || listColumns(texts) ? merged : null;
}

function unite(a: Extent | undefined, b: Extent | undefined): Extent | undefined {
  return a && b ? { x0: Math.min(a.x0, b.x0), x1: Math.max(a.x1, b.x1) } : a ?? b;
}

/** Two rows read as one: their cells' texts joined, their boxes united. */
function joinRows(a: Row, b: Row): Row {
  return { ...a, cells: a.cells.map((cell, col) => join(cell, b.cells[col]!)), boxes: a.boxes.map((box, col) => unite(box, b.boxes[col])) };
}

function used(row: Row): number[] {
  return row.cells.flatMap((cell, i) => (cell ? [i] : []));
}

function join(a: string, b: string): string {
  return a && b ? `${a} ${b}` : a || b;
}

/** The grid with each row group's name that `withRowGroups` found spanning down its group of rows. */
function withRowLabelSpans(grid: TableGrid, rows: readonly Row[]): TableGrid {
  // Header rows folded into one (a stub label's line) sit above the body: the body's rows keep their order.
  const offset = grid.rowCount - rows.length;
  const spans = new Map<string, number>();
  rows.forEach((row, at) => {
    if (!row.spanDown) return;
    row.cells.forEach((cell, col) => {
      const clear = rows.slice(at + 1, at + row.spanDown!).every((below) => !below.cells[col]);
      if (cell && clear) spans.set(`${at + offset}:${col}`, row.spanDown!);
    });
  });
  if (spans.size === 0) return grid;
  const covered = new Set<string>();
  for (const [key, span] of spans) {
    const [row, col] = key.split(':').map(Number) as [number, number];
    for (let k = 1; k < span; k++) covered.add(`${row + k}:${col}`);
  }
  const cells = grid.cells
    .filter((cell) => !covered.has(`${cell.row}:${cell.col}`))
    .map((cell) => {
      const span = cell.colSpan === 1 ? spans.get(`${cell.row}:${cell.col}`) : undefined;
      return span ? { ...cell, rowSpan: span } : cell;
    });
  return { ...grid, cells };
}

/**
 * The grid with each body row that holds only a label in its first column reaching into the second column's text
 * (a group's label row, `Region: Europe, the Middle East and Africa`) as one cell across the row: the label spans
 * the columns it runs over, as a word processor's merged cell does.
 */
function withLabelRowsAcross(grid: TableGrid, rows: readonly Row[]): TableGrid {
  const offset = grid.rowCount - rows.length;
  let secondColumn = Infinity;
  for (const row of rows) secondColumn = Math.min(secondColumn, row.boxes[1]?.x0 ?? Infinity);
  const across = new Set<number>();
  rows.forEach((row, at) => {
    const box = row.boxes[0];
    if (at > 0 && box && used(row).length === 1 && box.x1 > secondColumn) across.add(at + offset);
  });
  if (across.size === 0 || grid.colCount < 2) return grid;
  // Rows a cell above reaches down into keep their cells.
  const reached = (row: number) => grid.cells.some((cell) => cell.row < row && cell.row + cell.rowSpan > row);
  const spanned = new Set([...across].filter((row) => !reached(row)));
  const cells = grid.cells
    .filter((cell) => !spanned.has(cell.row) || cell.col === 0)
    .map((cell) => (spanned.has(cell.row) ? { ...cell, colSpan: grid.colCount } : cell));
  return { ...grid, cells };
}

/**
 * A label centred vertically across two rows (a row-spanning cell: `6 6` between an `OTSL ...` and an
 * `HTML ...` row) sits squeezed between them and uses only columns they leave empty: the three are one row.
 */
function mergeSpanningLabels(rows: Row[]): Row[] {
  const out: Row[] = [];
  for (let i = 0; i < rows.length; i++) {
    const above = rows[i - 1];
    const row = rows[i]!;
    const below = rows[i + 1];
    const last = out[out.length - 1];
    if (above && below && last === above) {
      const mine = used(row);
      const theirs = new Set([...used(above), ...used(below)]);
      if (squeezedBetween(above, below) && mine.length > 0 && mine.every((col) => !theirs.has(col))) {
        out[out.length - 1] = joinRows(joinRows(above, row), below);
        i++;
        continue;
      }
    }
    out.push(row);
  }
  return out;
}

/**
 * A row with nothing in the first column, whose cells continue the cells above (lower-case start, the cell
 * above ending in a comma or similar, or set tighter than the row pitch), is a wrapped row.
 */
function mergeContinuationRows(rows: Row[]): Row[] {
  const pitches = rows.slice(1).map((row, i) => row.baseline - rows[i]!.baseline).filter((p) => p > 0);
  const typical = median(pitches);
  const wrapPitch = wrappedLinePitch(rows);
  const out: Row[] = [];
  for (const row of rows) {
    const prev = out[out.length - 1];
    const cols = used(row);
    if (prev && (wrapsInSetApartRow(prev, row, typical) || carriesOnRow(prev, row, wrapPitch))) {
      out[out.length - 1] = { ...joinRows(prev, row), baseline: row.baseline };
      continue;
    }
    if (prev && !row.cells[0] && cols.length > 0 && cols.length < row.cells.length) {
      const continues = cols.every((i) => {
        const above = prev.cells[i];
        if (!above) return false;
        return /^\p{Ll}/u.test(row.cells[i]!) || /[,;:&(/\-–]$/.test(above);
      });
      const tight = typical > 0 && row.baseline - prev.baseline < 0.85 * typical;
      if (continues || (tight && cols.every((i) => prev.cells[i]))) {
        out[out.length - 1] = { ...joinRows(prev, row), baseline: row.baseline };
        continue;
      }
    }
    out.push(row);
  }
  return out;
}

/**
 * Where a table's rows are set apart by whitespace (a word processor's cell padding), a line at a wrapped line's
 * pitch under a row goes on with that row's cells, also where it fills the first column (`Offline` over
 * `downloads`): in such a table a row's lines are closer than its rows, and some cell of the line carries on a
 * cell above (it starts in lower case, or the cell above ends in a comma or a joining word's mark). In a table
 * whose rows stand at a line's pitch nothing sets a row's lines apart from the next row, and only
 * `mergeContinuationRows`'s first rule joins them.
 */
function wrapsInSetApartRow(prev: Row, row: Row, typical: number): boolean {
  const pitch = row.baseline - prev.baseline;
  if (!(pitch > 0) || typical < SET_APART_ROWS * pitch) return false;
  const cols = used(row);
  if (cols.length === 0 || !cols.every((col) => prev.cells[col])) return false;
  return cols.some((col) => /^\p{Ll}/u.test(row.cells[col]!) || /[,;:&/\-–]$/.test(prev.cells[col]!));
}

/** A note is set this much smaller than a table's rows, at least. */
const NOTE_SMALLER = 0.97;

/** A row of rules typed with characters: dashes, equals signs or underscores in every cell that holds anything. */
const TYPED_RULE = /^[-=_]{2,}$/;

function isTypedRule(cells: readonly string[]): boolean {
  return cells.some((cell) => cell !== '') && cells.every((cell) => cell === '' || TYPED_RULE.test(cell));
}

/** Finds tables among a region's lines (top to bottom). Non-overlapping, in order. */
export function findTables(pageLines: readonly TextLine[], options: TableOptions = {}): FoundTable[] {
  const minRows = options.minRows ?? 3;
  const lines = withFigurePairRuns(withCellsAtColumnStarts(pageLines), minRows);
  if (lines.length < minRows) return [];
  let regionX0 = Infinity;
  let regionX1 = -Infinity;
  for (const line of lines) {
    regionX0 = Math.min(regionX0, line.x0);
    regionX1 = Math.max(regionX1, line.x1);
  }
  const regionWidth = regionX1 - regionX0;
  const kinds = withWrappedCellLines(
    lines,
    withGroupLabels(lines, withCentredCells(lines, withRowsOverCentredCells(lines, withLongRowsAmongRows(lines, lines.map((line) => tableish(line, regionX0, regionWidth, options.skipMonospace ?? false)))))),
  );
  const tables: FoundTable[] = [];
  let i = 0;
  while (i < lines.length) {
    if (kinds[i] !== 'multi') {
      i++;
      continue;
    }
    // Extend backwards over short header lines, forwards over multi and short lines with ordinary gaps.
    const ref = lines[i]!;
    const fits = (index: number, neighbour: number) =>
      (closeEnough(lines[Math.min(index, neighbour)]!, lines[Math.max(index, neighbour)]!) ||
        atRowRhythm(lines, kinds, Math.max(index, neighbour)) ||
        atWrappedRowRhythm(lines, kinds, Math.max(index, neighbour))) &&
      Math.abs(lines[index]!.size - ref.size) <= 0.15 * ref.size &&
      (!lines[index]!.bold || ref.bold || lines[index]!.cells.length >= 2);
    let start = i;
    const pitch = rowPitch(lines, kinds, i);
    while (
      start > 0 &&
      kinds[start - 1] === 'single' &&
      fits(start - 1, start) &&
      !setApart(lines[start - 1]!, lines[start]!, pitch) &&
      !endsParagraph(lines, start - 1, kinds) &&
      !isUnitsNote(lines[start - 1]!, lines[start]!.x0, lines[start]!.x1)
    ) {
      start--;
    }
    if (standsApartAsBlock(lines, start, i)) start = i;
    let end = i + 1;
    while (end < lines.length && kinds[end] !== null && fits(end, end - 1)) end++;
    while (end - 1 > i && kinds[end - 1] === 'single') end--;
    // Notes at the foot, numbered and set smaller than the rows (the page's footnotes under a table ending it), are
    // no rows of it.
    const rowSize = median(lines.slice(start, end).map((line) => line.size));
    while (end - 1 > i && NOTE_START.test(lines[end - 1]!.text) && lines[end - 1]!.size < NOTE_SMALLER * rowSize) end--;
    const run = lines.slice(start, end);
    const multi = run.filter((line) => line.cells.length >= 2).length;
    if (multi >= minRows) {
      const size = median(run.map((line) => line.size));
      // Rows of two cells meeting closer than a word space (table-figure-pairs.ts) part at a band that narrow.
      const channels = findChannels(run, (run.some(isPairSplit) ? FIGURE_BAND_EM : 0.5) * size);
      // Short lines right after the table that start past the first column are wrapped cells of the last row.
      const firstChannel = channels[0];
      // Lines above a first row that leaves the first column empty (a statement's years over its figures), lying
      // wholly in that column, label none of the columns: a title or a period over the table, not its header.
      if (firstChannel && lines[i]!.cells.every((cell) => cell.x0 >= firstChannel.x0)) {
        let titles = 0;
        while (start + titles < i && lines[start + titles]!.cells.every((cell) => cell.x1 < firstChannel.x1)) titles++;
        run.splice(0, titles);
        start += titles;
      }
      while (
        firstChannel &&
        end < lines.length &&
        kinds[end] === 'single' &&
        (lines[end]!.x0 >= firstChannel.x1 - 1 || startsLikeWrappedCell(run, lines[end]!)) &&
        closeEnough(lines[end - 1]!, lines[end]!)
      ) {
        run.push(lines[end]!);
        end++;
      }
      // A bold header row set larger than the rows (out of the run by size alone) heads the table, when each of
      // its cells stays inside one column; otherwise it would become a heading over a headerless table. So does one
      // at the page's top, which its place alone left out of the run (a running head's candidate).
      const above = start > 0 ? lines[start - 1]! : undefined;
      const headerKind = kinds[start - 1] === 'multi' || (above?.zone === 'top' && above.cells.length >= 2);
      if (above && headerKind && isHeaderRow(above, ref, channels) && closeEnough(above, lines[start]!)) {
        run.unshift(above);
        start--;
      }
      let placed = channels.length > 0 ? layOut(run, channels, minRows) : null;
      // A bold header row over a body in regular weight, whose labels are centred over (not aligned with) the
      // body's columns, or set from their cells' left edges over numbers set flush right (a spreadsheet's): the
      // columns come from the body, each label goes to the column nearest its centre (or the next one, where the
      // label before took that), and short lines taken in above the header (a caption's last line) are left to
      // the text.
      // So also where the labels, centred, reach into the gutters the body leaves between its columns: the channels
      // the header narrowed put a label and the column under it apart. A header of several bold lines (group labels
      // over column names, up to MAX_HEADER_LINES) is laid out so, line by line; so is a header in the body's
      // weight whose labels head figures.
      const header = lines[i]!;
      const headerLines = boldLinesFrom(run, run.indexOf(header), minRows);
      const body = run.slice(run.indexOf(header) + headerLines);
      const headed = header.bold || (placed !== null && labelsOverFigures(header, body));
      if (headed && header.cells.length >= 2 && end - i > minRows && regularBody(body)) {
        const bodyChannels = findChannels(body, 0.5 * size);
        const labels = run.slice(run.indexOf(header), run.indexOf(header) + headerLines);
        if (!placed || labels.some((line) => reachesIntoChannels(line, bodyChannels))) {
          const centred = bodyChannels.length > 0 ? layOut(run.slice(run.indexOf(header)), bodyChannels, minRows, headerLines) : null;
          // A table found by its own channels stays as found where its labels cannot be laid out centred.
          if (centred || !placed) {
            run.splice(0, run.indexOf(header));
            start = i;
            placed = centred;
          }
        }
      }
      if (placed) placed = withFigurePairColumns(withTightColumns(run, placed, channels, minRows, size), minRows, size);
      // Rules typed under a header or over a total (`----`, `====`) part rows; they hold no cell.
      if (placed) placed = placed.filter((row) => !isTypedRule(row.cells));
      if (placed && placed.length >= minRows) {
        const rows = placed.map((row) => row.cells);
        const grid = withLabelRowsAcross(withRowLabelSpans(gridWithHeaderSpans(placed) ?? gridOfRows(rows), placed), placed);
        tables.push({ start, end, rows, grid, markdown: renderTableGrid(grid), rect: boundingRect(run) });
        i = end;
        continue;
      }
    }
    i = end;
  }
  return tables;
}

/**
 * Words this far apart (in ems) may stand in columns of their own inside a table: a word processor's table of
 * narrow columns, its cells centred, sets neighbouring cells' texts 0.5–0.8 em apart, closer than a line's cells
 * are split at, and a space between words of one cell is 0.2–0.35 em.
 */
const TIGHT_CELL_GAP_EM = 0.45;

/**
 * The table read again with its lines split at `TIGHT_CELL_GAP_EM`, where that keeps every channel and each
 * column is used by two rows or more: the figures of a centred table's narrow columns (`26,014 50.6 26,112`) and
 * its header's names (`People Share People Share`, one cell across a channel the body leaves) each a cell.
 * Otherwise the table as first laid out.
 */
function withTightColumns(run: readonly TextLine[], placed: Row[], channels: readonly Channel[], minRows: number, size: number): LaidOut {
  const asLaid: LaidOut = { rows: placed, lines: run, channels };
  let split = false;
  const tight = run.map((line) => {
    const items = line.cells.flatMap((cell) => cell.items);
    const again = buildLine(items, TIGHT_CELL_GAP_EM);
    if (again.cells.length > line.cells.length) split = true;
    return again;
  });
  if (!split) return asLaid;
  const finer = findChannels(tight, 0.5 * size);
  if (finer.length < channels.length) return asLaid;
  if (!refines(finer, channels)) return asLaid;
  const rows = layOut(tight, finer, minRows);
  return rows ? { rows, lines: tight, channels: finer } : asLaid;
}

/**
 * The table with a column split where each row's two figures meet closer than a word space (table-figure-pairs.ts):
 * where a channel opens there in the body, free in the rows as the others are, and the header's first row has a
 * label on each side of it, each of its labels in a column of its own. Each added column must refine the body as
 * laid out: its rows' texts, the split columns joined again, are the same. Otherwise the table as laid out.
 */
function withFigurePairColumns({ rows: placed, lines, channels }: LaidOut, minRows: number, size: number): Row[] {
  const paired = splitFigurePairs(lines);
  if (!paired) return placed;
  const overlapsOld = (channel: Channel) => channels.some((old) => overlap(channel, old));
  // New channels the figures' meetings open (in enough rows to be a column's edge), with the old ones kept.
  const opened = (channel: Channel) => paired.gaps.filter((gap) => gap.x0 <= channel.x0 + 0.5 && gap.x1 >= channel.x1 - 0.5).length >= minRows;
  const finer = findChannels(paired.lines, FIGURE_BAND_EM * size).filter((channel) => overlapsOld(channel) || opened(channel));
  const added = finer.flatMap((channel, at) => (overlapsOld(channel) ? [] : [at]));
  if (added.length === 0 || !refines(finer, channels)) return placed;
  const laid = layOut(paired.lines, finer, minRows);
  if (!laid || laid.length !== placed.length) return placed;
  // The header's labels each in a column of their own (a label centred over two columns would join another).
  const header = laid[0]!.cells;
  if (header.filter(Boolean).length !== paired.lines[0]!.cells.length) return placed;
  if (added.some((at) => !header[at] || !header[at + 1] || FIGURE.test(header[at]!) || FIGURE.test(header[at + 1]!))) return placed;
  const rejoined = (cells: readonly string[]) => cells.reduce<string[]>((out, cell, col) => {
    if (added.includes(col - 1)) out[out.length - 1] = [out[out.length - 1], cell].filter(Boolean).join(' ');
    else out.push(cell);
    return out;
  }, []);
  // The body's rows as laid out before, each split column joined again: its header is the one read anew.
  return laid.every((row, index) => index === 0 || rejoined(row.cells).join('\u0000') === placed[index]!.cells.join('\u0000')) ? laid : placed;
}

/** Most lines a table's header is set on: group labels over group labels over column names, and a wrapped name. */
const MAX_HEADER_LINES = 4;

/** How many bold lines the run holds from `from` on (at least one), up to MAX_HEADER_LINES, leaving `minRows` under them. */
function boldLinesFrom(run: readonly TextLine[], from: number, minRows: number): number {
  let count = 1;
  while (count < MAX_HEADER_LINES && from + count < run.length - minRows && run[from + count]!.bold) count++;
  return count;
}

/** A table's body in regular weight, but for its last row (a total set in bold). */
function regularBody(body: readonly TextLine[]): boolean {
  return body.slice(0, -1).every((line) => !line.bold);
}

/** Whether a cell of the line reaches into one of the channels (more than a point), as a label centred over a narrower column does. */
function reachesIntoChannels(line: TextLine, channels: readonly Channel[]): boolean {
  return line.cells.some((cell) => channels.some((channel) => cell.x1 > channel.x0 + 1 && cell.x0 < channel.x1 - 1));
}

/** A bold line of cells, each within one column, in a size near the table's (up to 1.6×). */
function isHeaderRow(line: TextLine, ref: TextLine, channels: readonly Channel[]): boolean {
  if (!line.bold || line.cells.length < 2 || channels.length === 0) return false;
  if (line.size > 1.6 * ref.size || line.size < 0.8 * ref.size) return false;
  return line.cells.every((cell) => channels.every((channel) => !(cell.x0 < channel.x0 + 0.5 && cell.x1 > channel.x1 - 0.5)));
}

/**
 * How far apart a short line may stand above the table, in row pitches, to be one of its header lines. A header's
 * wrapped label or a lone column name sits at the rows' pitch; a sheet's title with a blank row under it, or the
 * running head a spreadsheet prints over every page (the sheet's name, centred in the top margin), stands further
 * off, and is text over the table.
 */
const HEADER_LINE_PITCHES = 1.4;

/** How far apart the table's first rows may stand unevenly, as a share of their pitch, and still be rows of it. */
const EVEN_PITCH = 0.1;

/**
 * Baseline to baseline between the table's first rows of cells, when its first three stand evenly apart as a
 * table's rows do; a chart's labels lined up like cells (an axis's ticks beside data labels) do not, and keep the
 * lines above them.
 */
function rowPitch(lines: readonly TextLine[], kinds: readonly ('multi' | 'single' | null)[], first: number): number | undefined {
  if (kinds[first + 1] !== 'multi' || kinds[first + 2] !== 'multi') return undefined;
  const pitch = lines[first + 1]!.baseline - lines[first]!.baseline;
  const next = lines[first + 2]!.baseline - lines[first + 1]!.baseline;
  return pitch > 0 && Math.abs(next - pitch) <= EVEN_PITCH * pitch ? pitch : undefined;
}

/**
 * Whether the short lines `start`..`first - 1` taken in above the table's first row of cells end in a block of
 * their own: the last two of them set closer to one another than the last stands to that row (an address over an
 * invoice's items, a note over the table), where a header's wrapped labels stand at the header's own pitch. The
 * lines above such a block stand further off still: none of them heads the table.
 */
function standsApartAsBlock(lines: readonly TextLine[], start: number, first: number): boolean {
  if (first - start < 2) return false;
  const pitch = lines[first - 1]!.baseline - lines[first - 2]!.baseline;
  return pitch > 0 && lines[first]!.baseline - lines[first - 1]!.baseline > HEADER_LINE_PITCHES * pitch;
}

/**
 * Whether the short line `at` is the last line of a paragraph of prose above it (`they cost.` under a full line
 * that runs on into it): under a line no table takes, at its start and close under it. A header's wrapped label
 * stands under another label, or under a line the table's rows set apart.
 */
function endsParagraph(lines: readonly TextLine[], at: number, kinds: readonly ('multi' | 'single' | null)[]): boolean {
  const above = lines[at - 1];
  return above !== undefined && kinds[at - 1] === null && !above.zone && runsOnFrom(above, lines[at]!);
}

/** Whether a short line stands further above the line below than the table's rows stand apart. */
function setApart(above: TextLine, below: TextLine, pitch: number | undefined): boolean {
  return pitch !== undefined && below.baseline - above.baseline > HEADER_LINE_PITCHES * pitch;
}

function closeEnough(above: TextLine, below: TextLine): boolean {
  const size = Math.max(above.size, below.size);
  return below.top - above.bottom <= 2.5 * size;
}

