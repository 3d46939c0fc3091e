/**
 * Raised marks written as superscripts: a note's mark or a power set raised and smaller against a word
 * (`year³`, `m²`, `Harcourt¹,²`, a table's `Southᵃ`), which joined as drawn read as part of the word. Here the
 * items of a line; liteparse/raised-marks.ts reads those PDFium draws into a word's box. Pure.
 */
import type { PdfTextItem } from './types.js';

/** Unicode's superscript digits, by the digit. */
const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/** Unicode's superscript small letters, by the letter (none for `q`). */
const SUPERSCRIPT_LETTERS: Readonly<Record<string, string>> = Object.fromEntries(
  [...'abcdefghijklmnoprstuvwxyz'].map((letter, i) => [letter, 'ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ'[i]!]),
);

/** `mark` (digits and the commas between them, or small letters) in Unicode's superscript characters. */
export function superscript(mark: string): string {
  return mark.replace(/\d/g, (digit) => SUPERSCRIPT_DIGITS[Number(digit)]!).replace(/[a-z]/g, (letter) => SUPERSCRIPT_LETTERS[letter] ?? letter);
}

/** The gap between two items of a line, whichever stands first. */
function gapBetween(a: PdfTextItem, b: PdfTextItem): number {
  return Math.max(b.x0 - a.x1, a.x0 - b.x1);
}

/** A note's mark or a power: a number, or a few joined by commas (`1,2`); or a table's note letter (`a`). */
const RAISED_MARK = /^(?:\d{1,3}(?:,\d{1,3}){0,4}|[a-pr-z])$/;

/**
 * A line's items (`baseline`, `size`: the line's) with each raised, smaller mark set against the item before it
 * (an author's affiliation, `Harcourt¹,²`; a note's mark; a power; a table's note letter) written in superscript.
 * A mark that opens the line (a note's or an affiliation's own number) is left to the note's reading.
 */
export function withRaisedMarks(items: PdfTextItem[], baseline: number, size: number): PdfTextItem[] {
  for (let i = 1; i < items.length; i++) {
    const item = items[i]!;
    const before = items[i - 1]!;
    if (item.size > 0.85 * size || item.baseline > baseline - 0.15 * size || before.size <= 0.85 * size) continue;
    if (!RAISED_MARK.test(item.str) || gapBetween(before, item) > 0.25 * size) continue;
    items[i] = { ...item, str: superscript(item.str) };
    // The list's first mark drawn into the word before its comma (`heuristics.1` `,` `2`): raised with the rest.
    const word = items[i - 2];
    const first = word && before.str === ',' ? MARK_IN_WORD.exec(word.str) : null;
    if (first && gapBetween(word!, before) <= 0.25 * size) items[i - 2] = { ...word!, str: `${first[1]}${superscript(first[2]!)}` };
  }
  return items;
}

/** A word ending in a mark of one to three digits after a letter or a sign (`heuristics.1`). */
const MARK_IN_WORD = /^(.*[^\d\s])(\d{1,3})$/u;
