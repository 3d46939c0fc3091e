/**
 * Header rows set above a table's body that the reader of the table left out (a borderless body found by its
 * aligned cells, under a header whose labels wrap over several lines, or a group label over several columns).
 * The lines right above the table belong to it when each of their labels sits inside one of the body's columns,
 * or is centred over several columns whose names are on the line below it (a group); a label between two columns
 * goes to the nearer, unless another label of its line took that one (a spreadsheet's column names, set from their
 * cells' left edges over numbers set flush right). A label's lines stacked in one column are one cell; with a
 * group, the columns outside it have one cell down both header rows. The reader gives each word as an item: the
 * words of a label, and of a body cell, a word space apart are one. Pure.
 */
import { isCaptionText } from './captions.js';
import type { Ruling } from './rulings.js';
import type { TableCell, TableGrid } from './table-grid.js';
import { isCentredOn, type Extent } from './table-header-spans.js';
import { median } from './measure.js';
import { DESCENT, type PdfTextItem, type Rect } from './types.js';

/** A table as the layout writes it: where it is, its rows of cell texts, and its cells. */
export interface PlacedTable {
  rect: Rect;
  rows: string[][];
  grid?: TableGrid;
}

/** Most lines a header takes above the body. */
const MAX_LINES = 4;
/** Lines of one header are at most this many ems apart (baseline to baseline), the header this far above the body. */
const MAX_PITCH = 1.8;
const MAX_GAP = 1;
/** With a rule across the table between them (a booktabs midrule), the header may stand this far above the body. */
const RULED_GAP = 2.5;
/**
 * Or at the body's own row pitch, give or take this share of it: a table whose cells are padded (a word processor's
 * table without borders) sets its header row as far above the first row as each row stands above the next.
 */
const ROW_PITCH_SLACK = 1.25;
/** A rule across the table spans this share of its width at least. */
const ACROSS_SHARE = 0.8;

/** Whether a horizontal rule runs across `rect` between `top` and `bottom` (page units, top-down). */
function ruledAcross(rulings: readonly Ruling[], top: number, bottom: number, rect: Rect): boolean {
  const width = rect.x1 - rect.x0;
  return joinedRules(rulings.filter((rule) => rule.y0 === rule.y1 && rule.y0 > top && rule.y0 < bottom)).some(
    (rule) => Math.min(rule.x1, rect.x1) - Math.max(rule.x0, rect.x0) >= ACROSS_SHARE * width,
  );
}

/** The items whose middle lies in the rectangle (the table's text). */
export function itemsInside(rect: Rect, items: readonly PdfTextItem[]): PdfTextItem[] {
  return items.filter((item) => {
    const x = (item.x0 + item.x1) / 2;
    const y = item.baseline - 0.3 * item.size;
    return x >= rect.x0 - 1 && x <= rect.x1 + 1 && y >= rect.y0 - 1 && y <= rect.y1 + 1;
  });
}

/** Words of one cell stand at most this many ems apart (a word space); cells of two columns stand further. */
const WORD_GAP_EM = 0.5;

/**
 * The body's columns: its items' extents merged where they overlap or stand a word space apart (the words of a
 * cell: `Hydraulic pump assembly` over `Seal kit` leaves gaps between words no other row's text fills); undefined
 * unless they are `count` apart.
 */
function bodyColumns(items: readonly PdfTextItem[], count: number): Extent[] | undefined {
  const sorted = [...items].sort((a, b) => a.x0 - b.x0);
  const columns: Extent[] = [];
  for (const item of sorted) {
    const last = columns.at(-1);
    if (last && item.x0 < last.x1 + WORD_GAP_EM * item.size) last.x1 = Math.max(last.x1, item.x1);
    else columns.push({ x0: item.x0, x1: item.x1 });
  }
  return columns.length === count ? columns : undefined;
}

/** Lines of items, bottom first, by baseline (a label set a little lower or higher is on its line). */
function linesUpward(items: readonly PdfTextItem[]): PdfTextItem[][] {
  const sorted = [...items].sort((a, b) => b.baseline - a.baseline);
  const lines: PdfTextItem[][] = [];
  for (const item of sorted) {
    const line = lines.at(-1);
    if (line && line[0]!.baseline - item.baseline <= 0.5 * item.size) line.push(item);
    else lines.push([item]);
  }
  return lines;
}

/**
 * The columns an item's text reaches into. In the gap between two columns, the nearer one, and the one right of the
 * gap as `right`.
 */
