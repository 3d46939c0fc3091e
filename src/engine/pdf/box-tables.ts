/**
 * Tables drawn as filled boxes with gutters between them (a slide's or a brochure's table: every cell a shaded
 * rectangle, no ruling lines). Each column is a stack of its own boxes, and the columns need not share row
 * heights: a label box in one column may stand beside several boxes of the next. Rows are cut at the gutters
 * between boxes stacked in a column (a gutter of one column and an overlapping gutter of another are one row
 * break); a box over a break another column has spans those rows, and columns the same way across. Boxes
 * without text (a panel behind the table, a band behind a header row) are no cells: each text item belongs to
 * the smallest box around it. Pure; bounded work.
 */
import { buildLines } from './lines.js';
import { joinLines } from './paragraphs.js';
import type { RuledTable } from './ruled-tables.js';
import { dropEmptyLines, gridRows, renderTableGrid, type TableCell, type TableGrid } from './table-grid.js';
import { readsAsTable } from './table-kinds.js';
import { ASCENT, DESCENT, type PdfTextItem, type Rect } from './types.js';
import { countWords } from './white-space.js';

/** Past this many boxes the page is vector art: no box tables. */
const MAX_BOXES = 400;
/** Boxes narrower or lower than this (page units) are rules or marks, not cells. */
const MIN_SIDE = 4;
/** Two boxes are in one column (row) when they overlap across by this share of the narrower one. */
const SAME_LANE = 0.5;
/** Neighbouring boxes at most this far apart (page units) are parts of one table. */
const MAX_GUTTER = 24;
/** A table has at least this many rows and columns, and this share of its grid positions hold a box's text. */
const MIN_ROWS = 3;
const MIN_COLS = 2;
const MIN_FILLED_SHARE = 0.5;
/** More words per cell than this on average is boxed prose (cards side by side), not a table. */
const MAX_WORDS_PER_CELL = 60;

interface Box {
  rect: Rect;
  items: PdfTextItem[];
}

function anchor(item: PdfTextItem): { x: number; y: number } {
  return { x: item.x0 + Math.min(1, (item.x1 - item.x0) / 2), y: item.baseline - ((ASCENT - DESCENT) / 2) * item.size };
}

function contains(rect: Rect, x: number, y: number): boolean {
  return x > rect.x0 && x < rect.x1 && y > rect.y0 && y < rect.y1;
}

function overlapShare(a0: number, a1: number, b0: number, b1: number): number {
  const overlap = Math.min(a1, b1) - Math.max(a0, b0);
  return overlap <= 0 ? 0 : overlap / Math.min(a1 - a0, b1 - b0);
}

/** The boxes holding text, each with the items whose anchor lies in it and in no smaller box. */
function textBoxes(items: readonly PdfTextItem[], rects: readonly Rect[]): Box[] {
  const boxes = rects
    .filter((rect) => rect.x1 - rect.x0 >= MIN_SIDE && rect.y1 - rect.y0 >= MIN_SIDE)
    .map((rect) => ({ rect, items: [] as PdfTextItem[], area: (rect.x1 - rect.x0) * (rect.y1 - rect.y0) }))
    .sort((a, b) => a.area - b.area);
  for (const item of items) {
    const { x, y } = anchor(item);
    boxes.find((box) => contains(box.rect, x, y))?.items.push(item);
  }
  const withText = boxes.filter((box) => box.items.length > 0);
  const within = (inner: Rect, outer: Rect) => inner !== outer && inner.x0 >= outer.x0 && inner.x1 <= outer.x1 && inner.y0 >= outer.y0 && inner.y1 <= outer.y1;
  const marks = new Set<(typeof withText)[number]>();
  const panels = new Set<(typeof withText)[number]>();
  for (const box of withText) {
    const inner = withText.filter((other) => within(other.rect, box.rect));
    // Around several boxes: a panel behind the table (its own text, a caption say, stays in the flow). Around
    // one: that box is a mark in this cell (a highlighted footnote number), part of its text.
    if (inner.length >= 2) panels.add(box);
    else if (inner.length === 1 && !marks.has(inner[0]!)) {
      marks.add(inner[0]!);
      box.items.push(...inner[0]!.items);
    }
  }
  const cells = withText.filter((box) => !marks.has(box) && !panels.has(box)).map(({ rect, items: inside }) => ({ rect, items: inside }));
  return withoutBadges(cells);
}

