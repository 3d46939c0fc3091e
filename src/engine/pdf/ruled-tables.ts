/**
 * Tables drawn with ruling lines (cell borders printed by a word processor or a report generator). The page's
 * horizontal and vertical rules are merged into long lines; lines that cross or touch form a grid; every text
 * item inside the grid goes to the cell where it starts. Unlike the aligned-text detector (tables.ts), this needs
 * no whitespace channels: short cells, a bold header row set in another size, and wrapped cells all stay in
 * their row and column. A grid must have at least two rows and two columns with text, mostly filled cells and
 * no page of prose in a cell (a frame drawn around two text columns is not a table), or be a form's fields (one
 * row of labels over boxes left empty: form-fields.ts), or a form's box of one row, a label beside its value. Pure;
 * bounded work.
 */
import { isCaptionText } from './captions.js';
import { emptyFieldColumns, emptyFieldRows, namesFields } from './form-fields.js';
import { buildLines } from './lines.js';
import { median } from './measure.js';
import { withLeadingBullet } from './line-bullets.js';
import { joinLines, listMarker } from './paragraphs.js';
import type { Ruling } from './rulings.js';
import { listColumns, readsAsTable } from './table-kinds.js';
import { holdsPanels } from './panels.js';
import { isTextBetweenTables } from './table-interludes.js';
import { findTables } from './tables.js';
import { dropEmptyLines, gridRows, renderTableGrid, type TableCell, type TableGrid } from './table-grid.js';
import { ASCENT, DESCENT, type PdfTextItem, type Rect } from './types.js';
import { countWords } from './white-space.js';
import { monospaceShare } from './text-items.js';

export interface RuledTable {
  rect: Rect;
  /** Cell texts by row and column (a spanning cell's text at its top-left position), header rows first. */
  rows: string[][];
  /** The cells with their spans. */
  grid: TableGrid;
  markdown: string;
  /** The text items the table takes out of the page's flow. */
  items: PdfTextItem[];
}

/** Rules whose ends (or positions across) are within this distance touch (page units). */
const TOUCH = 2;
/** Rules at most this far apart across their direction are one line (a border drawn cell by cell). */
const SAME_LINE = 1;
/** Past this many merged rules per direction, the page is vector art, not a table page: no ruled tables. */
const MAX_RULES = 4000;
/** Bound on rule-pair tests (H × V in the worst case). */
const MAX_CROSSING_TESTS = 2_000_000;
const MAX_GRID_LINES = 200;
/** Share of a grid's cells that must hold text. */
const MIN_FILLED_SHARE = 0.4;
/** More words per filled cell than this on average is prose in a frame, not a table. */
const MAX_WORDS_PER_CELL = 60;
/** A single ruled column is a table when it holds at least this many boxes of at most so many words each. */
const MIN_LIST_ROWS = 3;
const MAX_LIST_ENTRY_WORDS = 12;
/** A gap this wide (in em) through every row of a grid column is a column border the table did not draw. */
const MIN_UNRULED_GAP_EM = 1.5;
/**
 * So is a gap this wide with words on both sides of it in each of the column's rows, MIN_FULL_ROWS of them at
 * least: a word space is 0.2–0.35 em, and a cell's wrapped lines leave no such channel down every row.
 */
const MIN_FULL_GAP_EM = 0.5;
const MIN_FULL_ROWS = 3;
const WORD = /[\p{L}\p{N}]{2}/u;

interface HRule {
  y: number;
  x0: number;
  x1: number;
}

interface VRule {
  x: number;
  y0: number;
  y1: number;
}

/** Rules on (nearly) the same line that overlap or touch become one rule. */
function mergeRules<R>(
  rules: R[],
  across: (rule: R) => number,
  start: (rule: R) => number,
  end: (rule: R) => number,
  make: (at: number, from: number, to: number) => R,
): R[] {
  rules.sort((a, b) => across(a) - across(b));
  const merged: R[] = [];
  let i = 0;
  while (i < rules.length) {
    const first = across(rules[i]!);
    let j = i;
    while (j < rules.length && across(rules[j]!) - first <= SAME_LINE) j++;
    const group = rules.slice(i, j).sort((a, b) => start(a) - start(b));
    let from = start(group[0]!);
    let to = end(group[0]!);
    for (const rule of group.slice(1)) {
      if (start(rule) <= to + TOUCH) {
        to = Math.max(to, end(rule));
      } else {
        merged.push(make(first, from, to));
        from = start(rule);
        to = end(rule);
      }
    }
    merged.push(make(first, from, to));
    i = j;
  }
  return merged;
}

class UnionFind {
  private readonly parent: Int32Array;
  constructor(size: number) {
    this.parent = new Int32Array(size).map((_, i) => i);
  }
  find(i: number): number {
    let root = i;
    while (this.parent[root] !== root) root = this.parent[root]!;
    // Path compression, iteratively (no recursion on attacker-sized input).
    let node = i;
    while (this.parent[node] !== root) {
      const next = this.parent[node]!;
      this.parent[node] = root;
      node = next;
    }
    return root;
  }
  union(a: number, b: number): void {
    this.parent[this.find(a)] = this.find(b);
  }
}

