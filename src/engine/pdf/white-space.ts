/**
 * White space, words and characters counted by UTF-16 unit. White space as a regular expression's `\s` matches it:
 * the layout asks this of a text's units in loops where a `/\s/` test of each (or of a slice) made a string per test.
 */
export function isWhiteSpaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Whether `text` holds white space (as `\s`) between `from` and `to`, without slicing it. */
export function hasWhiteSpaceBetween(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (isWhiteSpaceCode(text.charCodeAt(i))) return true;
  return false;
}

/**
 * The words of `text`, as `text.split(/\s+/).filter(Boolean).length` counts them (runs of units that are not
 * white space), without the arrays: the layout counts the words of every cell and line several times over, and
 * those splits were 4 % of its allocations.
 */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isWhiteSpaceCode(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/**
 * Code points of `text` other than the space (and, with `breaks`, tab, CR and LF), as `for…of` counts them, without
 * its iterator (a lone surrogate counts as one).
 */
export function countCodePointsBesideSpaces(text: string, breaks = false): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || (breaks && (c === 0x09 || c === 0x0a || c === 0x0d))) continue;
    n++;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return n;
}

/** The text's words, one space between them. */
export function spacedWords(text: string): string {
  return text.split(/\s+/u).filter(Boolean).join(' ');
}
