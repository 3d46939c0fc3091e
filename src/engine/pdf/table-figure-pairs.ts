/**
 * Figures of two columns set closer than a word space apart. A spreadsheet prints each column's numbers flush right
 * and its labels from the cell's left edge, so where a narrow column of short figures comes before a column of
 * longer ones (Calc's `Jun` `2761` beside `Total` `13967`), or before a column of names (a ledger's `6000`
 * `Salaries`), the two cells of a row stand 0.2 em apart: no gap a line is split at tells them from the words of one
 * cell. Two signs do: each is an item of its own (a cell the writer drew alone, where a number's digit groups
 * `2 761` are one run), and the header over them holds a label for each side.
 */
import { makeCell } from './lines.js';
import type { Cell, PdfTextItem, TextLine } from './types.js';

/** A figure: a number with its sign, currency, grouping and percent, or in parentheses (a negative amount). */
export const FIGURE = /^[-+−–(]?[$€£¥]?\d[\d.,\u00a0\u202f]*%?\)?$/u;

/** Where a cell's figures meet: the free band between the end of one and the start of the next. */
export interface FigureGap {
  x0: number;
  x1: number;
}

export interface FigurePairLines {
  /** The run's lines, their cells split where a figure meets the next cell's item. */
  lines: TextLine[];
  /** The bands the splits opened, one per split. */
  gaps: FigureGap[];
}

/** A word's first letter: a figure's column may meet a column of names (a ledger's account number, its name). */
const WORD_START = /^\p{L}/u;

function isFigure(item: PdfTextItem): boolean {
  return FIGURE.test(item.str.trim());
}

/** The cell's items as cells of their own where a figure meets a figure or a name; the cell itself where none do. */
function splitCell(cell: Cell, gaps: FigureGap[]): Cell[] {
  const parts: PdfTextItem[][] = [];
  let part: PdfTextItem[] = [];
  for (let i = 0; i < cell.items.length; i++) {
    const item = cell.items[i]!;
    const before = cell.items[i - 1];
    if (before && before.x1 < item.x0 && isFigure(before) && (isFigure(item) || WORD_START.test(item.str))) {
      parts.push(part);
      part = [];
      gaps.push({ x0: before.x1, x1: item.x0 });
    }
    part.push(item);
  }
  if (parts.length === 0) return [cell];
  parts.push(part);
  return parts.map((items) => makeCell(items, false));
}

/**
 * The run's lines with every two figures that meet inside a cell (in x order, left to right) set in cells of their
 * own; undefined where no cell holds such a pair (most tables), or where a line reads right to left.
 */
export function splitFigurePairs(run: readonly TextLine[]): FigurePairLines | undefined {
  if (run.some((line) => line.rtl)) return undefined;
  const gaps: FigureGap[] = [];
  const lines = run.map((line) => {
    const before = gaps.length;
    const cells = line.cells.flatMap((cell) => (cell.items.length >= 2 ? splitCell(cell, gaps) : [cell]));
    return gaps.length === before ? line : { ...line, cells };
  });
  return gaps.length > 0 ? { lines, gaps } : undefined;
}

/** The band between a line's two items when the line is one cell of a figure and a figure or a name after it. */
function pairGap(line: TextLine): FigureGap | undefined {
  if (line.rtl || line.cells.length !== 1) return undefined;
  const items = line.cells[0]!.items;
  if (items.length !== 2) return undefined;
  const [left, right] = items as [PdfTextItem, PdfTextItem];
  if (!(left.x1 < right.x0) || !isFigure(left) || !(isFigure(right) || WORD_START.test(right.str))) return undefined;
  return { x0: left.x1, x1: right.x0 };
}

/** Lines withFigurePairRuns split: a table of them has channels as narrow as FIGURE_BAND_EM. */
const pairSplit = new WeakSet<TextLine>();

/** Whether withFigurePairRuns split `line` at a band of two cells meeting. */
export function isPairSplit(line: TextLine): boolean {
  return pairSplit.has(line);
}

/** The narrowest band between two such cells that parts two columns, in ems of the lines' type (Calc's: 0.2). */
export const FIGURE_BAND_EM = 0.15;

/**
 * `lines` with each run of `minRows` lines or more that are two cells meeting at one band (a sheet's last two
 * columns of figures, printed on a page of their own: `508566 -5.7%`) split there, where the line right above it has
 * a label on each side of the band (`Budget`, `Var %`): the run and its header then read as a table's rows. The lines
 * themselves where there is none (most pages).
 */
export function withFigurePairRuns(lines: readonly TextLine[], minRows: number): readonly TextLine[] {
  let out: TextLine[] | undefined;
  let i = 1;
  while (i < lines.length) {
    const first = pairGap(lines[i]!);
    if (!first) {
      i++;
      continue;
    }
    let band: FigureGap = first;
    let end = i + 1;
    for (; end < lines.length; end++) {
      const gap = pairGap(lines[end]!);
      const x0: number = gap ? Math.max(band.x0, gap.x0) : Infinity;
      const x1: number = gap ? Math.min(band.x1, gap.x1) : -Infinity;
      if (x1 - x0 < FIGURE_BAND_EM * lines[end]!.size) break;
      band = { x0, x1 };
    }
    const header = lines[i - 1]!;
    const sides = header.cells.length >= 2 && header.cells.some((cell) => cell.x1 <= band.x1) && header.cells.some((cell) => cell.x0 >= band.x0);
    if (end - i >= minRows && sides && !header.cells.some((cell) => cell.x0 < band.x0 && cell.x1 > band.x1)) {
      out ??= [...lines];
      for (let at = i; at < end; at++) {
        const line = lines[at]!;
        const split = { ...line, cells: line.cells[0]!.items.map((item) => makeCell([item], false)) };
        pairSplit.add(split);
        out[at] = split;
      }
    }
    i = end;
  }
  return out ?? lines;
}
