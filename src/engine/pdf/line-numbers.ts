/**
 * Line numbers in a page's margin: pleading paper's 1 to 28 down the left edge, a transcript's or a patent's
 * every fifth line. They are no part of the text, but read where they stand each began its line ("4 JURISDICTION"
 * a heading, "6 This Court has…"), the blank lines they number became paragraphs of a number alone, and a line
 * with a number apart at the top of the page was taken for a running head. They are left out of the page's items.
 *
 * A margin's numbering is a column of whole numbers, one a line, counting up the page by a constant step (1, 5 or
 * 10), many of them, down at least half the page's text, in the left margin: the page's other text all to its
 * right. Where they count by one, some must number a line that holds nothing else (a numbered table's rows all hold
 * text); where they count by five or ten, lines without a number stand between them (a table's column has none).
 * Pure.
 */
import type { PdfTextItem } from './types.js';

const NUMBER = /^\d{1,3}$/;
/** Fewest numbers in a run counting by one, and by five or ten. */
const MIN_BY_ONE = 10;
const MIN_BY_STEP = 5;
const STEPS = [1, 5, 10];
/** The numbers of a column stand within this many ems of one another across. */
const COLUMN_EM = 1.5;
/** The run covers at least this share of the height of the page's text. */
const MIN_HEIGHT_SHARE = 0.5;

interface Run {
  items: PdfTextItem[];
  step: number;
}

/** The longest run of `column` (sorted top to bottom) counting up by one step. */
function longestRun(column: readonly PdfTextItem[]): Run | undefined {
  let best: Run | undefined;
  for (const step of STEPS) {
    let run: PdfTextItem[] = [];
    for (const item of column) {
      const last = run.at(-1);
      if (last && Number(item.str.trim()) === Number(last.str.trim()) + step && item.baseline > last.baseline) run.push(item);
      else run = [item];
      if (!best || run.length > best.items.length) best = { items: [...run], step };
    }
  }
  return best;
}

/**
 * Whether an item is a whole number of up to three digits, spaces aside. Asked of every item of every page: one that
 * opens with a printable ASCII character other than a digit is answered without trimming it.
 */
function isNumber(item: PdfTextItem): boolean {
  const first = item.str.charCodeAt(0);
  if (first > 0x20 && first < 0x7f && !(first >= 0x30 && first <= 0x39)) return false;
  return NUMBER.test(item.str.trim());
}

/** The page's items without the line numbers in its margin; the same array when it has none. */
export function withoutLineNumbers(items: readonly PdfTextItem[]): readonly PdfTextItem[] {
  const numbers = items.filter(isNumber);
  if (numbers.length < MIN_BY_STEP) return items;
  // Columns of numbers: by the x of their right edge (numbers are set flush right), a column within COLUMN_EM.
  const columns: PdfTextItem[][] = [];
  for (const item of [...numbers].sort((a, b) => a.x1 - b.x1)) {
    const column = columns.at(-1);
    if (column && item.x1 - column[0]!.x1 <= COLUMN_EM * item.size) column.push(item);
    else columns.push([item]);
  }
  let top = Infinity;
  let bottom = -Infinity;
  for (const item of items) {
    top = Math.min(top, item.baseline - item.size);
    bottom = Math.max(bottom, item.baseline);
  }
  const dropped = new Set<PdfTextItem>();
  for (const column of columns) {
    const run = longestRun(column.sort((a, b) => a.baseline - b.baseline));
    if (!run || run.items.length < (run.step === 1 ? MIN_BY_ONE : MIN_BY_STEP)) continue;
    const first = run.items[0]!;
    const last = run.items.at(-1)!;
    if (last.baseline - first.baseline < MIN_HEIGHT_SHARE * (bottom - top)) continue;
    let x1 = -Infinity;
    for (const item of run.items) x1 = Math.max(x1, item.x1);
    const inRun = new Set(run.items);
    const others = items.filter((item) => !inRun.has(item) && item.baseline >= first.baseline - first.size && item.baseline <= last.baseline + last.size);
    // The text all stands to the right of the column: the left margin, not a column of a table between others.
    if (!others.every((item) => item.x0 >= x1)) continue;
    const numbered = (baseline: number) => run.items.some((number) => Math.abs(number.baseline - baseline) <= 0.5 * number.size);
    if (run.step === 1) {
      // Counting every line, blank ones too: a numbered table's rows all hold text.
      if (!run.items.some((number) => !others.some((item) => Math.abs(item.baseline - number.baseline) <= 0.5 * number.size))) continue;
    } else {
      // Counting every fifth line: lines without a number stand between (a table's column counting by ten has none).
      const between = new Set(others.filter((item) => !numbered(item.baseline)).map((item) => Math.round(item.baseline)));
      if (between.size < 2 * (run.items.length - 1)) continue;
    }
    for (const item of run.items) dropped.add(item);
  }
  return dropped.size === 0 ? items : items.filter((item) => !dropped.has(item));
}
