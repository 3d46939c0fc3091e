/**
 * An accent TeX draws over a letter as a glyph of its own (`\u{g}`, `\"u`, `\'e`: author names in papers, `Oğuz`,
 * `Müller`, `José`) comes out of LiteParse after the word, a word of its own (`Barlas Oguz ˘`), where its box
 * stands over the letter it belongs to. The accent is put on that letter: the word box it stands inside, and within
 * it the letter its centre falls on by an even share of the word's width (the letters' own widths are not known),
 * or the letter beside that one where only that one has no such accented letter in Unicode; an accent over the
 * word's last letter, which LiteParse keeps at the end of the word (`Jose´`), goes on that letter where it is a vowel
 * (after a consonant it is more often an apostrophe set as an acute: `students´`). Pure.
 */
import { composed, SPACING_ACCENT, SPACING_ACCENTS } from '../spacing-accents.js';
import type { NativeTextItem } from './page-items.js';

type WordBox = NonNullable<NativeTextItem['words']>[number];

/** The item with each accent that stands alone over a letter of another of its words put on that letter. */
export function withAccentsOverLetters(item: NativeTextItem): NativeTextItem {
  if (!item.words || !SPACING_ACCENT.test(item.text)) return item;
  const words = [...item.words];
  let text = item.text;
  let changed = false;
  for (let i = 0; i < words.length; i++) {
    const accent = words[i]!.text.trim();
    if (!(accent in SPACING_ACCENTS)) continue;
    const centre = words[i]!.x + words[i]!.width / 2;
    const hostIndex = words.findIndex((word, j) => j !== i && word.x < centre && centre < word.x + word.width && overlapsVertically(word, words[i]!));
    if (hostIndex < 0) continue;
    const host = words[hostIndex]!;
    const accented = accentedWord(host, centre, accent);
    // Where in the text: the host word, and the accent after it (or before it), each found once.
    const hostAt = text.indexOf(host.text.trim());
    const accentAt = hostAt < 0 ? -1 : accentOccurrence(text, accent, hostAt, host.text.trim().length);
    if (accented === undefined || accentAt < 0) continue;
    const hostText = host.text.trim();
    // The accent out with the white space before it, then the word given its accented letter.
    const gapStart = accentAt > hostAt ? trimmedStart(text, accentAt, hostAt + hostText.length) : accentAt;
    const gapEnd = accentAt > hostAt ? accentAt + accent.length : afterWhiteSpace(text, accentAt + accent.length);
    text = text.slice(0, gapStart) + text.slice(gapEnd);
    const newHostAt = accentAt > hostAt ? hostAt : hostAt - (gapEnd - gapStart);
    text = text.slice(0, newHostAt) + accented + text.slice(newHostAt + hostText.length);
    words[hostIndex] = { ...host, text: accented };
    words.splice(i, 1);
    i--;
    changed = true;
  }
  // An accent over a word's last letter reaches past the word's end: LiteParse keeps it in the word, after it (`Jose´`).
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!.text.trim();
    const letters = [...word];
    const accent = letters.at(-1)!;
    if (letters.length < 2 || !(accent in SPACING_ACCENTS)) continue;
    // On a vowel only: an acute after a consonant at a word's end is more often an apostrophe set so (`students´`).
    const one = VOWEL.test(letters.at(-2)!) ? composed(letters.at(-2)!, accent) : undefined;
    const at = text.indexOf(word);
    if (one === undefined || at < 0) continue;
    const accented = [...letters.slice(0, -2), one].join('');
    text = text.slice(0, at) + accented + text.slice(at + word.length);
    words[i] = { ...words[i]!, text: accented };
    changed = true;
  }
  if (!changed) return item;
  // The glyph codes follow the text as drawn, which the accent's removal no longer is: left out for this item.
  const { charCodes: _codes, ...rest } = item;
  return { ...rest, text, words };
}

const VOWEL = /^[aeiouyAEIOUY]$/u;

function overlapsVertically(p: WordBox, q: WordBox): boolean {
  return p.y < q.y + q.height && q.y < p.y + p.height;
}

/** `host`'s text with `accent` on the letter under `centre`, or on one beside it; undefined when neither takes it. */
function accentedWord(host: WordBox, centre: number, accent: string): string | undefined {
  const letters = [...host.text.trim()];
  const under = Math.min(letters.length - 1, Math.max(0, Math.floor(((centre - host.x) / host.width) * letters.length)));
  for (const at of [under, under - 1, under + 1]) {
    const letter = letters[at];
    if (letter === undefined || !/\p{L}/u.test(letter)) continue;
    const one = composed(letter, accent);
    if (one === undefined) continue;
    return [...letters.slice(0, at), one, ...letters.slice(at + 1)].join('');
  }
  return undefined;
}

/** Where `accent` stands in `text`: its first occurrence after the host word, else the last before it; -1: none. */
function accentOccurrence(text: string, accent: string, hostAt: number, hostLength: number): number {
  const after = text.indexOf(accent, hostAt + hostLength);
  return after >= 0 ? after : text.lastIndexOf(accent, hostAt);
}

/** The start of the white space that ends before `at`, not before `floor`. */
function trimmedStart(text: string, at: number, floor: number): number {
  let start = at;
  while (start > floor && /\s/u.test(text[start - 1]!)) start--;
  return start;
}

function afterWhiteSpace(text: string, at: number): number {
  let end = at;
  while (end < text.length && /\s/u.test(text[end]!)) end++;
  return end;
}