function columnsOf(item: PdfTextItem, columns: readonly Extent[]): { a: number; b: number; right?: number } | undefined {
  const hit = columns.flatMap((column, index) => (item.x0 < column.x1 && item.x1 > column.x0 ? [index] : []));
  if (hit.length === 0) {
    const x = (item.x0 + item.x1) / 2;
    let best = -1;
    let bestDistance = Infinity;
    columns.forEach((column, index) => {
      const d = x < column.x0 ? column.x0 - x : x - column.x1;
      if (d < bestDistance) [best, bestDistance] = [index, d];
    });
    if (best < 0) return undefined;
    const right = columns.findIndex((column) => column.x0 >= item.x1);
    return { a: best, b: best, ...(right >= 0 ? { right } : {}) };
  }
  return { a: hit[0]!, b: hit.at(-1)! };
}

interface Label {
  item: PdfTextItem;
  a: number;
  b: number;
  /** For a label in the gap between two columns: the column right of the gap. */
  right?: number;
}

/**
 * A line's labels in column order where the nearer column put two in one: a label in the gap after the column of
 * the label before it heads the column right of the gap. A spreadsheet prints a column's name from its cell's left
 * edge and its numbers flush right, so the name stands nearer the numbers of the column before (`Price` just past
 * the end of `Qty`'s 3, 5 and 12, far from its own 1.2 and 0.8). Undefined when the labels still meet.
 */
function inColumnOrder(placed: readonly Label[]): Label[] | undefined {
  const out: Label[] = [];
  let last = -1;
  for (const label of [...placed].sort((p, q) => p.item.x0 - q.item.x0)) {
    const moved = label.a <= last && label.a === label.b && label.right !== undefined ? { ...label, a: label.right, b: label.right } : label;
    if (moved.a <= last) return undefined;
    out.push(moved);
    last = moved.b;
  }
  return out;
}

/**
 * A line's words joined into the labels they make: words a word space apart that together reach into one column
 * at most are one label (`Unit Price`, set over the gap before its column of prices), as the reader gives each
 * word as an item of its own. Words a word space apart across two columns are prose running over the table: the
 * line is left as its words, which are no header's.
 */
function labelsOfWords(line: readonly PdfTextItem[], columns: readonly Extent[]): PdfTextItem[] {
  const out: PdfTextItem[] = [];
  for (const item of [...line].sort((a, b) => a.x0 - b.x0)) {
    const last = out.at(-1);
    if (!last || item.x0 - last.x1 >= WORD_GAP_EM * item.size) {
      out.push(item);
      continue;
    }
    const joined = { ...last, str: `${last.str.trim()} ${item.str.trim()}`, x1: item.x1 };
    if (columns.filter((column) => joined.x0 < column.x1 && joined.x1 > column.x0).length > 1) return [...line];
    out[out.length - 1] = joined;
  }
  return out;
}

/** Whether the item is centred over columns a..b. */
function centredOver(item: PdfTextItem, columns: readonly Extent[], a: number, b: number): boolean {
  return isCentredOn(item, { x0: columns[a]!.x0, x1: columns[b]!.x1 });
}

/** Horizontal rules on one height that touch end to end (a rule drawn cell by cell) as one. */
function joinedRules(rules: readonly Ruling[]): Extent[] {
  const sorted = [...rules].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const out: (Extent & { y: number })[] = [];
  for (const rule of sorted) {
    const last = out.at(-1);
    if (last && Math.abs(last.y - rule.y0) <= 0.5 && rule.x0 <= last.x1 + 1) last.x1 = Math.max(last.x1, rule.x1);
    else out.push({ x0: rule.x0, x1: rule.x1, y: rule.y0 });
  }
  return out;
}

/**
 * The columns a group label heads: those a rule right below it spans, else (a label across columns) the widest run
 * it is centred over; always two or more columns (not all) that the lines below name. Undefined when it is no group.
 */
function groupColumns(
  item: PdfTextItem,
  at: { a: number; b: number },
  columns: readonly Extent[],
  named: ReadonlySet<number>,
  rules: readonly Extent[],
): { a: number; b: number } | undefined {
  const middle = (item.x0 + item.x1) / 2;
  const rule = rules.find((r) => r.x0 < middle && middle < r.x1);
  let range: { a: number; b: number } | undefined;
  if (rule) {
    const under = columns.flatMap((column, index) => ((column.x0 + column.x1) / 2 > rule.x0 && (column.x0 + column.x1) / 2 < rule.x1 ? [index] : []));
    if (under.length > 0) range = { a: under[0]!, b: under.at(-1)! };
  } else if (at.b > at.a) {
    // No rule: a label across columns groups the widest run of named columns it is centred over.
    for (let a = at.a; a >= 0 && named.has(a); a--) {
      for (let b = at.b; b < columns.length && named.has(b); b++) {
        if (centredOver(item, columns, a, b) && (!range || b - a > range.b - range.a)) range = { a, b };
      }
    }
  }
  if (!range || range.a > at.a || range.b < at.b || range.b === range.a || range.b - range.a + 1 >= columns.length) return undefined;
  for (let col = range.a; col <= range.b; col++) if (!named.has(col)) return undefined;
  return range;
}

