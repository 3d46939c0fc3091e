/**
 * A bold run-in lead before Hangul text, told by the glyphs' codes. LiteParse joins a line's runs into one item named
 * after its first font, so a paragraph led by a bold label (`요 약 본 논문에서는 …`, `(비전) 어디서나 …`) reads as one
 * bold line, a heading; the words' boxes cannot say where the lead ends beside Hangul (each glyph fills the em).
 * Their codes can: a word processor numbers each font's glyphs apart, so a syllable drawn in the page's regular type
 * has the code it has in that type's own runs (`는` 37 in both), and one of the lead's has another (`요` 17 in the
 * bold font, 90 in the regular). The other way round, a heading's mark set in the body's regular type before its
 * bold text (`Ⅰ.` or `□` a word processor takes from another font) names the whole item regular: the codes of the
 * spaces after the mark say the words are the bold type's. Pure.
 */
import type { NativeTextItem } from './page-items.js';

/** Per Hangul syllable or space (its UTF-16 unit), the codes it is drawn with in the page's runs in regular type. */
export type RegularCodes = Map<number, Set<number>>;

/** Syllables drawn with the regular type's codes a lead's followers must show before they are taken for that type. */
const MIN_MATCHES = 2;

/** Hangul syllables, and the space: a font's space glyph has its own code too (4 in the bold font, 6 in the regular). */
function isTold(unit: number): boolean {
  return (unit >= 0xac00 && unit <= 0xd7a3) || unit === SPACE;
}

const SPACE = 0x20;

/** The item's codes one per UTF-16 unit of its text (a space drawn after its last glyph allowed), or undefined. */
export function codesPerUnit(item: NativeTextItem): readonly number[] | undefined {
  const codes = item.charCodes;
  if (!codes) return undefined;
  let count = codes.length;
  while (count > 0 && codes[count - 1] === 0) count--;
  return count === item.text.length || count === item.text.length + 1 ? codes : undefined;
}

/**
 * The codes of an item's first words where PDFium gives codes for its first text objects only (a line LibreOffice
 * draws as several, `국문 요약 본 연구는 … 주민의 ` 29 codes for 68 units): one a unit, where they stop at a
 * word's end (before or after its space); undefined otherwise. A code dropped or doubled before that point shifts
 * the rest, which the regular type's codes then fail to match, and the lead is not told.
 */
function codesOfFirstWords(item: NativeTextItem): readonly number[] | undefined {
  const codes = item.charCodes;
  if (!codes || codes.length === 0 || codes.length >= item.text.length) return undefined;
  const atWordEnd = item.text.charCodeAt(codes.length) === SPACE || item.text.charCodeAt(codes.length - 1) === SPACE;
  return atWordEnd && codes.every((code) => code !== 0) ? codes : undefined;
}

/**
 * The codes of the syllables of `items` (the page's runs not in bold), where their codes match their text; of the
 * units `told` picks (a Latin lead's letters: letter-code-leads.ts).
 */
export function regularCodes(items: readonly NativeTextItem[], told: (unit: number) => boolean = isTold): RegularCodes {
  const map: RegularCodes = new Map();
  for (const item of items) {
    const codes = codesPerUnit(item) ?? codesOfFirstWords(item);
    if (!codes) continue;
    for (let i = 0; i < Math.min(item.text.length, codes.length); i++) {
      const unit = item.text.charCodeAt(i);
      if (!told(unit)) continue;
      let seen = map.get(unit);
      if (!seen) map.set(unit, (seen = new Set()));
      seen.add(codes[i]!);
    }
  }
  return map;
}

/**
 * How many of a bold item's first words (`texts`, in order in its text) are in its bold font: the words up to the last
 * one drawn (with the space before it) otherwise than the regular type draws it, before the first drawn with the
 * regular type's codes, where every later word is drawn with those too. All of them when the codes do not say so.
 */
