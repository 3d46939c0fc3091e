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
 * A Latin or Greek letter, a digit, or a mark that closes a word or a sentence: what autospace sets apart from Hangul.
 * Not a bullet or a reference mark (`□ 추진`, `※ 자료`, `① 온라인`): a typed space follows those.
 */
const WESTERN = /[\p{Script=Latin}\p{Script=Greek}\p{Nd}%.,:;!?)\]'"’”]/u;
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

function median(values: number[]): number {
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

/**
 * For each of the first `count` words, whether it is set against the word before it by an autospace, not a word space:
 * one side of the gap Hangul, the other Western, PDFium's space there, and the gap under AUTOSPACE_SHARE of the
 * spaces between the line's Hangul words, or under AUTOSPACE_EM of `em` (the type's size) where it shows none.
 */
export function autospacedWords(words: readonly WordSpan[], texts: readonly string[], spaced: readonly boolean[], count: number, em: number): boolean[] {
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
    const mixed = (HANGUL.test(before) && WESTERN.test(after)) || (WESTERN.test(before) && HANGUL.test(after));
    joined[i] = mixed && gapBefore(i) < widest;
  }
  return joined;
}