/** Where the body's rows stand: the first row's baseline, and the pitch from row to row (undefined for one row). */
interface BodyRows {
  firstBaseline: number;
  pitch: number | undefined;
}

function bodyRows(body: readonly PdfTextItem[]): BodyRows {
  const baselines = linesUpward(body)
    .map((line) => Math.min(...line.map((item) => item.baseline)))
    .reverse();
  const pitches = baselines.slice(1).map((baseline, i) => baseline - baselines[i]!);
  return { firstBaseline: baselines[0]!, pitch: pitches.length > 0 ? median(pitches) : undefined };
}

/**
 * The columns as the header's labels placed so far widen them: a label wider than its column's cells (`Permanent`
 * over numbers set flush left) is part of the column a group label above is centred over.
 */
function widenedBy(columns: readonly Extent[], labels: readonly Label[]): Extent[] {
  const wide = columns.map((column) => ({ ...column }));
  for (const label of labels) {
    if (label.a !== label.b) continue;
    const column = wide[label.a]!;
    column.x0 = Math.min(column.x0, label.item.x0);
    column.x1 = Math.max(column.x1, label.item.x1);
  }
  return wide;
}

/**
 * Whether a line's item stands outside the table: its centre beyond the table's edges, unless it starts inside a
 * column (a label wider than its column's cells, `Contract` over a column of two-digit numbers at the right edge).
 */
function isOutside(item: PdfTextItem, rect: Rect, columns: readonly Extent[]): boolean {
  const centre = (item.x0 + item.x1) / 2;
  if (centre >= rect.x0 && centre <= rect.x1) return false;
  return !columns.some((column) => item.x0 >= column.x0 - 1 && item.x0 <= column.x1);
}

/**
 * A group label over the columns it reaches into as the labels below widen them, centred over them, where the
 * body's cells alone are narrower than their names (`Q1 2026` over `Permanent` and `Contract`, over numbers): two
 * or more columns, not all, every one named below.
 */
function wideGroup(item: PdfTextItem, wide: readonly Extent[], named: ReadonlySet<number>): { a: number; b: number } | undefined {
  const at = columnsOf(item, wide);
  if (!at || at.b === at.a || at.b - at.a + 1 >= wide.length || !centredOver(item, wide, at.a, at.b)) return undefined;
  for (let col = at.a; col <= at.b; col++) if (!named.has(col)) return undefined;
  return at;
}

/**
 * The header's labels from the lines above the body, bottom line first: the lowest names single columns (two or
 * more of them); a line above may hold a group label centred over columns the lines below name. Stops at the
 * first line that is not a header's: a caption, text in another size, text outside the table, a label across
 * columns that is no group.
 */
function headerLabels(
  above: readonly PdfTextItem[][],
  columns: readonly Extent[],
  rect: Rect,
  bodySize: number,
  bodyTop: number,
  rulings: readonly Ruling[],
  rows: BodyRows,
): Label[] {
  const labels: Label[] = [];
  let lowest = bodyTop;
  let lines = 0;
  let groups = 0;
  for (const line of above) {
    const size = Math.max(...line.map((item) => item.size));
    const bottom = Math.max(...line.map((item) => item.baseline + DESCENT * item.size));
    const baseline = Math.max(...line.map((item) => item.baseline));
    const gapOk =
      lines === 0
        ? lowest - bottom <= MAX_GAP * size ||
          (lowest - bottom <= RULED_GAP * size && ruledAcross(rulings, bottom, lowest, rect)) ||
          (rows.pitch !== undefined && rows.firstBaseline - baseline <= ROW_PITCH_SLACK * rows.pitch)
        : lowest - baseline <= MAX_PITCH * size;
    if (!gapOk || lines >= MAX_LINES) break;
    // A caption over the table is no header: its words are items of their own, so the line's text is what tells.
    const text = [...line].sort((a, b) => a.x0 - b.x0).map((item) => item.str).join(' ');
    if (line.some((item) => Math.abs(item.size - bodySize) > 0.2 * bodySize) || isCaptionText(text)) break;
    if (line.some((item) => isOutside(item, rect, columns))) break;
    // Rules between this line and the one below: a group label's rule marks the columns it spans.
    const rules = joinedRules(rulings.filter((rule) => rule.y0 === rule.y1 && rule.y0 > baseline && rule.y0 < lowest));
    const named = new Set(labels.filter((label) => label.a === label.b).map((label) => label.a));
    const wide = lines > 0 && groups === 0 ? widenedBy(columns, labels) : columns;
    let placed: Label[] = [];
    for (const item of [...line].sort((a, b) => a.x0 - b.x0)) {
      const at = columnsOf(item, columns);
      if (!at) break;
      const group = lines > 0 && groups === 0 ? (groupColumns(item, at, columns, named, rules) ?? wideGroup(item, wide, named)) : undefined;
      if (!group && at.a === at.b) {
        placed.push({ item, ...at });
        continue;
      }
      if (!group) break;
      const { a, b } = group;
      placed.push({ item, a, b });
    }
    if (placed.length < line.length) break;
    // Labels of one line never share a column (a rule under several of them is no group's).
    const overlapping = placed.some((label, i) => placed.some((other, j) => j !== i && other.a <= label.b && label.a <= other.b));
    if (overlapping) {
      // Only the line right above the body: higher lines stack their labels on the columns it named.
      const ordered = lines === 0 ? inColumnOrder(placed) : undefined;
      if (!ordered) break;
      placed = ordered;
    }
    if (lines === 0 && new Set(placed.map((label) => label.a)).size < 2) break;
    groups += placed.filter((label) => label.b > label.a).length;
    labels.push(...placed);
    lowest = Math.min(...line.map((item) => item.baseline));
    lines++;
  }
  return labels;
}

