/**
 * Whether a line was wrapped: it stopped where it did because the next line's first word would not fit after it.
 * A line of Korean breaks between its words (eojeol) of up to five or six syllables, each a full em, so a wrapped
 * line can stop several ems short of the column's edge (`… 30일 이내에` with `이의신청을` on the next line) where
 * a Latin line stops within an em or two; measured against that word, such a line is as full as one that reaches
 * the edge. Pure.
 */
import { SQUARE_GLYPHS } from './square-glyphs.js';
import type { TextLine } from './types.js';

/**
 * A word space, in ems: what the first word of the next line would need before it. A quarter em is Times' space
 * (Helvetica's is 0.278): at 0.2, a word that missed a ragged column's measure by less than the difference read
 * as one that fit, and a numbered paragraph set flush ended at a line that had merely wrapped.
 */
const WORD_SPACE_EM = 0.25;

/** The line's first word in reading order and its width, from its first item's share of characters. */
function firstWord(line: TextLine): { text: string; width: number } {
  const items = line.cells.flatMap((cell) => cell.items);
  if (items.length === 0) return { text: '', width: 0 };
  const first = items.reduce((best, item) => ((line.rtl ? item.x1 > best.x1 : item.x0 < best.x0) ? item : best));
  const chars = [...first.str.trim()];
  if (chars.length === 0) return { text: '', width: 0 };
  const space = chars.findIndex((ch) => /\s/u.test(ch));
  const word = space < 0 ? chars : chars.slice(0, space);
  return { text: word.join(''), width: ((first.x1 - first.x0) * word.length) / chars.length };
}

/**
 * True when `next`'s first word, after a word space, would run past the region's far edge had it been set at the end
 * of `line`: the writer did not end `line` there, its width did.
 */
export function wrapsBefore(line: TextLine, next: TextLine, region: { x0: number; x1: number }): boolean {
  const end = line.rtl ? region.x1 - line.x0 : line.x1 - region.x0;
  const { width } = firstWord(next);
  return width > 0 && end + WORD_SPACE_EM * next.size + width > region.x1 - region.x0;
}

/**
 * True when `next`'s first word, after a word space and with an em to spare, would have fit on `line` within a
 * measure `measure` wide wherever the line stands in it (a centred line grows on both sides): the width did not end
 * `line`; the writer did.
 */
export function fitsOnLine(line: TextLine, next: TextLine, measure: number): boolean {
  const { width } = firstWord(next);
  return width > 0 && line.x1 - line.x0 + (WORD_SPACE_EM + 1) * next.size + width <= measure;
}

/**
 * wrapsBefore, where `next` opens with a word of Hangul, Han or kana. A Latin line that stops more than an em short
 * of the edge is left as such even where a long word follows (a manual's option name under its description).
 */
export function wrapsBeforeSquareWord(line: TextLine, next: TextLine, region: { x0: number; x1: number }): boolean {
  return SQUARE_GLYPHS.test(firstWord(next).text) && wrapsBefore(line, next, region);
}
