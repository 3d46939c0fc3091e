/**
 * Drop caps: a paragraph's first letter set several lines high, the paragraph's first lines set round it (a
 * magazine's, a book chapter's). Read where it stands, the letter's box spans those lines, which ran into one line
 * with it, their words interleaved ("Tafterand thethree…"), and the word it begins lost its first letter. The cap
 * is put back as the first letter of the paragraph's first line ("T" + "he river" → "The river"), and the lines
 * set round it start where it does, as the paragraph's lines under it. A big letter or number before a word of its
 * own (a "Q" before a question, a step's number beside its text) is set the same way, a space after it.
 * Recognised by what the cap is (a letter or a number, at least CAP_SIZE_RATIO times the text beside it) and by the
 * lines round it (two at least, starting together just after it, the first level with its top). Mutates the items
 * (their identity is kept: the page's maps are keyed by them).
 */
import { OPENS_LOWER } from './columns.js';
import type { PdfTextItem } from './types.js';

/** The cap is at least this many times the size of the text round it. */
const CAP_SIZE_RATIO = 2;
/** The lines round it start at most this many ems (of their text) after its right edge. */
const INDENT_EM = 2;
/** Fewest lines set round a cap. */
const MIN_LINES = 2;
/** Lines round a cap start together, within this many points. */
const ALIGN = 1;
/** What a cap may be: a capital letter (after an opening quotation mark or not), or a number of two digits at most. */
const CAP = /^(?:[\p{Pi}\p{Ps}"']?\p{Lu}|\p{N}{1,2})$/u;
/** A letter a word goes on from: the word it begins continues in lower case. */
const LETTER = /^[\p{Pi}\p{Ps}"']?\p{Lu}$/u;
/** One-letter words (English "A", "I"; "O", "À"…): a cap that is one keeps a space before the next word. */
const WORD_OF_ONE = /^[\p{Pi}\p{Ps}"']?[AIOÀ]$/u;

/**
 * Whether the largest candidate may be CAP_SIZE_RATIO times the page's usual size (the median of its items' sizes),
 * told without sorting the sizes. Most pages have candidates (a lone `A`, a `12` in a table) and none of that size.
 * No candidate is when the median is an item the largest is smaller than CAP_SIZE_RATIO times, as all the larger
 * items are: when at most half of the items (the median's index in the sorted sizes) are not. Sizes that are not
 * numbers leave it to the sort.
 */
function mayBeCapSized(candidates: readonly PdfTextItem[], items: readonly PdfTextItem[]): boolean {
  let largest = -Infinity;
  for (const cap of candidates) largest = Math.max(largest, cap.size);
  let notSmaller = 0;
  for (const item of items) {
    if (Number.isNaN(item.size)) return true;
    if (!(largest < CAP_SIZE_RATIO * item.size)) notSmaller++;
  }
  return notSmaller > Math.floor(items.length / 2);
}

export function placeDropCaps(items: readonly PdfTextItem[]): void {
  const candidates = items.filter((item) => CAP.test(item.str.trim()));
  if (candidates.length === 0) return;
  // Against the page's usual size, not its smallest: a page of figures in a table would make each a candidate, and
  // each candidate looks through all the page's items.
  if (!mayBeCapSized(candidates, items)) return;
  const sizes = items.map((item) => item.size).sort((a, b) => a - b);
  const usual = sizes[Math.floor(sizes.length / 2)]!;
  for (const cap of candidates) {
    if (cap.size < CAP_SIZE_RATIO * usual) continue;
    // The first items of the lines round it: smaller text starting just after it, down its height.
    const firsts = new Map<number, PdfTextItem>();
    for (const item of items) {
      if (item === cap || item.size * CAP_SIZE_RATIO > cap.size || !item.str.trim()) continue;
      if (item.x0 < cap.x1 - 0.5 * item.size || item.x0 > cap.x1 + INDENT_EM * item.size) continue;
      if (item.baseline <= cap.baseline - cap.size || item.baseline > cap.baseline + 0.5 * item.size) continue;
      const key = Math.round(item.baseline);
      const known = firsts.get(key);
      if (!known || item.x0 < known.x0) firsts.set(key, item);
    }
    const lines = [...firsts.values()].sort((a, b) => a.baseline - b.baseline);
    const indent = lines[0]?.x0;
    if (lines.length < MIN_LINES || indent === undefined || lines.some((item) => Math.abs(item.x0 - indent) > ALIGN)) continue;
    const first = lines[0]!;
    // Level with the cap's top: the first line's cap height against the letter's.
    if (Math.abs(first.baseline - 0.7 * first.size - (cap.baseline - 0.7 * cap.size)) > first.size) continue;
    const text = cap.str.trim();
    const joins = LETTER.test(text) && !WORD_OF_ONE.test(text) && OPENS_LOWER.test(first.str.trim());
    const capX0 = cap.x0;
    // The cap stands at the head of the first line, in its size, on its baseline: no gap before the word it begins.
    cap.baseline = first.baseline;
    cap.size = first.size;
    cap.x1 = joins ? first.x0 : first.x0 - 0.5 * first.size;
    cap.x0 = Math.min(capX0, cap.x1 - 0.5 * first.size);
    first.spaceBefore = !joins;
    // The lines set round it start where it does, as the paragraph's lines under it.
    for (const item of lines.slice(1)) item.x0 = capX0;
  }
}