/** Groups of horizontal and vertical rules that cross or touch one another; null when the page is too busy. */
function connectedGrids(hs: readonly HRule[], vs: readonly VRule[]): Grid[] | null {
  const byX = vs.map((v, index) => ({ v, index })).sort((a, b) => a.v.x - b.v.x);
  const sets = new UnionFind(hs.length + vs.length);
  let tests = 0;
  for (const [hi, h] of hs.entries()) {
    // First vertical at or right of h.x0 - TOUCH (binary search), then every one up to h.x1 + TOUCH.
    let lo = 0;
    let hi2 = byX.length;
    while (lo < hi2) {
      const mid = (lo + hi2) >> 1;
      if (byX[mid]!.v.x < h.x0 - TOUCH) lo = mid + 1;
      else hi2 = mid;
    }
    for (let k = lo; k < byX.length && byX[k]!.v.x <= h.x1 + TOUCH; k++) {
      if (++tests > MAX_CROSSING_TESTS) return null;
      const { v, index } = byX[k]!;
      if (h.y >= v.y0 - TOUCH && h.y <= v.y1 + TOUCH) sets.union(hi, hs.length + index);
    }
  }
  const groups = new Map<number, Grid>();
  const groupOf = (i: number) => {
    const root = sets.find(i);
    let group = groups.get(root);
    if (!group) {
      group = { hs: [], vs: [] };
      groups.set(root, group);
    }
    return group;
  };
  hs.forEach((h, i) => groupOf(i).hs.push(h));
  vs.forEach((v, i) => groupOf(hs.length + i).vs.push(v));
  return [...groups.values()].filter((group) => group.hs.length >= 2 && group.vs.length >= 2);
}

/** Sorted distinct positions (values within TOUCH are one). */
function boundaries(values: number[]): number[] {
  values.sort((a, b) => a - b);
  const out: number[] = [];
  for (const value of values) {
    if (out.length === 0 || value - out[out.length - 1]! > TOUCH) out.push(value);
  }
  return out;
}

/** Index of the band [edges[i], edges[i + 1]) holding `value`, or -1 outside. */
function bandOf(edges: readonly number[], value: number): number {
  if (!(value > edges[0]!) || !(value < edges[edges.length - 1]!)) return -1;
  let lo = 0;
  let hi = edges.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (edges[mid]! <= value) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Whether a rule among `sorted` (by position across) lies at `at` and covers `point` along its length. */
function ruleCovers<R>(sorted: readonly R[], across: (rule: R) => number, from: (rule: R) => number, to: (rule: R) => number, at: number, point: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (across(sorted[mid]!) < at - TOUCH) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < sorted.length && across(sorted[k]!) <= at + TOUCH; k++) {
    if (from(sorted[k]!) <= point && to(sorted[k]!) >= point) return true;
  }
  return false;
}

/**
 * For each grid cell (row-major), the cell it is part of: a rule missing between two cells merges them. A
 * horizontal rule under some columns only (a sub-header's underline) divides those columns, while the cells
 * beside it span both rows; a label over several columns has no vertical rule through it.
 */
function cellOwners(xs: readonly number[], ys: readonly number[], hs: readonly HRule[], vs: readonly VRule[]): Int32Array {
  const cols = xs.length - 1;
  const rowCount = ys.length - 1;
  const byY = [...hs].sort((a, b) => a.y - b.y);
  const byX = [...vs].sort((a, b) => a.x - b.x);
  const top = new Int32Array(rowCount * cols);
  const owner = new Int32Array(rowCount * cols);
  for (let row = 0; row < rowCount; row++) {
    const midY = (ys[row]! + ys[row + 1]!) / 2;
    for (let col = 0; col < cols; col++) {
      const midX = (xs[col]! + xs[col + 1]!) / 2;
      const i = row * cols + col;
      const ruledAbove = row === 0 || ruleCovers(byY, (h) => h.y, (h) => h.x0, (h) => h.x1, ys[row]!, midX);
      top[i] = ruledAbove ? row : top[i - cols]!;
      const ruledLeft = col === 0 || ruleCovers(byX, (v) => v.x, (v) => v.y0, (v) => v.y1, xs[col]!, midY);
      // A cell merged to the left belongs to its neighbour's owner; otherwise to the top of its column span.
      owner[i] = ruledLeft ? top[i]! * cols + col : owner[i - 1]!;
    }
  }
  return owner;
}

/**
 * The cells of a grid from each position's owner (positions of one owner are one merged cell): a cell spans the
 * rectangle its owner covers from its first position (columns along that row, then the rows where all of those
 * are its own). Positions an owner covers outside that rectangle (rules that stop at odd places) stay empty cells.
 */
function gridCells(owner: Int32Array, rowCount: number, cols: number, text: ReadonlyMap<number, string>): TableCell[] {
  const covered = new Uint8Array(rowCount * cols);
  const placed = new Set<number>();
  const cells: TableCell[] = [];
  for (let i = 0; i < rowCount * cols; i++) {
    if (covered[i]) continue;
    const row = Math.floor(i / cols);
    const col = i % cols;
    const key = owner[i]!;
    if (placed.has(key)) {
      covered[i] = 1;
      cells.push({ row, col, rowSpan: 1, colSpan: 1, text: '' });
      continue;
    }
    placed.add(key);
    const owns = (k: number) => owner[k] === key && !covered[k];
    let colSpan = 1;
    while (col + colSpan < cols && owns(i + colSpan)) colSpan++;
    let rowSpan = 1;
    while (row + rowSpan < rowCount && Array.from({ length: colSpan }, (_, c) => (row + rowSpan) * cols + col + c).every(owns)) rowSpan++;
    for (let r = row; r < row + rowSpan; r++) covered.fill(1, r * cols + col, r * cols + col + colSpan);
    cells.push({ row, col, rowSpan, colSpan, text: text.get(key) ?? '' });
  }
  return cells;
}

