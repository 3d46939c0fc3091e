/**
 * Ligatures whose letters a font's ToUnicode map writes a byte off, as Ghostscript's copies of some fonts do: `ﬁ`
 * read as `昀椀` (U+6600 U+6900, the letters' codes shifted a byte up).
 */

/** U+4100…U+5A00 and U+6100…U+7A00: a Latin letter's code shifted a byte up (`f` 0x66 read as U+6600, `昀`). */
const SHIFTED_LETTERS = Array.from({ length: 26 }, (_, i) => String.fromCharCode((0x41 + i) << 8, (0x61 + i) << 8)).join('');
/** The block SHIFTED_LETTERS lie in: a plain test first, so that the pattern below runs only on such rare text. */
const HAS_SHIFTED_LETTER = /[\u4100-\u7a00]/u;
/**
 * A ligature's letters written into the font's ToUnicode map a byte off (Ghostscript's copies read `ﬁ` as `昀椀`,
 * U+6600 U+6900): such characters against a Latin letter are those letters (`Ori昀椀ce` is `Orifice`).
 */
const SHIFTED_LIGATURE = new RegExp(`(?<=[A-Za-z])[${SHIFTED_LETTERS}]+|[${SHIFTED_LETTERS}]+(?=[a-z])`, 'gu');

/**
 * `text` with a ligature's letters that its font's map wrote a byte off put back (`昀椀rm` is `firm`). Applied to
 * each item as it is read, so that what takes an item's text whole (a table's header labels) reads it repaired, and
 * to each line again for a ligature its items split from its word.
 */
export function withShiftedLettersBack(text: string): string {
  return HAS_SHIFTED_LETTER.test(text) ? text.replace(SHIFTED_LIGATURE, (letters) => String.fromCharCode(...[...letters].map((letter) => letter.charCodeAt(0) >> 8))) : text;
}
