/**
 * A header row whose labels are set a word-space apart, so that the line reads as one run of words ("Saccharometer
 * DI Water Glucose Solution Yeast Suspension"): the rows under it start each of their cells exactly where one of
 * its labels starts. That alignment makes the line the table's header, split at the rows' cell starts.
 *
 * Aligned-text detection (tables.ts) sees no cells in such a line, so it leaves the line out of the table below it,
 * and it finds no table at all under it when only one or two rows follow (a table cut by the page's end). So too a
 * line naming every column but the first (the row labels'), as a statement's years stand over its figures.
 */
import { boundingRect } from './measure.js';
import { gridOfRows, renderTableGrid } from './table-grid.js';
import type { FoundTable } from './tables.js';
import type { TextLine } from './types.js';
import { countWords } from './white-space.js';

/** Fewest columns: two aligned starts happen by chance in prose. */
const MIN_COLUMNS = 3;
/** How far (points) a cell's start may stand from its label's. */
const ALIGN = 1;
/** Rows a header takes under it on its own; more make a table tables.ts finds. */
const MAX_SHORT_BODY = 2;

/** Where each cell of `line` starts. */
function cellStarts(line: TextLine): number[] {
  return line.cells.map((cell) => cell.x0).sort((a, b) => a - b);
}

/** Each of `starts` is where one of the header's words starts, the first where the header starts. */
function alignedWith(header: TextLine, starts: readonly number[]): boolean {
  if (starts.length < MIN_COLUMNS || Math.abs(starts[0]! - header.x0) > ALIGN) return false;
  const words = header.cells[0]!.items.map((item) => item.x0);
  return starts.every((start) => words.some((x) => Math.abs(x - start) <= ALIGN));
}

function isHeaderLine(line: TextLine): boolean {
  return line.bold && line.cells.length === 1 && line.cells[0]!.items.length >= MIN_COLUMNS;
}

/** The texts of `line`'s words by column: column k runs from `starts[k]` to the next start. */
function split(line: TextLine, starts: readonly number[]): string[] {
  const columns = starts.map(() => [] as string[]);
  for (const cell of line.cells) {
    for (const item of cell.items) {
      let k = 0;
      while (k + 1 < starts.length && item.x0 >= starts[k + 1]! - ALIGN) k++;
      if (item.str.trim()) columns[k]!.push(item.str.trim());
    }
  }
  return columns.map((words) => words.join(' '));
}

/** The table of `rows` over `lines[start, end)`. */
function tableOfRows(lines: readonly TextLine[], start: number, end: number, rows: string[][]): FoundTable {
  const grid = gridOfRows(rows);
  return { start, end, rows, grid, markdown: renderTableGrid(grid), rect: boundingRect(lines.slice(start, end)) };
}

/** The lines `[start, end)`, each split at `starts`, as a table. */
function tableOf(lines: readonly TextLine[], start: number, end: number, starts: readonly number[]): FoundTable {
  return tableOfRows(lines, start, end, lines.slice(start, end).map((line) => split(line, starts)));
}

/** `table` with the line above it as its header, when that line is aligned with its first row and splits into as many cells. */
function withHeaderAbove(lines: readonly TextLine[], table: FoundTable, from: number): FoundTable | undefined {
  const above = table.start - 1;
  const first = lines[table.start]!;
  if (above < from || !isHeaderLine(lines[above]!) || first.bold) return undefined;
  const starts = cellStarts(first);
  if (!alignedWith(lines[above]!, starts)) return undefined;
  const header = split(lines[above]!, starts);
  if (header.length !== table.rows[0]?.length) return undefined;
  return { ...table, ...tableOfRows(lines, above, table.end, [header, ...table.rows]) };
}

/** A stub header's labels are this close (ems) over the table's first row, and at most this many words each. */
const NAMES_GAP_EM = 2;
const NAME_WORDS = 4;

/**
 * `table` with the line above it as its header where that line names every column but the first, each label over
 * its column, and nothing stands over the first (the row labels'): the years over a statement's figures. Aligned-text
 * detection leaves such a line out of the table, a row of fewer cells than its own.
 */
function withColumnNamesAbove(lines: readonly TextLine[], table: FoundTable, from: number): FoundTable | undefined {
  const above = table.start - 1;
  if (above < from) return undefined;
  const names = lines[above]!;
  const first = lines[table.start]!;
  const count = table.rows[0]?.length ?? 0;
  if (count < 3 || first.cells.length !== count || names.cells.length !== count - 1) return undefined;
  if (first.top - names.bottom > NAMES_GAP_EM * names.size || names.cells[0]!.x0 <= first.cells[0]!.x1) return undefined;
  const em = names.size;
  const over = names.cells.every((label, k) => {
    const cell = first.cells[k + 1]!;
    return countWords(label.text) <= NAME_WORDS && label.x1 >= cell.x0 - em && label.x0 <= cell.x1 + em;
  });
  if (!over) return undefined;
  return { ...table, ...tableOfRows(lines, above, table.end, [['', ...names.cells.map((label) => label.text)], ...table.rows]) };
}

/**
 * `tables` (tables.ts's, in order) with the header line above each taken in where it is aligned so, and the short
 * tables under such headers that tables.ts left as lines; in order, none overlapping.
 */
export function withAlignedHeaders(lines: readonly TextLine[], tables: readonly FoundTable[]): FoundTable[] {
  const out: FoundTable[] = [];
  let from = 0;
  const shortTables = (until: number) => {
    for (let i = from; i + 1 < until; i++) {
      const header = lines[i]!;
      if (!isHeaderLine(header)) continue;
      const starts = cellStarts(lines[i + 1]!);
      if (lines[i + 1]!.bold || !alignedWith(header, starts)) continue;
      let end = i + 2;
      while (end < until && end - i - 1 < MAX_SHORT_BODY && !lines[end]!.bold && alignedWith(header, cellStarts(lines[end]!))) end++;
      out.push(tableOf(lines, i, end, starts));
      i = end - 1;
    }
  };
  for (const table of tables) {
    const headed = withHeaderAbove(lines, table, from) ?? withColumnNamesAbove(lines, table, from);
    shortTables(headed ? headed.start : table.start);
    out.push(headed ?? table);
    from = table.end;
  }
  shortTables(lines.length);
  return out;
}
