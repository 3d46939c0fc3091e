/**
 * Text set raised or lowered (a power, a chemical formula's count, a note's number: Word's and LibreOffice's
 * superscript and subscript, RTF's `\super` and `\sub`), written in Unicode's superscript and subscript characters
 * when it has one for every character: `10⁷`, `x²`, `H₂O`, `CO₂`. Run into the text around it as plain characters,
 * `1×10<sup>7</sup>` would read as 1×107. Text Unicode has no characters for (`1st`'s `st`, `TM`, a word) stays
 * as written: a mark half converted would read worse than none.
 */

const SUPERSCRIPTS: Readonly<Record<string, string>> = {
  ...Object.fromEntries([...'0123456789'].map((digit, index) => [digit, '⁰¹²³⁴⁵⁶⁷⁸⁹'[index]!])),
  '+': '⁺',
  '-': '⁻',
  '−': '⁻',
  '=': '⁼',
  '(': '⁽',
  ')': '⁾',
  n: 'ⁿ',
  i: 'ⁱ',
  // Between note numbers (`¹,²`), as the PDF path writes them.
  ',': ',',
};

const SUBSCRIPTS: Readonly<Record<string, string>> = {
  ...Object.fromEntries([...'0123456789'].map((digit, index) => [digit, '₀₁₂₃₄₅₆₇₈₉'[index]!])),
  '+': '₊',
  '-': '₋',
  '−': '₋',
  '=': '₌',
  '(': '₍',
  ')': '₎',
};

/** A raised or lowered text is at most this long: a power or a count, not a passage. */
const MAX_RAISED_LENGTH = 12;

/** `text` in superscript or subscript characters, or null when Unicode lacks one for any of its characters. */
export function raisedCharacters(text: string, position: 'super' | 'sub'): string | null {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > MAX_RAISED_LENGTH || !/[0-9]/.test(trimmed)) return null;
  const table = position === 'super' ? SUPERSCRIPTS : SUBSCRIPTS;
  let written = '';
  for (const character of trimmed) {
    const mapped = table[character];
    if (mapped === undefined) return null;
    written += mapped;
  }
  return written;
}

/**
 * Where OpenDocument's `style:text-position` sets text: `super 58%` and `33% 58%` raise it, `sub 58%` and
 * `-33% 58%` lower it, `0% 100%` sets it back on the line; null when the value says none of these.
 */
export function odfTextPosition(value: string | undefined): 'super' | 'sub' | 'baseline' | null {
  const offset = value?.trim().split(/\s+/)[0];
  if (offset === undefined || offset === '') return null;
  if (offset === 'super' || offset === 'sub') return offset;
  const percent = Number.parseFloat(offset);
  if (!Number.isFinite(percent)) return null;
  return percent > 0 ? 'super' : percent < 0 ? 'sub' : 'baseline';
}
