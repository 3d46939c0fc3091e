/**
 * Dashes LiteParse writes as hyphens. Its text gives every en dash and em dash as `-` (`alpha — beta` reads
 * `alpha - beta`, whatever the font and its encoding), and a minus sign too. A dash alone between two words of prose
 * says which it is by its width: an em dash 700 to 1000 units of the em wide (Lora's 700, Helvetica's and Times'
 * 1000), an en dash 500 to 556, a hyphen 278 to 333. Between numbers or in a line of mathematics the same glyph
 * is as likely a minus (TeX's is 778 units wide), and inside a word (`2019–2020`) a dash has no width of its own
 * here: those stay as LiteParse gives them. Pure.
 */

/** Wider than this share of the em, a dash alone is an em dash; wider than EN_DASH, an en dash. */
const EM_DASH = 0.62;
const EN_DASH = 0.44;

/**
 * A word of prose: two letters or more (a lone letter may be a variable), quotes, a bracket and stops round them,
 * no digit or symbol inside (`Q(h)`, `|p`).
 */
const PROSE_WORD = /^['‘"“(]*\p{L}[\p{L}\p{M}'’-]*\p{L}[.,;:!?'’"”)]*$/u;
/** Mathematics on the line: an operator or a relation. */
const MATHEMATICS = /[=+<>×÷±∓∑∏∫√≤≥≈≠∈∂∇]/u;

/**
 * `words[i]`'s text, a lone hyphen as the dash its width shows where it stands between words of prose in a line
 * (`line`, the item's text) without mathematics.
 */
export function dashByWidth(words: readonly string[], i: number, width: number, size: number, line: string): string {
  const text = words[i]!;
  if (text !== '-' || !(size > 0)) return text;
  const ems = width / size;
  if (ems <= EN_DASH) return text;
  const before = words[i - 1];
  const after = words[i + 1];
  if (!before || !after || !PROSE_WORD.test(before) || !PROSE_WORD.test(after) || MATHEMATICS.test(line)) return text;
  return ems > EM_DASH ? '—' : '–';
}

/** Dashes, which LiteParse's table cells give as hyphens. */
const DASHES = /[–—]/gu;

/** `text` as LiteParse writes it, its dashes hyphens: what docmill's items read is compared so with its cells. */
export function withDashesAsHyphens(text: string): string {
  return text.replace(DASHES, '-');
}
