/**
 * Inline code in running text: a monospaced run that opens a line (`/usr/share/app.conf (if it exists) …`,
 * `settings-merge is passed …`). LiteParse joins a line's runs into one item named after its first font, so the whole
 * line read as monospaced: two such lines in a paragraph became a code block, and the paragraph after one was taken
 * into it. A monospaced font sets every glyph at one pitch, so its words are that pitch times their characters wide;
 * the words of the proportional type after the run are not. Pure.
 */

import { countCodePointsBesideSpaces } from '../white-space.js';

/** What is read of a LiteParse item here. */
interface PitchedItem {
  fontName?: string | undefined;
  text: string;
  /** The advance of the glyphs `charCodes` gives: the item's first run, in its own font. */
  textWidth?: number | undefined;
  charCodes?: readonly number[] | undefined;
  /** The item's word boxes: the first is in the item's own font. */
  words?: readonly { readonly text: string; readonly width: number }[] | undefined;
}

const SPACE = 0x20;

/** What the document's monospaced type shows, read over all its items. */
export interface MonospacePitches {
  /** Each monospaced font's pitch as a share of its em. */
  pitches: ReadonlyMap<string, number>;
  /** The size most of the document's characters are set at: its running text's. */
  bodySize: number;
}

/**
 * Each monospaced font's pitch as a share of its em: the width of an item's first word over its characters (or,
 * without word boxes, the advance of its first run over its glyphs), the most common value over the document's
 * items in that font (0.6 for Courier and its clones, 0.525 for Computer Modern's typewriter type). A run that ends
 * in a glyph of another font reads a little off; most runs read it exactly.
 */
export function monospacePitches<Item extends PitchedItem>(
  pages: readonly { textItems: readonly Item[] }[],
  isMonospace: (fontName: string) => boolean,
  sizeOf: (item: Item) => number,
): MonospacePitches {
  const counts = new Map<string, Map<number, number>>();
  const charsAtSize = new Map<number, number>();
  for (const page of pages) {
    for (const item of page.textItems) {
      const size = sizeOf(item);
      if (!(size > 0)) continue;
      const tenths = Math.round(10 * size);
      charsAtSize.set(tenths, (charsAtSize.get(tenths) ?? 0) + item.text.length);
      const fontName = item.fontName ?? '';
      if (!isMonospace(fontName)) continue;
      const advance = firstWordPitch(item) ?? codesPitch(item);
      if (advance === undefined) continue;
      // In thousandths of the em, as font programs give widths.
      const pitch = Math.round((1000 * advance) / size);
      let font = counts.get(fontName);
      if (!font) counts.set(fontName, (font = new Map()));
      font.set(pitch, (font.get(pitch) ?? 0) + 1);
    }
  }
  const pitches = new Map<string, number>();
  for (const [fontName, font] of counts) pitches.set(fontName, mostCommon(font) / 1000);
  return { pitches, bodySize: mostCommon(charsAtSize) / 10 };
}

/**
 * The advance of a character of the item's first word, from its box: what wordsOffPitch measures the words against.
 * Undefined for a word of one character or with punctuation at its ends (the text's type may set it).
 */
function firstWordPitch(item: PitchedItem): number | undefined {
  const word = item.words?.[0];
  if (!word || !(word.width > 0)) return undefined;
  const text = word.text.trim();
  const n = countCodePointsBesideSpaces(text);
  return n >= 2 && edgePunctuation(text) === 0 ? word.width / n : undefined;
}

/**
 * The advance of a glyph of the item's first run, from LiteParse's text metadata: where no word box tells it. Its
 * widths can stand a tenth off the boxes' (Chromium's embedded DejaVu Sans Mono: 0.669 em against the boxes' 0.602).
 */
function codesPitch(item: PitchedItem): number | undefined {
  const codes = item.charCodes;
  if (!codes || !(item.textWidth! > 0)) return undefined;
  let glyphs = 0;
  for (const code of codes) if (code !== 0 && code !== SPACE) glyphs++;
  return glyphs > 0 ? item.textWidth! / glyphs : undefined;
}

