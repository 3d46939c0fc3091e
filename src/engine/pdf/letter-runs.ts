/**
 * Runs of letters and digits (`\p{L}`, `\p{N}`, code point by code point as a `u` regular expression reads them),
 * found from a given place in a text. The line-end hyphen passes look at the few places around their marks and
 * at each word: regular expressions with Unicode classes, run over every block's whole text, cost 7 % of the
 * layout's time on the benchmark's pages.
 */
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** Per UTF-16 unit, once asked: 1 a letter or digit, 2 not (0 not asked yet). */
const units = new Uint8Array(0x10000);

function isLetterOrDigitUnit(unit: number): boolean {
  let known = units[unit]!;
  if (known === 0) {
    known = LETTER_OR_DIGIT.test(String.fromCharCode(unit)) ? 1 : 2;
    units[unit] = known;
  }
  return known === 1;
}

function isLetterOrDigit(codePoint: number): boolean {
  return codePoint <= 0xffff ? isLetterOrDigitUnit(codePoint) : LETTER_OR_DIGIT.test(String.fromCodePoint(codePoint));
}

const MARK = 0xe000;

/**
 * The end of the run of letters and digits (and of `U+E000` marks too when `marks`) that starts at `from`;
 * `from` itself when none does.
 */
export function letterRunEnd(text: string, from: number, marks = false): number {
  let i = from;
  while (i < text.length) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        if (!isLetterOrDigit(((unit - 0xd800) << 10) + (low - 0xdc00) + 0x10000)) return i;
        i += 2;
        continue;
      }
    }
    if (!(isLetterOrDigitUnit(unit) || (marks && unit === MARK))) return i;
    i++;
  }
  return i;
}

/** The start of the run of letters and digits that ends at `end`; `end` itself when none does. */
export function letterRunStart(text: string, end: number): number {
  let i = end;
  while (i > 0) {
    const unit = text.charCodeAt(i - 1);
    if (unit >= 0xdc00 && unit <= 0xdfff && i >= 2) {
      const high = text.charCodeAt(i - 2);
      if (high >= 0xd800 && high <= 0xdbff) {
        if (!isLetterOrDigit(((high - 0xd800) << 10) + (unit - 0xdc00) + 0x10000)) return i;
        i -= 2;
        continue;
      }
    }
    if (!isLetterOrDigitUnit(unit)) return i;
    i--;
  }
  return i;
}

/**
 * Each word of `text` as the pattern `[\p{L}\p{N}\ue000]+(?:-[\p{L}\p{N}\ue000]+)*` (flags g, u) matches them: runs of
 * letters, digits and marks, joined by single hyphens.
 */
export function hyphenatedWords(text: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = letterRunEnd(text, i, true);
    if (end === i) {
      // Not a word's start: a unit on (a pair's second half is never a letter on its own).
      i++;
      continue;
    }
    while (end < text.length && text.charCodeAt(end) === 0x2d) {
      const next = letterRunEnd(text, end + 1, true);
      if (next === end + 1) break;
      end = next;
    }
    words.push(text.slice(i, end));
    i = end;
  }
  return words;
}
