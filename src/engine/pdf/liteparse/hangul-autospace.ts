/**
 * The space a word processor sets between Hangul and the Latin letters, digits or punctuation beside it (LibreOffice's
 * and Word's autospace between Asian and Western text): `2025년` is drawn `2025 년`, `3월` `3 월`, `일치한다.`
 * `일치한다 .`. PDFium writes a space for that gap, so a Korean text read "2025 년" where its writer typed none.
 * The gap is narrower than the line's own spaces between Hangul words (0.2 em against 0.28–0.34 em, in NanumGothic
 * and NanumMyeongjo, set ragged or justified), and a typed space beside a digit is as wide as those: a gap well under
 * them is no word space. Pure.
 */

/** A word's box on its line: its left edge and width. */
interface WordSpan {
  x: number;
  width: number;
}

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/u;
/** Hangul anywhere in a text: where an autospace can be. */
export const HAS_HANGUL = HANGUL;
/**
 * A Latin or Greek letter, a digit (a raised one too: an author's mark `김민수¹`), or a mark that closes a word or a
 * sentence: what autospace sets apart from Hangul. Not a bullet or a reference mark (`□ 추진`, `※ 자료`, `① 온라인`): a
 * typed space follows those.
 */
const WESTERN = /[\p{Script=Latin}\p{Script=Greek}\p{Nd}¹²³\u2070-\u2079%.,:;!?)\]'"’”]/u;
/** A gap under this share of the line's space between Hangul words is the autospace. */
const AUTOSPACE_SHARE = 0.8;
/**
 * Spaces between Hangul words the line must show before its other gaps are measured against them: one will do (a
 * heading `제 1 장 총칙`, drawn for `제1장 총칙`), since justification widens a typed space beside a digit as much.
 */
const MIN_WORD_SPACES = 1;
/**
 * Where the line shows no space between Hangul words (a table's header cell `2023년`, a date `2025년 3월`), a gap
 * under this many ems is the autospace: 0.2 em against a typed space's 0.28–0.34 em.
 */
const AUTOSPACE_EM = 0.24;

/** An autospace between runs is at most this much wider than the document's autospace within runs. */
const RUN_AUTOSPACE_SLACK = 1.2;
/** Autospaces found within runs before a document is taken to set them: one could be a narrow typed space. */
const MIN_AUTOSPACES = 2;

/**
 * The document's autospace in ems, from the gaps `autospacedWords` joined within runs (each a gap over its em);
 * undefined when it shows too few to say it sets them.
 */
export function documentAutospaceEm(gaps: readonly number[]): number | undefined {
  return gaps.length >= MIN_AUTOSPACES ? median([...gaps]) : undefined;
}

/**
 * Whether two runs in different fonts (Hangul in a CJK font, the digit beside it in a Latin one: a heading's
 * `제1장`) meet at an autospace, not a word space: Hangul on one side, Western on the other, the gap no wider than
 * the document's autospace `autospaceEm` (and under AUTOSPACE_EM). A document that sets no autospace within its
 * runs gives none: between runs a narrow typed space (`1.5% 빅포인트`, 0.18 em) is as wide.
 */
export function meetAtAutospace(before: string, after: string, gap: number, em: number, autospaceEm: number): boolean {
  if (!(gap < Math.min(AUTOSPACE_EM, RUN_AUTOSPACE_SLACK * autospaceEm) * em) || before.length === 0 || after.length === 0) return false;
  // Most gaps are between Latin words: two code comparisons, no expression, rule them out.
  const lastHangul = isHangulCode(before.charCodeAt(before.length - 1));
  const firstHangul = isHangulCode(after.charCodeAt(0));
  if (lastHangul === firstHangul) return false;
  return lastHangul ? WESTERN.test(after.charAt(0)) : endsWestern(before);
}

/** Marks that close a word or a clause, which take the script of the text they follow. */
const CLOSING_MARKS = /[.,:;!?)\]'"’”]+$/u;

/**
 * Whether a text ends in what autospace sets apart from the Hangul after it. A closing mark right after Hangul
 * (`메뚜기,`, `한다.`) is the Hangul's: the word processor gives such a weak mark the script before it, so the
 * space after it is typed, however narrow the font draws it (Noto Sans CJK's space is 0.22 em).
 */
function endsWestern(text: string): boolean {
  if (!WESTERN.test(text.slice(-1))) return false;
  const marks = CLOSING_MARKS.exec(text);
  if (marks === null || marks.index === 0) return true;
  return !isHangulCode(text.charCodeAt(marks.index - 1));
}

/** The code ranges HANGUL matches (Jamo, compatibility Jamo, syllables). */
function isHangulCode(code: number): boolean {
  return (code >= 0x1100 && code <= 0x11ff) || (code >= 0x3130 && code <= 0x318f) || (code >= 0xac00 && code <= 0xd7af);
}

function median(values: number[]): number {
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

/**
 * The widest gap an autospace is where the glyphs say it is one: LibreOffice sets 0.2 em, and a font's space is as
 * wide or wider (Noto Sans CJK's 0.22 em), so only the glyphs tell them apart.
 */
const DRAWN_AUTOSPACE_EM = 0.3;

/**
 * For each of the first `count` words, whether it is set against the word before it by an autospace, not a word space:
 * one side of the gap Hangul, the other Western, PDFium's space there, and the gap under AUTOSPACE_SHARE of the
 * spaces between the line's Hangul words, or under AUTOSPACE_EM of `em` (the type's size) where it shows none.
 * Where the line draws its typed spaces as glyphs (`drawn`, undefined where that cannot be told), a space drawn is
 * typed and a gap without one is the autospace, up to DRAWN_AUTOSPACE_EM.
 */
export function autospacedWords(
  words: readonly WordSpan[],
  texts: readonly string[],
  spaced: readonly boolean[],
  count: number,
  em: number,
  drawn?: (word: number) => boolean | undefined,
): boolean[] {
  const joined = new Array<boolean>(count).fill(false);
  const hangulSpaces: number[] = [];
  const gapBefore = (i: number) => words[i]!.x - (words[i - 1]!.x + words[i - 1]!.width);
  for (let i = 1; i < count; i++) {
    if (spaced[i] && HANGUL.test(texts[i - 1]!.slice(-1)) && HANGUL.test(texts[i]!.charAt(0))) hangulSpaces.push(gapBefore(i));
  }
  const widest = hangulSpaces.length >= MIN_WORD_SPACES ? AUTOSPACE_SHARE * median(hangulSpaces) : AUTOSPACE_EM * em;
  if (!(widest > 0)) return joined;
  for (let i = 1; i < count; i++) {
    if (!spaced[i]) continue;
    const before = texts[i - 1]!.slice(-1);
    const after = texts[i]!.charAt(0);
    const mixed = (HANGUL.test(before) && WESTERN.test(after)) || (HANGUL.test(after) && endsWestern(texts[i - 1]!));
    if (!mixed) continue;
    const glyph = drawn?.(i);
    joined[i] = glyph === undefined ? gapBefore(i) < widest : !glyph && gapBefore(i) < DRAWN_AUTOSPACE_EM * em;
  }
  return joined;
}