export function wordsBeforeRegularCodes(item: NativeTextItem, texts: readonly string[], count: number, regular: RegularCodes): number {
  const codes = codesPerUnit(item) ?? codesOfFirstWords(item);
  if (!codes || regular.size === 0) return count;
  // Per word: syllables drawn with a regular code, and syllables the regular type draws with another code.
  const matches: number[] = [];
  const others: number[] = [];
  // Syllables alone: a space matches in any run of the regular type, whatever it holds.
  const syllableMatches: number[] = [];
  let from = 0;
  for (let w = 0; w < count; w++) {
    const at = item.text.indexOf(texts[w]!, from);
    if (at < 0) return count;
    // Codes given for the first words only: the words past them are told by those before them.
    if (at + texts[w]!.length > codes.length) break;
    let match = 0;
    let other = 0;
    let syllableMatch = 0;
    // The space before a word is drawn in the word's run: the run in regular type starts with it.
    const start = at > 0 && item.text.charCodeAt(at - 1) === SPACE ? at - 1 : at;
    for (let i = start; i < at + texts[w]!.length; i++) {
      const unit = item.text.charCodeAt(i);
      const known = isTold(unit) ? regular.get(unit) : undefined;
      if (!known) continue;
      if (known.has(codes[i]!)) {
        match++;
        if (unit !== SPACE) syllableMatch++;
      } else other++;
    }
    matches.push(match);
    others.push(other);
    syllableMatches.push(syllableMatch);
    from = at + texts[w]!.length;
  }
  // The lead ends after its last word drawn otherwise, before the first word drawn with the regular codes.
  const firstMatch = matches.findIndex((match) => match > 0);
  if (firstMatch <= 0) return count;
  let split = 0;
  for (let w = 0; w < firstMatch; w++) if (others[w]! > 0) split = w + 1;
  if (split === 0) return count;
  let followerMatches = 0;
  for (let w = split; w < matches.length; w++) {
    if (others[w]! > 0) return count;
    followerMatches += syllableMatches[w]!;
  }
  return followerMatches >= MIN_MATCHES ? split : count;
}

/**
 * A numbering mark or bullet before a heading's text, set by a word processor in another font than the text (`Ⅰ.`,
 * `□` in the body's regular type before a bold heading): LiteParse names the item after the mark's font.
 */
const LEAD_MARK = /^(?:[\u2160-\u217f]{1,4}\.?|[□■○●◆◇▶▷]|\d{1,2}[.)]|\(\d{1,2}\)|[가-하][.)])$/u;

/** The codes some of the page's runs draw their Hangul syllables and spaces with. */
export interface CodeUses {
  /** Each syllable or space drawn with each code (key: unit × 2^16 + code). */
  keys: Set<number>;
  /** Spaces drawn, in all. */
  spaces: number;
}

/** The uses of codes in `items`, where their codes match their text. */
export function codeUses(items: readonly NativeTextItem[]): CodeUses {
  const uses: CodeUses = { keys: new Set(), spaces: 0 };
  for (const item of items) {
    const codes = codesPerUnit(item);
    if (!codes) continue;
    for (let i = 0; i < item.text.length; i++) {
      const unit = item.text.charCodeAt(i);
      if (!isTold(unit)) continue;
      uses.keys.add(unit * 0x10000 + codes[i]!);
      if (unit === SPACE) uses.spaces++;
    }
  }
  return uses;
}

/** Whether a text opens with a lead mark, a word of its own. */
export function opensWithMark(text: string): boolean {
  const space = text.indexOf(' ');
  return space > 0 && LEAD_MARK.test(text.slice(0, space));
}

/** Spaces the page's regular runs must draw before a space drawn otherwise says another font. */
const MIN_REGULAR_SPACES = 3;

/**
 * Whether a regular item that opens with a mark (`Ⅰ. 추진 배경`) sets the words after it in the page's bold type:
 * its spaces after the mark drawn with a code the page's bold runs draw spaces with and its regular runs do not
 * (the first space may be the mark's own), and none of its syllables with a code the regular runs draw it with.
 * `regular` holds the codes of the page's regular runs that open with no mark (a report's `○` items may all be
 * such headings' kin), which must draw MIN_REGULAR_SPACES spaces; `bold` those of its bold runs.
 */
export function followsMarkInBold(item: NativeTextItem, firstWord: string, regular: CodeUses, bold: CodeUses): boolean {
  if (!LEAD_MARK.test(firstWord) || !item.text.startsWith(firstWord)) return false;
  if (regular.spaces < MIN_REGULAR_SPACES) return false;
  const codes = codesPerUnit(item);
  if (!codes) return false;
  let boldSpaces = 0;
  for (let i = firstWord.length; i < item.text.length; i++) {
    const unit = item.text.charCodeAt(i);
    if (!isTold(unit)) continue;
    const key = unit * 0x10000 + codes[i]!;
    if (regular.keys.has(key)) {
      // A syllable in the regular type's code, or a space after the first: the words are in the regular type.
      if (unit !== SPACE || i !== firstWord.length) return false;
    } else if (unit === SPACE && bold.keys.has(key)) boldSpaces++;
  }
  return boldSpaces > 0;
}