/**
 * The owners of the grid's rows and columns that hold text: bands without any (double rules, the padding strips
 * of cells shaded in bands) would otherwise cut a spanning cell into pieces.
 */
function textBands(owner: Int32Array, cols: number, rows: ReadonlySet<number>, columns: ReadonlySet<number>) {
  const keptRows = [...rows].sort((a, b) => a - b);
  const keptCols = [...columns].sort((a, b) => a - b);
  const reduced = new Int32Array(keptRows.length * keptCols.length);
  keptRows.forEach((row, r) => keptCols.forEach((col, c) => (reduced[r * keptCols.length + c] = owner[row * cols + col]!)));
  return { owner: reduced, rowCount: keptRows.length, colCount: keptCols.length };
}

/**
 * A single column of ruled boxes reads as a table when it is a list of short entries, one per box: three or more,
 * none empty, none a sentence of prose (a framed note or a callout split by rules is not a list of rows).
 */
function isBoxedList(rows: readonly (readonly string[])[]): boolean {
  return rows.length >= MIN_LIST_ROWS && rows.every(([text = '']) => text !== '' && countWords(text) <= MAX_LIST_ENTRY_WORDS);
}

/**
 * Set mostly in a monospaced font: a code listing, whose lines a shaded or striped background rules apart, not a
 * list of entries.
 */
function isMostlyMonospaced(items: readonly PdfTextItem[]): boolean {
  return monospaceShare(items) > 0.5;
}

/** The grid's cells filled with the items inside it; null when it does not read as a table. */
function fillGrid(
  xs: readonly number[],
  ys: readonly number[],
  grid: { hs: readonly HRule[]; vs: readonly VRule[] },
  items: readonly PdfTextItem[],
  taken: ReadonlySet<PdfTextItem>,
): { grid: TableGrid; rows: string[][]; items: PdfTextItem[]; top: number } | null {
  const cols = xs.length - 1;
  const rowCount = ys.length - 1;
  const owner = cellOwners(xs, ys, grid.hs, grid.vs);
  const wholeWidth = (row: number) => owner[row * cols + cols - 1] === owner[row * cols];
  // A first row that is one cell across the table, over a row of columns, is the table's title: it stays in
  // the text above the table, and the columns' row heads the table.
  if (rowCount >= 3 && cols >= 2 && wholeWidth(0) && !wholeWidth(1)) return fillGrid(xs, ys.slice(1), grid, items, taken);
  const cellItems = new Map<number, PdfTextItem[]>();
  const inside: PdfTextItem[] = [];
  const textRows = new Set<number>();
  const textCols = new Set<number>();
  for (const item of items) {
    if (taken.has(item)) continue;
    const { x, y } = anchor(item);
    const col = bandOf(xs, x);
    const row = col < 0 ? -1 : bandOf(ys, y);
    if (row < 0) continue;
    textRows.add(row);
    textCols.add(col);
    const key = owner[row * cols + col]!;
    let list = cellItems.get(key);
    if (!list) cellItems.set(key, (list = []));
    list.push(item);
    inside.push(item);
  }
  const text = new Map<number, string>();
  for (const [key, list] of cellItems) text.set(key, joinLines(buildLines(list).map((line) => line.text)));
  // A row of labels over boxes left empty (a form's fields): the boxes stay, as empty rows under their labels.
  const fieldRows = emptyFieldRows(ys, textRows, median(inside.map((item) => item.size)));
  if (fieldRows.length > 0) {
    const bands = textBands(owner, cols, new Set([...textRows, ...fieldRows]), textCols);
    const table = dropEmptyLines({ rowCount: bands.rowCount, colCount: bands.colCount, cells: gridCells(bands.owner, bands.rowCount, bands.colCount, text) }, ['col']);
    const rows = gridRows(table);
    const labels = rows.find((row) => row.some((cell) => cell !== ''));
    if (table.colCount >= 2 && labels && namesFields(labels) && !isMostlyMonospaced(inside)) return { grid: table, rows, items: inside, top: ys[0]! };
  }
  const bands = textBands(owner, cols, textRows, textCols);
  const table = dropEmptyLines({ rowCount: bands.rowCount, colCount: bands.colCount, cells: gridCells(bands.owner, bands.rowCount, bands.colCount, text) });
  const rows = gridRows(table);
  const width = table.colCount;
  if (width === 1) return isBoxedList(rows) && !isMostlyMonospaced(inside) ? { grid: table, rows, items: inside, top: ys[0]! } : null;
  if (rows.length === 1 && isLabelledBox(rows[0]!) && !isMostlyMonospaced(inside)) return { grid: table, rows, items: inside, top: ys[0]! };
  if (rows.length < 2 || width < 2) return null;
  const filled = rows.flat().filter((cell) => cell !== '');
  if (filled.length < MIN_FILLED_SHARE * rows.length * width) return null;
  const words = filled.reduce((sum, cell) => sum + countWords(cell), 0);
  if (words > MAX_WORDS_PER_CELL * filled.length) return null;
  // Text in two or more cells of at least two rows, or the grid is a set of boxes around unrelated text; or a header
  // naming every column over rows named in the first (the other columns' cells hold pictures, or are blank).
  if (rows.filter((row) => row.filter((cell) => cell !== '').length >= 2).length < 2 && !namesRowsUnderHeader(rows)) return null;
  // Lists in the cells of rows ruled apart are a table of lists (a list a cell, as a document's table holds them):
  // lists set side by side alone (a slide's text boxes) fill one row.
  if (!readsAsTable(rows) && listColumns(rows) === undefined) return null;
  if (holdsPanels(rows)) return null;
  const fieldCols = emptyFieldColumns(xs, owner, textRows, (col) => startsText(owner, cols, col, text), median(inside.map((item) => item.size)));
  if (fieldCols.length > 0) {
    // A form's boxes left empty beside their labels: the table keeps them, as the page shows them.
    const keptCols = [...new Set([...textCols, ...fieldCols])].sort((a, b) => a - b);
    const boxed = textBands(owner, cols, textRows, new Set(keptCols));
    const spare = new Set(fieldCols.map((col) => keptCols.indexOf(col)));
    const form = dropEmptyLines({ rowCount: boxed.rowCount, colCount: boxed.colCount, cells: gridCells(boxed.owner, boxed.rowCount, boxed.colCount, text) }, ['row', 'col'], spare);
    return { grid: form, rows: gridRows(form), items: inside, top: ys[0]! };
  }
  return { grid: table, rows, items: inside, top: ys[0]! };
}

