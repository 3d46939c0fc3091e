/**
 * The depth a heading's own numbering gives it: `Chapter 2`, `Part I`, `Appendix A`, `제1장` and `1`, `IV.` are
 * depth 1, `1.1`, `A.1` and `제1절` depth 2, `1.1.1` and `A.1.2` depth 3. Undefined for a heading without numbering.
 */

const CHAPTER = /^(?:chapter|part|book|chapitre|kapitel|capítulo|capitolo)\s+(?:\d{1,3}|[IVXLC]{1,6})\b/iu;
/** An appendix stands level with the chapters or numbered sections before it, lettered or numbered. */
const APPENDIX = /^(?:appendix|annex|annexe|anhang)\s+(?:[A-Z]|\d{1,3}|[IVXLC]{1,6})\b/iu;
/** An appendix's sections: its letter, then the section's numbers (`A.1`, `B.2.3`). */
const LETTERED = /^([A-Z](?:\.\d{1,2})+)\.?\s+\p{L}/u;
const KOREAN_CHAPTER = /^제\s*\d{1,3}\s*(?:장|편|부)/u;
const KOREAN_SECTION = /^제\s*\d{1,3}\s*절/u;
/** `1`, `1.2`, `1.2.3.` then a letter: each part at most two digits (a year or a figure is not numbering). */
const DECIMAL = /^(\d{1,2}(?:\.\d{1,2})*)\.?\s+\p{L}/u;
const ROMAN = /^[IVXLC]{1,6}\.\s+\p{L}/u;

/**
 * Whether `text` is only a chapter's or an appendix's label, the number or letter after its word (`Appendix A`,
 * `Chapter 3.`, `Part II`, `제2장`): a contents entry's number, not its title.
 */
export function isNumberingLabel(text: string): boolean {
  const trimmed = text.trim().replace(/[.:]$/u, '');
  const label = CHAPTER.exec(trimmed) ?? APPENDIX.exec(trimmed) ?? KOREAN_CHAPTER.exec(trimmed) ?? KOREAN_SECTION.exec(trimmed);
  return label !== null && label[0].length === trimmed.length;
}

export function numberingDepth(text: string): number | undefined {
  const trimmed = text.trim();
  if (CHAPTER.test(trimmed) || APPENDIX.test(trimmed) || KOREAN_CHAPTER.test(trimmed) || ROMAN.test(trimmed)) return 1;
  const lettered = LETTERED.exec(trimmed);
  if (lettered) return lettered[1]!.split('.').length;
  if (KOREAN_SECTION.test(trimmed)) return 2;
  const decimal = DECIMAL.exec(trimmed);
  if (decimal) return decimal[1]!.split('.').length;
  return undefined;
}

/**
 * The place a decimal numbering gives among its siblings: its depth and the numbers above it (`2.` and `4.` share
 * `1|`, `3.1` and `3.2` share `2|3`, each with its stop after the number or none), and its own number; undefined
 * for other numberings and for none.
 */
export function decimalPlace(text: string): { siblings: string; number: number } | undefined {
  const decimal = DECIMAL.exec(text.trim());
  if (!decimal) return undefined;
  const parts = decimal[1]!.split('.');
  // Siblings are numbered alike: `11 brands to know`, a title, is no sibling of the list's `10. Brand`.
  const stop = text.trim().charAt(decimal[1]!.length) === '.' ? '.' : '';
  return { siblings: `${parts.length}|${parts.slice(0, -1).join('.')}|${stop}`, number: Number(parts[parts.length - 1]) };
}
