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
  /** The run's lines, each cell holding items of figures apart split between them. */
  lines: TextLine[];
  /** The bands the splits opened, one per split. */
  gaps: FigureGap[];
}

/** A word's first letter: a figure's column may meet a column of names (a ledger's account number, its name). */
const WORD_START = /^\p{L}/u;

function isFigure(item: PdfTextItem): boolean {
  return FIGURE.test(item.str.trim());
}

/** The cell's items as cells of their own at each meeting of two figures; the cell itself where none meet. */
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