/** Words a label of a one-row box holds at most. */
const MAX_BOX_LABEL_WORDS = 3;

/**
 * A form's one-row box: a short label ruled off from its value (`첨부 서류 | 1. 성적증명서 1부 2. …`), two cells, the
 * value the longer. Read as a table of one row, the label stays beside its value, where the flow set it between
 * the value's lines (centred down the box).
 */
function isLabelledBox(row: readonly string[]): boolean {
  if (row.length !== 2) return false;
  const [label, value] = row as [string, string];
  // A caption's label ruled off from its text (`Figure 4 | …`, a frame round a figure's caption) is no field.
  const captionLabel = isCaptionText(`${label}:`);
  return label !== '' && value.length > label.length && countWords(label) <= MAX_BOX_LABEL_WORDS && !/[.:;]$/u.test(label) && !captionLabel;
}

/** Whether a cell with text starts in grid column `col` (an owner's key is its first position). */
function startsText(owner: Int32Array, cols: number, col: number, text: ReadonlyMap<number, string>): boolean {
  for (let at = col; at < owner.length; at += cols) {
    const key = owner[at]!;
    if (key % cols === col && (text.get(key) ?? '') !== '') return true;
  }
  return false;
}

/** A first row that fills every column, over two rows or more each named in their first cell. */
function namesRowsUnderHeader(rows: readonly (readonly string[])[]): boolean {
  const [header, ...body] = rows;
  return header !== undefined && body.length >= 2 && header.every((cell) => cell !== '') && body.every((row) => row[0] !== '');
}

/** A header row above the top rule sits within this many em of it. */
const HEADER_GAP_EM = 1.2;
/** Header cells are labels: at most this many words each. */
const MAX_HEADER_WORDS = 8;
/**
 * Its labels are set within this share of the grid's text size, or larger up to HEADER_LARGER times it: a running
 * header in smaller type set tight above a table at the top of a page (a browser's print header, 8 pt over 10 pt
 * cells) is no header of it, while a word processor's table styles often set the header larger than the body.
 */
const HEADER_SIZE_SHARE = 0.15;
const HEADER_LARGER = 1.5;
/** Lines closer than this many em are one text: a header label wrapped in its cell, or a paragraph run on. */
const TIGHT_EM = 0.5;
/** A header label wraps over at most this many lines. */
const MAX_HEADER_LINES = 3;

/**
 * The top of a header row set just above the grid's top rule (a table ruled from under its header down): one line
 * of two or more short labels, each inside one grid column, in the table's size or near it, or larger; labels
 * wrapped in their cells add lines under it, set tight. Undefined when there is none.
 */