/** A box this much smaller than the median text box, holding a mark of at most BADGE_CHARS characters, is a badge. */
const BADGE_AREA_SHARE = 0.25;
const BADGE_CHARS = 3;

function areaOf(rect: Rect): number {
  return (rect.x1 - rect.x0) * (rect.y1 - rect.y0);
}

/**
 * Badges set on a table's lines between its cells (a note number in a small box of its own, half over the gutter)
 * are not cells: each would cut a row of its own through the grid. Their text joins the cell they mark, the box of
 * their column right above them (else the one right below).
 */
function withoutBadges(boxes: Box[]): Box[] {
  if (boxes.length < MIN_ROWS * MIN_COLS) return boxes;
  const areas = boxes.map((box) => areaOf(box.rect)).sort((a, b) => a - b);
  const median = areas[Math.floor(areas.length / 2)]!;
  const badges = new Set<Box>();
  for (const box of boxes) {
    const text = box.items.map((item) => item.str).join('').replace(/\s/g, '');
    if (text.length > BADGE_CHARS || areaOf(box.rect) >= BADGE_AREA_SHARE * median) continue;
    // The cell above first: a mark follows the text it marks.
    let owner: { box: Box; above: boolean; gap: number } | undefined;
    for (const other of boxes) {
      if (other === box || badges.has(other) || areaOf(other.rect) < BADGE_AREA_SHARE * median) continue;
      if (overlapShare(box.rect.x0, box.rect.x1, other.rect.x0, other.rect.x1) === 0) continue;
      const above = other.rect.y0 < box.rect.y0;
      const gap = Math.max(other.rect.y0 - box.rect.y1, box.rect.y0 - other.rect.y1, 0);
      if (gap > MAX_GUTTER) continue;
      if (!owner || (above && !owner.above) || (above === owner.above && gap < owner.gap)) owner = { box: other, above, gap };
    }
    if (!owner) continue;
    owner.box.items.push(...box.items);
    badges.add(box);
  }
  return badges.size > 0 ? boxes.filter((box) => !badges.has(box)) : boxes;
}

/** Boxes that are neighbours (a gutter of at most MAX_GUTTER in one lane) form one group; groups by index. */
function neighbourGroups(boxes: readonly Box[]): Box[][] {
  const parent = boxes.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!.rect;
      const b = boxes[j]!.rect;
      const gapY = Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1);
      const gapX = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
      const stacked = overlapShare(a.x0, a.x1, b.x0, b.x1) >= SAME_LANE && gapY >= 0 && gapY <= MAX_GUTTER;
      const besides = overlapShare(a.y0, a.y1, b.y0, b.y1) > 0 && gapX >= 0 && gapX <= MAX_GUTTER;
      if (stacked || besides) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, Box[]>();
  boxes.forEach((box, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), box]);
  });
  return [...groups.values()];
}

/**
 * Breaks along one axis: the gutters between boxes that follow one another in a lane (a column for row breaks),
 * gutters of different lanes that overlap merged into one break, at the middle of what they share. Null when two
 * boxes of a lane overlap (not a tiling).
 */
