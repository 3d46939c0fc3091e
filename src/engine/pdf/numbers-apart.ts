/**
 * Numbered lists whose numbers stand apart from their items with no stop after them, as report generators set
 * them (ReportLab's `ListFlowable`: `1`, `2`, `3` in a cell of their own, an em before the item's text, in larger
 * type than the item's). Read by the text alone, `1 Applications are read …` opens as a note does, and
 * each item would be a paragraph of its own. A line is such an item when a line near it is numbered alike: at the
 * same start, one up or one down (an item wraps over a few lines). Numbers in type smaller than the body's are
 * notes', and lines in heading type with a number apart are headings (`1 Introduction`, LaTeX's). Pure.
 */
import type { ListMarker } from './paragraphs.js';
import { HEADING_SIZE_STEP } from './text-items.js';
import type { TextLine } from './types.js';

/** A list's number with no stop after it (`1`, `12`). */
export const LIST_NUMBER = /^\d{1,3}$/u;
/** The number ends this many ems (of the line's size) before the item's text, at least: apart, not a word. */
const APART_EM = 0.5;
/** The next item's number is at most this many lines on. */
const ITEM_REACH = 8;
/** Numbers level with one another start within this many ems. */
const LEVEL_EM = 0.3;
/** The number's type is this many times its item's size, at least (ReportLab: 12 pt over 10 pt). */
const NUMBER_OVER_WORDS = 1.1;
/** Type under this share of the body's size is a note's. */
const NOTE_SIZE_SHARE = 0.95;

interface NumberApart {
  number: number;
  x0: number;
  size: number;
  rest: string;
}

function numberApart(line: TextLine, bodySize: number | undefined): NumberApart | undefined {
  const [first, second] = line.cells;
  if (!first || !second || line.rtl || line.bold) return undefined;
  const text = first.text.trim();
  if (!LIST_NUMBER.test(text) || second.x0 - first.x1 < APART_EM * line.size) return undefined;
  // The number in larger type than its item's words: a note's number, set apart before its text in the notes' own
  // type (a word processor's footnotes), is no list's.
  const numberSize = first.items[0]?.size ?? 0;
  const wordSize = second.items[0]?.size ?? Infinity;
  if (numberSize < NUMBER_OVER_WORDS * wordSize) return undefined;
  if (bodySize !== undefined && (line.size < NOTE_SIZE_SHARE * bodySize || line.size >= HEADING_SIZE_STEP * bodySize)) return undefined;
  return { number: Number(text), x0: first.x0, size: line.size, rest: line.cells.slice(1).map((cell) => cell.text).join(' ') };
}

/** Each line's marker when it is an item of such a list, else null; one entry a line. */
export function numbersApart(lines: readonly TextLine[], bodySize: number | undefined): (ListMarker | null)[] {
  const found = lines.map((line) => numberApart(line, bodySize));
  return found.map((apart, at) => {
    if (!apart) return null;
    const follows = (other: NumberApart | undefined, step: number) =>
      other !== undefined && other.number === apart.number + step && Math.abs(other.x0 - apart.x0) <= LEVEL_EM * apart.size && Math.abs(other.size - apart.size) <= 0.12 * apart.size;
    for (let k = 1; k <= ITEM_REACH; k++) {
      if (follows(found[at + k], 1) || follows(found[at - k], -1)) return { ordered: true, number: apart.number, rest: apart.rest };
    }
    return null;
  });
}