function headerAbove(xs: readonly number[], top: number, items: readonly PdfTextItem[], taken: ReadonlySet<PdfTextItem>, gridSize: number): number | undefined {
  const x0 = xs[0]!;
  const x1 = xs[xs.length - 1]!;
  const near = items.filter((item) => {
    if (taken.has(item) || item.x0 < x0 - TOUCH || item.x1 > x1 + TOUCH) return false;
    const y = anchor(item).y;
    return y < top && y > top - (MAX_HEADER_LINES + 1) * item.size;
  });
  if (near.length < 2) return undefined;
  const lines = buildLines(near);
  const last = lines[lines.length - 1]!;
  if (top - last.bottom > HEADER_GAP_EM * last.size) return undefined;
  // The header's lines: the last one and those set tight over it, up to the first of two labels or more.
  let first = lines.length - 1;
  while (lines[first]!.cells.length < 2 && first > 0 && lines.length - first < MAX_HEADER_LINES && lines[first]!.top - lines[first - 1]!.bottom < TIGHT_EM * last.size) first--;
  const header = lines.slice(first);
  const line = header[0]!;
  if (line.cells.length < 2) return undefined;
  if (gridSize > 0 && (line.size < (1 - HEADER_SIZE_SHARE) * gridSize || line.size > HEADER_LARGER * gridSize)) return undefined;
  // The line above it, if any is that close, is part of something else (a caption, a paragraph) run into the grid.
  const above = lines[first - 1];
  if (above && line.top - above.bottom < TIGHT_EM * line.size) return undefined;
  const inOneColumn = header.every((headerLine) =>
    headerLine.cells.every((cell) => {
      const col = bandOf(xs, cell.x0 + 0.5);
      return col >= 0 && col === bandOf(xs, cell.x1 - 0.5) && countWords(cell.text) <= MAX_HEADER_WORDS;
    }),
  );
  return inOneColumn ? line.top - 0.5 : undefined;
}

/** Where a text item starts, and its glyphs' middle height. */
function anchor(item: PdfTextItem): { x: number; y: number } {
  return { x: item.x0 + Math.min(1, (item.x1 - item.x0) / 2), y: item.baseline - ((ASCENT - DESCENT) / 2) * item.size };
}

/**
 * Column borders a grid leaves undrawn (a table ruled between rows, and between some columns only): inside one
 * grid column, a vertical gap wider than 1.5 em that no text crosses in any row, with words on both sides of it
 * in two rows or more. Word spaces and a bullet's indent are narrower; wrapped prose leaves no such gap.
 */
function unruledColumns(xs: readonly number[], ys: readonly number[], items: readonly PdfTextItem[]): number[] {
  const out: number[] = [];
  for (let c = 0; c + 1 < xs.length; c++) {
    const inColumn = items.filter((item) => {
      const { x, y } = anchor(item);
      return x > xs[c]! && x < xs[c + 1]! && bandOf(ys, y) >= 0;
    });
    if (inColumn.length < 4) continue;
    const size = median(inColumn.map((item) => item.size));
    const rows = new Set(inColumn.map((item) => bandOf(ys, anchor(item).y))).size;
    const sorted = [...inColumn].sort((a, b) => a.x0 - b.x0);
    let reach = sorted[0]!.x1;
    for (const item of sorted.slice(1)) {
      const gap = item.x0 - reach;
      if (gap >= MIN_FULL_GAP_EM * size) {
        const [left, right] = [reach, item.x0];
        const rowsWithWords = (side: (entry: PdfTextItem) => boolean) =>
          new Set(inColumn.filter((entry) => side(entry) && WORD.test(entry.str)).map((entry) => bandOf(ys, anchor(entry).y))).size;
        const [before, after] = [rowsWithWords((entry) => entry.x1 <= left), rowsWithWords((entry) => entry.x0 >= right)];
        // A narrower gap is a border too where every row has words on both sides of it: an invoice's labels set from
        // their cells' left edges over figures set flush right in the column before (`Qty` over `1`, `Unit price`).
        const full = rows >= MIN_FULL_ROWS && before === rows && after === rows;
        if ((gap >= MIN_UNRULED_GAP_EM * size && before >= 2 && after >= 2) || full) out.push((left + right) / 2);
      }
      reach = Math.max(reach, item.x1);
    }
  }
  return out;
}

/** Baselines of one cell's lines within this many em are one line. */
const SAME_BASELINE_EM = 0.3;
/** A line of a cell's entries fills at most this share of its cell: longer ones may be wrapped text. */
const ENTRY_SHARE = 0.6;

/** The baselines of the lines `items` make (items on one baseline are one line), top to bottom. */
function baselinesOf(items: readonly PdfTextItem[]): number[] {
  const sorted = items.map((item) => item.baseline).sort((a, b) => a - b);
  const out: number[] = [];
  const tolerance = SAME_BASELINE_EM * median(items.map((item) => item.size));
  for (const baseline of sorted) if (out.length === 0 || baseline - out[out.length - 1]! > tolerance) out.push(baseline);
  return out;
}

/**
 * Row borders a grid leaves undrawn (a box with column rules and a rule under the header only, as tbl and many
 * report tools draw a table): inside one grid row, every column with text holds the same number (two or more) of
 * lines on the same baselines, and in one column at least each line is short beside its cell, an entry of its own;
 * in a grid of more than two row bands, three lines or more. Each line is then a row, parted halfway between
 * baselines. A cell wrapped over two lines fills its first line;
 * a wrapped cell beside one-line cells gives the columns different line counts: neither is parted.
 */