function breaksOf(boxes: readonly Box[], axis: 'x' | 'y'): number[] | null {
  const lo = (rect: Rect) => (axis === 'y' ? rect.y0 : rect.x0);
  const hi = (rect: Rect) => (axis === 'y' ? rect.y1 : rect.x1);
  const acrossLo = (rect: Rect) => (axis === 'y' ? rect.x0 : rect.y0);
  const acrossHi = (rect: Rect) => (axis === 'y' ? rect.x1 : rect.y1);
  const gaps: { from: number; to: number }[] = [];
  for (const a of boxes) {
    // The next box after `a` in its lane.
    let next: Box | undefined;
    for (const b of boxes) {
      if (b === a) continue;
      const sameLane = axis === 'y' ? overlapShare(acrossLo(a.rect), acrossHi(a.rect), acrossLo(b.rect), acrossHi(b.rect)) >= SAME_LANE : overlapShare(acrossLo(a.rect), acrossHi(a.rect), acrossLo(b.rect), acrossHi(b.rect)) > 0;
      if (!sameLane) continue;
      if (lo(b.rect) < hi(a.rect) && lo(b.rect) >= lo(a.rect) && axis === 'y') return null;
      if (lo(b.rect) >= hi(a.rect) && (!next || lo(b.rect) < lo(next.rect))) next = b;
    }
    if (next) gaps.push({ from: hi(a.rect), to: lo(next.rect) });
  }
  gaps.sort((a, b) => a.from - b.from);
  const breaks: number[] = [];
  let shared: { from: number; to: number } | undefined;
  for (const gap of gaps) {
    if (shared && gap.from <= shared.to) {
      shared = { from: Math.max(shared.from, gap.from), to: Math.min(shared.to, gap.to) };
    } else {
      if (shared) breaks.push((shared.from + shared.to) / 2);
      shared = { ...gap };
    }
  }
  if (shared) breaks.push((shared.from + shared.to) / 2);
  return breaks;
}

/** Breaks strictly inside [from, to]. */
function breaksWithin(breaks: readonly number[], from: number, to: number): number {
  return breaks.filter((at) => at > from && at < to).length;
}

