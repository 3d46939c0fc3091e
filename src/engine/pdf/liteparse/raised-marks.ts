/**
 * Note marks and powers set raised and smaller against a word (`year³`, `m²`), written in superscript digits.
 * PDFium puts the raised glyphs into the word they touch, and the word's box grows up to hold them: read as drawn,
 * the mark became part of the word (`year3`, `m2`), which no search for the word finds and a reader takes for a
 * typo. A mark set apart by a space is its own word, lying wholly above the line's words.
 *
 * Told by the word boxes alone, so only where they are the font's full height (a font whose boxes are cut to the
 * glyphs, fontsWithGlyphBoxes, has words of every height): a word whose top stands above the others' by more than
 * `RAISED_TOP` of the em, its foot level with theirs, ending in digits after a letter or a closing sign.
 */
import { median } from '../measure.js';
import { superscript } from '../raised-marks.js';
import { hasDescender } from './glyph-box-baselines.js';

/**
 * How far above the line's usual top a word's box reaches when it holds a raised mark (share of the em): a
 * mark in 0.65 em type raised 0.35 em tops a full-height box (0.9 em of ascent) by some 0.03 em only.
 */
const RAISED_TOP = 0.015;
/** How far a box's foot may sit from the usual foot and still stand on the line (share of the em). */
const LEVEL_FOOT = 0.06;
/** A mark set apart stands this far above the line's usual foot at least (share of the em). */
const RAISED_FOOT = 0.15;
/** How far below the line a descender reaches, at most, in text typefaces (share of the em). */
const DESCENDER_DEPTH = 0.23;
/** At most this close to the word before it (share of the em), a mark set apart is that word's. */
const MARK_GAP = 0.25;
/** The fewest words on which the line's usual top and foot are told. */
const MIN_WORDS = 3;

/**
 * A word ending in a raised number: what comes before it, then the number. Before it a letter or a closing sign,
 * with or without a stop or comma after it (`family¹`, `document,⁵`); never a digit, for the box cannot tell where
 * the raised digits begin (`2.16⁸` and `2.¹⁶⁸` are both `2.168` in one box).
 */
const ENDS_IN_NUMBER = /^(.*[\p{L}\p{M})\]'’"”][.,;:]?)(\d{1,3}(?:,\d{1,3}){0,4})([.,;:]?)$/u;
/** A mark alone: one number, or a few joined by commas. */
const NUMBER_ALONE = /^\d{1,3}(?:,\d{1,3}){0,4}$/;

interface WordBox {
  x: number;
  y: number;
  width: number;
  height: number;
}


/**
 * Rewrites in `texts` (the words' texts, by index, as the item reader keeps them) each raised mark of the first
 * `count` of `words`, and clears `spaced` before a mark set apart that belongs to the word before it. `size`: the
 * item's em. The first word is left alone: a mark that opens a line is a note's own number.
 */
export function writeRaisedMarks(words: readonly WordBox[], texts: string[], spaced: boolean[], count: number, size: number): void {
  if (count < MIN_WORDS || !(size > 0)) return;
  let anyDigit = false;
  for (let i = 1; i < count && !anyDigit; i++) anyDigit = /\d/.test(texts[i]!);
  if (!anyDigit) return;
  const tops: number[] = [];
  const feet: number[] = [];
  for (let i = 0; i < count; i++) {
    tops.push(words[i]!.y);
    feet.push(words[i]!.y + words[i]!.height);
  }
  const top = median(tops);
  const foot = median(feet);
  for (let i = 1; i < count; i++) {
    const word = words[i]!;
    const text = texts[i]!;
    const wordFoot = word.y + word.height;
    if (word.y > top - RAISED_TOP * size) continue;
    if (Math.abs(wordFoot - foot) <= LEVEL_FOOT * size) {
      const parts = ENDS_IN_NUMBER.exec(text);
      if (parts) texts[i] = `${parts[1]}${superscript(parts[2]!)}${parts[3]}`;
    } else if (wordFoot < foot - RAISED_FOOT * size && NUMBER_ALONE.test(text)) {
      const before = words[i - 1]!;
      texts[i] = superscript(text);
      if (word.x - (before.x + before.width) <= MARK_GAP * size) spaced[i] = false;
    }
  }
}

/** A mark's separator from the next mark of a list, or the stop after the word it marks (`Ouch¹.²`, `family¹,²`). */
const SEPARATOR = /^[.,;]$/;
/** A word ending in the digits of a mark drawn into it: a letter or a closing sign, then one to three digits. */
const MARK_DRAWN_IN = /^(.*[\p{L})\]'’"”])(\d{1,3})$/u;

/**
 * Rewrites in `texts` each number set apart whose box's foot stands above the feet of the words on either side of
 * it, however few the words on the line: no digit on the line sits so high. The foot tells it in any font, where
 * the boxes are cut to the glyphs too (a word's foot is then the baseline or below it). The item's baseline does
 * not: an item holding a taller sign (a formula's) has a box, and so a baseline, of its own. Where the boxes are the font's full height (`fullHeight`), a word
 * right before the number's separator (`Ouch1` `.` `2`) whose top stands above the separator's, its foot level,
 * ends in the list's first mark, drawn into it: raised with the rest. The first word alone is left as it is,
 * a note's own number.
 */
export function writeMarksSetApart(
  words: readonly WordBox[],
  texts: string[],
  spaced: boolean[],
  count: number,
  size: number,
  fullHeight: boolean,
): void {
  if (!(size > 0)) return;
  const foot = (word: WordBox) => word.y + word.height;
  // A box cut to the glyphs of a word with a `g` or a `y` reaches that much below the line (`Page 1` in a footer).
  const below = (text = '') => (!fullHeight && hasDescender(text) ? DESCENDER_DEPTH * size : 0);
  for (let i = 1; i < count; i++) {
    const word = words[i]!;
    const before = words[i - 1]!;
    const after = i + 1 < count ? words[i + 1]! : undefined;
    const raised = (other: WordBox | undefined, text = '') => other === undefined || foot(word) < foot(other) - below(text) - RAISED_FOOT * size;
    if (!NUMBER_ALONE.test(texts[i]!) || !raised(before, texts[i - 1]) || !raised(after, texts[i + 1])) continue;
    texts[i] = superscript(texts[i]!);
    if (word.x - (before.x + before.width) <= MARK_GAP * size) spaced[i] = false;
    const first = words[i - 2];
    if (!fullHeight || !first || !SEPARATOR.test(texts[i - 1]!) || spaced[i - 1]) continue;
    const parts = MARK_DRAWN_IN.exec(texts[i - 2]!);
    const level = Math.abs(foot(first) - foot(before)) <= LEVEL_FOOT * size;
    if (parts && level && first.y < before.y - RAISED_TOP * size) texts[i - 2] = `${parts[1]}${superscript(parts[2]!)}`;
  }
}