function joinTexts(items: readonly PdfTextItem[]): string {
  return [...items]
    .sort((a, b) => a.baseline - b.baseline || a.x0 - b.x0)
    .map((item) => item.str.trim())
    .filter(Boolean)
    .join(' ');
}

/**
 * The table with the header rows set above its body, or undefined when the lines above are no header of it.
 * `items` are the page's items outside other tables.
 */
export function withHeaderAbove(
  table: PlacedTable,
  items: readonly PdfTextItem[],
  rulings: readonly Ruling[] = [],
): (PlacedTable & { rect: Rect; grid: TableGrid }) | undefined {
  const count = table.rows.reduce((max, row) => Math.max(max, row.length), 0);
  const body = itemsInside(table.rect, items);
  if (count < 2 || body.length === 0) return undefined;
  const columns = bodyColumns(body, count);
  if (!columns) return undefined;
  const bodySize = [...body].map((item) => item.size).sort((a, b) => a - b)[Math.floor(body.length / 2)]!;
  const bodyTop = Math.min(...body.map((item) => item.baseline - item.size));
  const inBody = new Set(body);
  const candidates = items.filter((item) => !inBody.has(item) && item.str.trim() && item.baseline < bodyTop + 0.5 * item.size && item.x1 > table.rect.x0 && item.x0 < table.rect.x1);
  const labels = headerLabels(
    linesUpward(candidates).map((line) => labelsOfWords(line, columns)),
    columns,
    table.rect,
    bodySize,
    table.rect.y0,
    rulings,
    bodyRows(body),
  );
  if (labels.length < 2) return undefined;
  const groups = labels.filter((label) => label.b > label.a);
  const headerRows = groups.length > 0 ? 2 : 1;
  const cells: TableCell[] = [];
  const headerTexts = Array.from({ length: headerRows }, () => Array<string>(count).fill(''));
  for (const group of groups) {
    cells.push({ row: 0, col: group.a, rowSpan: 1, colSpan: group.b - group.a + 1, text: group.item.str.trim() });
    headerTexts[0]![group.a] = group.item.str.trim();
  }
  for (let col = 0; col < count; col++) {
    const group = groups.find((g) => g.a <= col && col <= g.b);
    const own = labels.filter((label) => label.a === col && label.b === col);
    // A column under a group: its name goes below the group label (text above the group is no header of this kind).
    if (group && own.some((label) => label.item.baseline <= group.item.baseline)) return undefined;
    const text = joinTexts(own.map((label) => label.item));
    if (group) cells.push({ row: 1, col, rowSpan: 1, colSpan: 1, text });
    else cells.push({ row: 0, col, rowSpan: headerRows, colSpan: 1, text });
    headerTexts[group ? 1 : 0]![col] = text;
  }
  const bodyCells = table.grid?.cells ?? table.rows.flatMap((row, r) => Array.from({ length: count }, (_, col) => ({ row: r, col, rowSpan: 1, colSpan: 1, text: row[col] ?? '' })));
  for (const cell of bodyCells) cells.push({ ...cell, row: cell.row + headerRows });
  const rowCount = (table.grid?.rowCount ?? table.rows.length) + headerRows;
  const header = labels.map((label) => label.item);
  const rect: Rect = {
    x0: Math.min(table.rect.x0, ...header.map((item) => item.x0)),
    y0: Math.min(table.rect.y0, ...header.map((item) => item.baseline - item.size)),
    x1: Math.max(table.rect.x1, ...header.map((item) => item.x1)),
    y1: table.rect.y1,
  };
  return { rect, rows: [...headerTexts, ...table.rows], grid: { rowCount, colCount: count, cells } };
}