/** One group of boxes as a table; null when they do not tile a grid that reads as a table. */
function boxTable(boxes: readonly Box[], loose: readonly PdfTextItem[]): RuledTable | null {
  const rowBreaks = breaksOf(boxes, 'y');
  const colBreaks = breaksOf(boxes, 'x');
  if (!rowBreaks || !colBreaks) return null;
  const rowCount = rowBreaks.length + 1;
  const colCount = colBreaks.length + 1;
  if (rowCount < MIN_ROWS || colCount < MIN_COLS) return null;
  const taken = new Uint8Array(rowCount * colCount);
  const cells: TableCell[] = [];
  for (const box of boxes) {
    const { rect } = box;
    const row = breaksWithin(rowBreaks, -Infinity, rect.y0);
    const col = breaksWithin(colBreaks, -Infinity, rect.x0);
    const rowSpan = breaksWithin(rowBreaks, rect.y0, rect.y1) + 1;
    const colSpan = breaksWithin(colBreaks, rect.x0, rect.x1) + 1;
    for (let r = row; r < row + rowSpan; r++) {
      for (let c = col; c < col + colSpan; c++) {
        if (taken[r * colCount + c]) return null;
        taken[r * colCount + c] = 1;
      }
    }
    cells.push({ row, col, rowSpan, colSpan, text: joinLines(buildLines(box.items).map((line) => line.text)) });
  }
  // Text inside the table but in no box (lines run out of a box sized for fewer, a cell left unboxed) goes to
  // the grid position it sits at: the box's cell there, or a cell of its own.
  const bounds = {
    x0: Math.min(...boxes.map((box) => box.rect.x0)),
    y0: Math.min(...boxes.map((box) => box.rect.y0)),
    x1: Math.max(...boxes.map((box) => box.rect.x1)),
    y1: Math.max(...boxes.map((box) => box.rect.y1)),
  };
  const cellAt = new Map<number, PdfTextItem[]>();
  const strays: PdfTextItem[] = [];
  for (const item of loose) {
    const { x, y } = anchor(item);
    if (!contains(bounds, x, y)) continue;
    const at = breaksWithin(rowBreaks, -Infinity, y) * colCount + breaksWithin(colBreaks, -Infinity, x);
    cellAt.set(at, [...(cellAt.get(at) ?? []), item]);
    strays.push(item);
  }
  const boxItems = new Map<Box, PdfTextItem[]>();
  for (const [at, list] of cellAt) {
    const owner = boxes.find((box) => {
      const row = breaksWithin(rowBreaks, -Infinity, box.rect.y0);
      const col = breaksWithin(colBreaks, -Infinity, box.rect.x0);
      const r = Math.floor(at / colCount);
      const c = at % colCount;
      return r >= row && r <= row + breaksWithin(rowBreaks, box.rect.y0, box.rect.y1) && c >= col && c <= col + breaksWithin(colBreaks, box.rect.x0, box.rect.x1);
    });
    if (owner) boxItems.set(owner, [...(boxItems.get(owner) ?? []), ...list]);
  }
  for (const cell of cells) {
    const box = boxes[cells.indexOf(cell)]!;
    const extra = boxItems.get(box);
    if (extra) cell.text = joinLines(buildLines([...box.items, ...extra]).map((line) => line.text));
  }
  for (let i = 0; i < rowCount * colCount; i++) {
    if (taken[i]) continue;
    const list = cellAt.get(i);
    cells.push({ row: Math.floor(i / colCount), col: i % colCount, rowSpan: 1, colSpan: 1, text: list ? joinLines(buildLines(list).map((line) => line.text)) : '' });
  }
  if (taken.reduce((sum, value) => sum + value, 0) < MIN_FILLED_SHARE * rowCount * colCount) return null;
  // Rows at the top that are one box across the table are its title and a heading: they stay in the text
  // above the table.
  let top = 0;
  while (top < rowCount && cells.some((cell) => cell.row === top && cell.colSpan === colCount && cell.rowSpan === 1)) top++;
  const titles = new Set(cells.filter((cell) => cell.row < top));
  const body = cells.filter((cell) => !titles.has(cell)).map((cell) => ({ ...cell, row: cell.row - top }));
  const grid: TableGrid = dropEmptyLines({ rowCount: rowCount - top, colCount, cells: body });
  const rows = gridRows(grid);
  if (grid.rowCount < MIN_ROWS - 1 || grid.colCount < MIN_COLS) return null;
  const filled = grid.cells.filter((cell) => cell.text !== '');
  if (filled.reduce((sum, cell) => sum + countWords(cell.text), 0) > MAX_WORDS_PER_CELL * filled.length) return null;
  if (!readsAsTable(rows)) return null;
  const inTable = top > 0 ? boxes.filter((box) => box.rect.y0 > rowBreaks[top - 1]!) : boxes;
  const items = [...inTable.flatMap((box) => box.items), ...strays.filter((item) => top === 0 || anchor(item).y > rowBreaks[top - 1]!)];
  const rect = {
    x0: Math.min(...inTable.map((box) => box.rect.x0)),
    y0: Math.min(...inTable.map((box) => box.rect.y0)),
    x1: Math.max(...inTable.map((box) => box.rect.x1)),
    y1: Math.max(...inTable.map((box) => box.rect.y1)),
  };
  return { rect, rows, grid, markdown: renderTableGrid(grid), items };
}

/** Finds the tables a page draws as boxes (filled rectangles, viewport space), top to bottom. */
export function findBoxTables(items: readonly PdfTextItem[], rects: readonly Rect[]): RuledTable[] {
  if (rects.length < MIN_ROWS * MIN_COLS || rects.length > MAX_BOXES) return [];
  const boxes = textBoxes(items, rects);
  const inBoxes = new Set(boxes.flatMap((box) => box.items));
  const loose = items.filter((item) => !inBoxes.has(item));
  if (boxes.length < MIN_ROWS * MIN_COLS - 1) return [];
  const tables: RuledTable[] = [];
  for (const group of neighbourGroups(boxes)) {
    if (group.length < MIN_ROWS * MIN_COLS - 1) continue;
    const table = boxTable(group, loose);
    if (table) tables.push(table);
  }
  return tables.sort((a, b) => a.rect.y0 - b.rect.y0);
}