function unruledRows(xs: readonly number[], ys: readonly number[], items: readonly PdfTextItem[]): number[] {
  const out: number[] = [];
  const size = median(items.map((item) => item.size));
  for (let r = 0; r + 1 < ys.length; r++) {
    const columns = new Map<number, PdfTextItem[]>();
    for (const item of items) {
      const { x, y } = anchor(item);
      if (bandOf(ys, y) !== r) continue;
      const col = bandOf(xs, x);
      if (col < 0) continue;
      let list = columns.get(col);
      if (!list) columns.set(col, (list = []));
      list.push(item);
    }
    if (columns.size < 2) continue;
    const cellItems = [...columns.values()];
    const lines = cellItems.map(baselinesOf);
    const count = lines[0]!.length;
    const aligned = lines.every((baselines) => baselines.length === count && baselines.every((b, i) => Math.abs(b - lines[0]![i]!) <= SAME_BASELINE_EM * size));
    // Where the grid rules its rows, a row of two lines is one row whose cells all wrap: only a body drawn as one
    // band (under a header band, or over a total's), or three lines or more, is taken for rows left unruled.
    if (count < 2 || !aligned || (ys.length > 3 && count < 3)) continue;
    // Lists in the cells (a bullet or a number opening the lines after a cell's first) are the cells' own lines.
    if (lines.some((baselines, index) => holdsList(cellItems[index]!, baselines, size))) continue;
    const entries = [...columns].some(([col, list]) => {
      const width = xs[col + 1]! - xs[col]!;
      return lines[0]!.every((baseline) => {
        const onLine = list.filter((item) => Math.abs(item.baseline - baseline) <= SAME_BASELINE_EM * size);
        return Math.max(...onLine.map((item) => item.x1)) - Math.min(...onLine.map((item) => item.x0)) <= ENTRY_SHARE * width;
      });
    });
    if (!entries) continue;
    const baselines = lines[0]!;
    for (let i = 1; i < baselines.length; i++) {
      // Halfway between the glyphs' middles of the two lines, so no line is cut.
      out.push((baselines[i - 1]! + baselines[i]!) / 2 - ((ASCENT - DESCENT) / 2) * size);
    }
  }
  return out;
}

interface Grid {
  hs: HRule[];
  vs: VRule[];
  /** Ruled between its rows only: its two sides stand for the borders it does not draw (rowRuledStacks). */
  rowsOnly?: true;
}

/** Whether the lines of a cell (its items, on `baselines`) after its first open with list markers: a list in the cell. */
function holdsList(items: readonly PdfTextItem[], baselines: readonly number[], size: number): boolean {
  return baselines.slice(1).some((baseline) => {
    const onLine = withLeadingBullet(items.filter((item) => Math.abs(item.baseline - baseline) <= SAME_BASELINE_EM * size).sort((a, b) => a.x0 - b.x0));
    return onLine.length > 0 && listMarker(onLine.map((item) => item.str).join(' ').trim()) !== null;
  });
}

/** The page's rules merged and grouped into grids (two or more rules each way); null when the page is too busy. */
function gridsOf(rulings: Iterable<Ruling>, holdsProse: (top: number, bottom: number) => boolean): Grid[] | null {
  const horizontal: HRule[] = [];
  const vertical: VRule[] = [];
  for (const rule of rulings) {
    if (rule.y1 - rule.y0 <= SAME_LINE) horizontal.push({ y: (rule.y0 + rule.y1) / 2, x0: rule.x0, x1: rule.x1 });
    else if (rule.x1 - rule.x0 <= SAME_LINE) vertical.push({ x: (rule.x0 + rule.x1) / 2, y0: rule.y0, y1: rule.y1 });
  }
  if (horizontal.length < 2) return [];
  const hs = mergeRules(horizontal, (h) => h.y, (h) => h.x0, (h) => h.x1, (y, x0, x1) => ({ y, x0, x1 }));
  const vs = mergeRules(vertical, (v) => v.x, (v) => v.y0, (v) => v.y1, (x, y0, y1) => ({ x, y0, y1 }));
  if (hs.length > MAX_RULES || vs.length > MAX_RULES) return null;
  const grids = vs.length >= 2 ? connectedGrids(hs, vs) : [];
  if (grids === null) return null;
  const inGrids = new Set(grids.flatMap((grid) => grid.hs));
  return [...grids, ...rowRuledStacks(hs.filter((h) => !inGrids.has(h)), vs, holdsProse)];
}

/** Rules between a table's rows end within this distance of one another at each side (a thicker rule's ends). */
const SAME_EXTENT = 3;
/** The shortest rule that rules a table's rows: underlines of words and fields are shorter. */
const MIN_ROW_RULE = 72;
/** The fewest rules of one extent that rule a table's rows: over it, under its header, under it. */
const MIN_STACK_RULES = 3;

/** Rules this far apart, and this many times the stack's usual gap, belong to two tables (prose between them). */
const MAX_ROW_GAP = 72;
const ROW_GAP_SPREAD = 3;

/**
 * Tables ruled between their rows only (Word's plain table styles, booktabs, a report's rows set off by hairlines):
 * three or more long rules of one extent, one under another, that no vertical rule touches. Their two ends stand
 * for the table's sides; the columns are the gaps every row leaves (unruledColumns), and a stack whose rows part
 * into no columns is no table (findRuledTables): rules between paragraphs, lines to write on.
 */
