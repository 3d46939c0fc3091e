/**
 * The leading bullet of a line, or of a cell of it (the second of two lists side by side), as the layout's list
 * marker ("•"), where the PDF sets it in a way no marker pattern knows:
 * - a symbol font's bullet, written at the private-use code point of its 8-bit code (U+F020–U+F0FF): LibreOffice
 *   prints the bullets of its presentation templates (StarSymbol's "●") as U+F095, Word the bullets of Symbol and
 *   Wingdings as U+F0B7, U+F0A7, U+F0D8. Unread, a slide's list is one paragraph strewn with unknown glyphs;
 * - a bullet set against its first word with no gap (a slide's bullet without a hanging indent), which the text
 *   layer reads as one word ("•With"), or as a glyph of its own touching the word (a list set right to left).
 * Only the first item of a line or cell, and only with text after it: a private-use glyph elsewhere is an icon or
 * a symbol of the text, and a dash or an asterisk before a word ("-based", "*Note") is no bullet. Pure.
 */
import type { PdfTextItem } from './types.js';

/** Where a symbol font's 8-bit codes are written (Windows' convention, which PDF writers follow). */
const SYMBOL_FONT_GLYPH = /^[\uf020-\uf0ff]$/u;
/** Bullets that stand for nothing else, glued to a following letter or digit. */
const GLUED_BULLET = /^([•◦▪▫‣●○■□►▸➢✓✔])([\p{L}\p{N}].*)$/u;
/**
 * A list's enumerator before a parenthesis (`1)`, `a)`) glued to a capitalised word: LibreOffice's slides print a
 * numbered level with no space after its number (`1)Nested item`). A period is no such sign (`1.Introduction` is a
 * heading's number as often as an item's).
 */
const GLUED_ENUMERATOR = /^(\(?(?:[1-9]\d{0,2}|[a-z])\))(\p{Lu}\p{Ll}.*)$/u;
/** One of those bullets alone. */
export const LONE_BULLET = /^[•◦▪▫‣●○■□►▸➢✓✔]$/u;

/**
 * The items of a line or cell (in reading order, left to right) with its leading bullet read as "•": `ordered`
 * itself when it has none to read.
 */
export function withLeadingBullet(ordered: PdfTextItem[]): PdfTextItem[] {
  const first = ordered[0];
  if (!first || (ordered.length < 2 && !GLUED_BULLET.test(first.str) && !GLUED_ENUMERATOR.test(first.str))) return ordered;
  if (SYMBOL_FONT_GLYPH.test(first.str)) return [{ ...first, str: '•' }, ...ordered.slice(1)];
  const next = ordered[1];
  // A bullet drawn on its own against its first word (a list set right to left, its bullet at the right with no
  // indent after it): a space parts them, as it parts a bullet glued into the word.
  if (next && LONE_BULLET.test(first.str) && next.spaceBefore !== true) return [first, { ...next, spaceBefore: true }, ...ordered.slice(2)];
  const glued = GLUED_BULLET.exec(first.str) ?? GLUED_ENUMERATOR.exec(first.str);
  if (!glued) return ordered;
  // The marker's share of the item's width: a glyph's a character (a bullet is about as wide as a letter).
  const bulletWidth = ((first.x1 - first.x0) * [...glued[1]!].length) / [...first.str].length;
  const bullet: PdfTextItem = { ...first, str: glued[1]!, x1: first.x0 + bulletWidth };
  const word: PdfTextItem = { ...first, str: glued[2]!, x0: first.x0 + bulletWidth, spaceBefore: true };
  return [bullet, word, ...ordered.slice(1)];
}
