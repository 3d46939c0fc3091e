/**
 * The depth a heading's own numbering gives it: `Chapter 2`, `Part I`, `제1장` and `1`, `IV.` are depth 1,
 * `1.1` and `제1절` depth 2, `1.1.1` depth 3. Undefined for a heading without numbering.
 */

const CHAPTER = /^(?:chapter|part|book|chapitre|kapitel|capítulo|capitolo)\s+(?:\d{1,3}|[IVXLC]{1,6})\b/iu;
const KOREAN_CHAPTER = /^제\s*\d{1,3}\s*(?:장|편|부)/u;
const KOREAN_SECTION = /^제\s*\d{1,3}\s*절/u;
/** `1`, `1.2`, `1.2.3.` then a letter: each part at most two digits (a year or a figure is not numbering). */
const DECIMAL = /^(\d{1,2}(?:\.\d{1,2})*)\.?\s+\p{L}/u;
const ROMAN = /^[IVXLC]{1,6}\.\s+\p{L}/u;

export function numberingDepth(text: string): number | undefined {
  const trimmed = text.trim();
  if (CHAPTER.test(trimmed) || KOREAN_CHAPTER.test(trimmed) || ROMAN.test(trimmed)) return 1;
  if (KOREAN_SECTION.test(trimmed)) return 2;
  const decimal = DECIMAL.exec(trimmed);
  if (decimal) return decimal[1]!.split('.').length;
  return undefined;
}