function rowRuledStacks(hs: readonly HRule[], vs: readonly VRule[], holdsProse: (top: number, bottom: number) => boolean): Grid[] {
  const loose = hs.filter(
    (h) => h.x1 - h.x0 >= MIN_ROW_RULE && !vs.some((v) => v.x >= h.x0 - TOUCH && v.x <= h.x1 + TOUCH && h.y >= v.y0 - TOUCH && h.y <= v.y1 + TOUCH),
  );
  const stacks: HRule[][] = [];
  for (const rule of [...loose].sort((a, b) => a.y - b.y)) {
    const stack = stacks.find((candidate) => {
      const first = candidate[0]!;
      return Math.abs(first.x0 - rule.x0) <= SAME_EXTENT && Math.abs(first.x1 - rule.x1) <= SAME_EXTENT;
    });
    if (stack) stack.push(rule);
    else stacks.push([rule]);
  }
  const grids: Grid[] = [];
  for (const stack of stacks) {
    for (const part of partedAtWideGaps(stack).flatMap((wide) => partedAtProse(wide, holdsProse))) {
      if (part.length < MIN_STACK_RULES) continue;
      const x0 = Math.min(...part.map((h) => h.x0));
      const x1 = Math.max(...part.map((h) => h.x1));
      const [y0, y1] = [part[0]!.y, part[part.length - 1]!.y];
      grids.push({ hs: part.map((h) => ({ y: h.y, x0, x1 })), vs: [{ x: x0, y0, y1 }, { x: x1, y0, y1 }], rowsOnly: true });
    }
  }
  return grids;
}

/** A stack of rules (top down) parted where a gap is far wider than its usual one. */
function partedAtWideGaps(stack: readonly HRule[]): HRule[][] {
  if (stack.length < 2) return [[...stack]];
  const gaps = stack.slice(1).map((h, i) => h.y - stack[i]!.y);
  const usual = median(gaps);
  const parts: HRule[][] = [[stack[0]!]];
  gaps.forEach((gap, i) => {
    if (gap > MAX_ROW_GAP && gap > ROW_GAP_SPREAD * usual) parts.push([]);
    parts[parts.length - 1]!.push(stack[i + 1]!);
  });
  return parts;
}

/**
 * A table ruled between some of its rows only (booktabs: a rule over it, one under its header, one under it) read
 * as its text is aligned, where its bands hold rows the rules leave apart: the aligned-text reader (tables.ts) parts
 * those rows and sets a header's labels over the columns they span, which the grid, one column wide until its gaps
 * are found, cannot. Taken only where that reading is one table of every line in the rules and of more rows than
 * the rules make, no rule running through a line's glyphs (a chart's gridlines run through its axis labels);
 * undefined elsewhere, and the grid is read as ruled.
 */
function alignedReading(items: readonly PdfTextItem[], ys: readonly number[]): Omit<RuledTable, 'rect'> | undefined {
  if (items.length === 0) return undefined;
  const lines = buildLines(items);
  if (lines.some((line) => ys.some((y) => y > line.top + TOUCH && y < line.bottom - TOUCH))) return undefined;
  const found = findTables(lines);
  const table = found.length === 1 ? found[0]! : undefined;
  if (!table || table.start > 0 || table.end < lines.length || table.rows.length <= ys.length - 1) return undefined;
  return { rows: table.rows, grid: table.grid, markdown: table.markdown, items: lines.flatMap((line) => line.cells.flatMap((cell) => cell.items)) };
}

/**
 * A stack of rules (top down) parted where the text between two of them is prose, not rows: two tables ruled
 * alike on one page (a rule over each, under its header, under it), with the source note, a heading and a
 * paragraph between them, stand far apart only beside their own tall rows, so the gap alone does not part them.
 * Parted only where each side keeps a table's three rules: a table ruled over and under alone (its header's rule
 * shorter) is no stack of its own, and stays read as it was.
 */
function partedAtProse(stack: readonly HRule[], holdsProse: (top: number, bottom: number) => boolean): HRule[][] {
  const parts: HRule[][] = [[stack[0]!]];
  for (let i = 1; i < stack.length; i++) {
    const part = parts[parts.length - 1]!;
    if (part.length >= MIN_STACK_RULES && stack.length - i >= MIN_STACK_RULES && holdsProse(stack[i - 1]!.y, stack[i]!.y)) parts.push([]);
    parts[parts.length - 1]!.push(stack[i]!);
  }
  // A table's last rule, the rest of it parted off at a wide gap, stands over the text before the next table; the
  // next table's first rule, under the text after the last. Neither rules a row of the table beside it.
  return parts.map((part) => {
    let [first, end] = [0, part.length];
    while (end - first > MIN_STACK_RULES && holdsProse(part[first]!.y, part[first + 1]!.y)) first++;
    while (end - first > MIN_STACK_RULES && holdsProse(part[end - 2]!.y, part[end - 1]!.y)) end--;
    return part.slice(first, end);
  });
}

/** Words a line of one cell holds to be prose between tables, not a cell (as proseOnEverySide counts them). */
const PROSE_LINE_WORDS = 5;

/**
 * Whether `items` (those between two rules) are prose: no line of two cells or more, which a table's row would
 * make, and a line of one cell of PROSE_LINE_WORDS words or more; or notes and a heading between two tables.
 */
function isProseBetweenRules(items: readonly PdfTextItem[]): boolean {
  if (items.length === 0) return false;
  const lines = buildLines(items);
  return (lines.every((line) => line.cells.length < 2) && lines.some((line) => countWords(line.text) >= PROSE_LINE_WORDS)) || isTextBetweenTables(lines);
}