function mostCommon(counts: ReadonlyMap<number, number>): number {
  let best = 0;
  let seen = 0;
  for (const [value, n] of counts) if (n > seen) [best, seen] = [value, n];
  return best;
}

/**
 * A monospaced run set larger than the running text opens no sentence of it: a function's signature over its
 * description (a Texinfo manual's `int asn1_read_value (…)   [Function]`), which stays code.
 */
const ABOVE_BODY = 1.05;

/** The pitch (points) of an item's monospaced font at its size, where its words are told apart by it. */
export function inlinePitch(read: MonospacePitches, fontName: string, size: number): number | undefined {
  const pitch = read.pitches.get(fontName);
  return pitch !== undefined && size <= ABOVE_BODY * read.bodySize ? pitch * size : undefined;
}

/** How far (a share of the pitch) a monospaced word's width may stand from its characters' pitches. */
const ON_PITCH = 0.2;
/**
 * A word of at least LONG_WORD characters standing this far off the pitch (a share of it) shows the item mixes fonts:
 * a typewriter page's items stand within a few hundredths of it.
 */
const CLEARLY_OFF = 0.5;
const LONG_WORD = 3;
/** A first word this much wider a character than the pitch sets the code on a grid of its own. */
const WIDER_GRID = 1.02;
/** Punctuation the text's type may set against code (`lzcnt,`, `IDENTIFIER;`, `(path)`): narrower than a pitch. */
const PUNCTUATION = /[,.;:!?'"()[\]’”]/u;

/** Characters at the word's ends that the text's type may set, narrower than the code's pitch. */
function edgePunctuation(text: string): number {
  let n = 0;
  if (text.length > 1 && PUNCTUATION.test(text[0]!)) n++;
  for (let i = text.length - 1; i > n && PUNCTUATION.test(text[i]!); i--) n++;
  return n;
}

/** How far a word of `n` characters and `edges` narrower ones at its ends stands from `pitch` (points). */
function offBy(width: number, n: number, edges: number, pitch: number): number {
  if (width > n * pitch) return width - n * pitch;
  const narrowest = (n - edges) * pitch;
  return width < narrowest ? narrowest - width : 0;
}

/**
 * For an item named after a monospaced font of `pitch` (points), which of its first `count` words are set in
 * another type: true for a word narrower or wider than its characters at that pitch, punctuation at its ends
 * allowed to be narrower. Code set on a wider grid than its glyphs (a LaTeX listing's fixed columns) keeps the pitch
 * of its first word, which is also taken. The first word is never another type's: LiteParse names an item after
 * its first run's font. Undefined when no word of LONG_WORD characters stands clearly off the pitch: the item is
 * monospaced through (a listing, a typewriter page), and a few hundredths off say nothing.
 */
export function wordsOffPitch(words: readonly { readonly width: number }[], texts: readonly string[], count: number, pitch: number): boolean[] | undefined {
  if (count < 2 || !(pitch > 0)) return undefined;
  // A first word wider than its characters at the pitch: a grid wider than the glyphs (narrower is punctuation).
  const first = words[0]!.width / countCodePointsBesideSpaces(texts[0]!);
  const grid = first > WIDER_GRID * pitch ? first : undefined;
  const off: boolean[] = [false];
  let mixed = false;
  for (let i = 1; i < count; i++) {
    const text = texts[i]!;
    const n = countCodePointsBesideSpaces(text);
    const width = words[i]!.width;
    const edges = edgePunctuation(text);
    const apart = Math.min(offBy(width, n, edges, pitch) / pitch, grid !== undefined ? offBy(width, n, edges, grid) / grid : Infinity);
    off.push(apart > ON_PITCH);
    if (n >= LONG_WORD && apart > CLEARLY_OFF) mixed = true;
  }
  return mixed ? off : undefined;
}