/** The index of the first entry at or below `y` in entries sorted by y. */
function firstAtOrBelow(byY: readonly { y: number }[], y: number): number {
  let lo = 0;
  let hi = byY.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byY[mid]!.y < y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Finds the ruled tables of a page (top to bottom). */
export function findRuledTables(items: readonly PdfTextItem[], rulings: readonly Ruling[]): RuledTable[] {
  // Items by the height of their glyphs' middle, so each grid looks only at the items within its rows. Sorted
  // when first asked for: most pages' rules make no grid, and no grid then asks.
  let sortedByY: { item: PdfTextItem; y: number }[] | undefined;
  const between = (top: number, bottom: number) => {
    const byY = (sortedByY ??= items.map((item) => ({ item, y: item.baseline - ((ASCENT - DESCENT) / 2) * item.size })).sort((a, b) => a.y - b.y));
    return byY.slice(firstAtOrBelow(byY, top), firstAtOrBelow(byY, bottom)).map((entry) => entry.item);
  };
  const grids = gridsOf(rulings, (top, bottom) => isProseBetweenRules(between(top, bottom)));
  if (!grids) return [];
  const candidates = grids
    .map((grid) => {
      // Open sides (no outer vertical border, say) are closed by the other direction's extent.
      const xs = boundaries([...grid.vs.map((v) => v.x), ...grid.hs.map((h) => h.x0), ...grid.hs.map((h) => h.x1)]);
      const ys = boundaries([...grid.hs.map((h) => h.y), ...grid.vs.map((v) => v.y0), ...grid.vs.map((v) => v.y1)]);
      return { xs, ys, grid };
    })
    // Two columns and two rows at least (one row where it is a label beside its value: isLabelledBox), or a single
    // column of boxed rows (a boxed list), or rows ruled apart.
    .filter(({ xs, ys, grid }) => (grid.rowsOnly ? ys.length >= 3 : xs.length >= 3 ? ys.length >= 2 : xs.length === 2 && ys.length > MIN_LIST_ROWS))
    .filter(({ xs, ys }) => xs.length <= MAX_GRID_LINES && ys.length <= MAX_GRID_LINES)
    .sort((a, b) => a.ys[0]! - b.ys[0]! || a.xs[0]! - b.xs[0]!);
  const taken = new Set<PdfTextItem>();
  const tables: RuledTable[] = [];
  for (const candidate of candidates) {
    const { xs } = candidate;
    let { ys, grid } = candidate;
    const nearby = between(ys[0]! - 40, ys[0]!);
    const within = between(ys[0]!, ys[ys.length - 1]!);
    const headerTop = headerAbove(xs, ys[0]!, nearby, taken, median(within.map((item) => item.size)));
    if (headerTop !== undefined) {
      // The header's band is ruled as the grid's columns are below it.
      const hs = [...grid.hs, { y: headerTop, x0: xs[0]!, x1: xs[xs.length - 1]! }];
      const vs = [...grid.vs, ...xs.map((x) => ({ x, y0: headerTop, y1: ys[0]! }))];
      ys = [headerTop, ...ys];
      grid = { ...grid, hs, vs };
    }
    const band = between(ys[0]!, ys[ys.length - 1]!);
    const rowSplit = unruledRows(xs, ys, band.filter((item) => !taken.has(item)));
    if (rowSplit.length > 0) {
      grid = { ...grid, hs: [...grid.hs, ...rowSplit.map((y) => ({ y, x0: xs[0]!, x1: xs[xs.length - 1]! }))], vs: grid.vs };
      ys = boundaries([...ys, ...rowSplit]);
    }
    // Only the text between the rules' ends: on a page of two columns, the other column's lines run beside the rows.
    const alongside = (item: PdfTextItem) => !taken.has(item) && bandOf(xs, anchor(item).x) >= 0;
    const aligned = grid.rowsOnly && rowSplit.length === 0 ? alignedReading(band.filter(alongside), ys) : undefined;
    if (aligned) {
      for (const item of aligned.items) taken.add(item);
      tables.push({ ...aligned, rect: { x0: xs[0]!, y0: ys[0]!, x1: xs[xs.length - 1]!, y1: ys[ys.length - 1]! } });
      continue;
    }
    const split = unruledColumns(xs, ys, band.filter((item) => !taken.has(item)));
    // Rows ruled apart are a table only where they part into columns.
    if (grid.rowsOnly && split.length === 0) continue;
    const virtual = split.map((x) => ({ x, y0: ys[0]!, y1: ys[ys.length - 1]! }));
    const filled =
      split.length > 0
        ? fillGrid(boundaries([...xs, ...split]), ys, { hs: grid.hs, vs: [...grid.vs, ...virtual] }, band, taken)
        : fillGrid(xs, ys, grid, band, taken);
    if (!filled) continue;
    for (const item of filled.items) taken.add(item);
    tables.push({
      rect: { x0: xs[0]!, y0: filled.top, x1: xs[xs.length - 1]!, y1: ys[ys.length - 1]! },
      rows: filled.rows,
      grid: filled.grid,
      markdown: renderTableGrid(filled.grid),
      items: filled.items,
    });
  }
  return tables;
}
