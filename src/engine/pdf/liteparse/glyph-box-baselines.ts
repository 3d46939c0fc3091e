import { SQUARE_GLYPHS } from '../square-glyphs.js';
import { median } from '../measure.js';
import { ASCENT, DESCENT } from '../types.js';

/**
 * Baselines under word boxes cut to the glyphs (fonts found by page-items.ts's fontsWithGlyphBoxes: LibreOffice's
 * PDFs, a slide's Inter). A share of such a box, right for boxes of the font's ascent to descent, is no baseline:
 * the box of `supply` reaches a fifth of an em lower than that of `sales`, so lines set at one pitch read a point
 * or two apart, and a paragraph broke where they seemed to part. The foot of a word none of whose letters reach
 * below the line lies the same way in every word of a font: the line is placed by it, at the height the share of a
 * flat word's box would give (so a line of flat words stays where it was, level with other fonts' lines). A line
 * without such a word (`supply`, `10,000`, `2023년`) is placed by its words' feet less how far words of their kind
 * reach below the flat ones in the same font elsewhere in the document. Pure.
 */

/**
 * A word of an alphabet's letters (Latin, Cyrillic, Greek; and digits, and the marks set on the line) whose glyphs
 * could stand on the baseline.
 */
const ALPHABET_WORD = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\d.,;'’"“”!?:%&()[\]/-]+$/u;
/** A word of a letter or a digit at least: a dash or a stop alone stands above the baseline. */
const HAS_LETTER_OR_DIGIT = /[\p{L}\d]/u;
/** Letters that reach below the baseline in most typefaces (`Page`, `Страница`). */
const DESCENDER = /[gjpqyQçąęşţųģķļņŗрудфцщДЦЩβγζημξρφχψς]/u;

/** Whether a word holds a letter that reaches below the baseline (`Page`, `supply`). */
export function hasDescender(text: string): boolean {
  return DESCENDER.test(text);
}
/** The marks that reach a little below it: commas, brackets, a slash. */
const MARK = /[,;()[\]/]/u;

/** The share of a box of the font's ascent to descent that lies under the baseline: where a flat word's box puts it. */
const FLAT_SHARE = DESCENT / (ASCENT + DESCENT);

/** Kinds of words by how far their glyphs reach below the line: each kind's feet lie the same way in a font. */
const REACHES = ['flat', 'descender', 'mark', 'square'] as const;
type Reach = (typeof REACHES)[number];

interface WordBox {
  text: string;
  y: number;
  height: number;
}

/** How far below the line a word's glyphs reach, by its letters; undefined for a word of another script or none. */
function reachOf(word: WordBox): Reach | undefined {
  if (!(word.height > 0)) return undefined;
  const text = word.text.trim();
  if (!HAS_LETTER_OR_DIGIT.test(text)) return undefined;
  if (!ALPHABET_WORD.test(text)) return SQUARE_GLYPHS.test(text) ? 'square' : undefined;
  if (DESCENDER.test(text)) return 'descender';
  return MARK.test(text) ? 'mark' : 'flat';
}

/**
 * Where a font's words' feet lie: how far above a flat word's foot the layout's baseline for it is (the share of
 * the box under the baseline that boxes of the font's ascent to descent have, of the font's flat words' height: a
 * line of flat words sits where it did, and a line of other fonts beside it reads as level as it did), and by kind
 * of word how much lower than a flat word's foot its feet lie.
 */
export interface FootDepths {
  flat: number;
  /** By kind of word (`descender`, `mark`, `square`: Hangul, Han or kana), its feet's depth under a flat word's. */
  under: Partial<Record<Reach, number>>;
}

/** The feet of an item's words of each reach, in order met; with `flatHeights`, the flat words' heights added to it. */
function feetByReach(words: readonly WordBox[], flatHeights?: number[]): Record<Reach, number[]> {
  const feet: Record<Reach, number[]> = { flat: [], descender: [], mark: [], square: [] };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const reach = reachOf(word);
    if (!reach) continue;
    feet[reach].push(word.y + word.height);
    if (reach === 'flat' && flatHeights) flatHeights.push(word.height);
  }
  return feet;
}

/**
 * For each font (by `keyOf`; undefined: a font not looked at), where its words' feet lie (FootDepths), from the
 * middle of what its lines show: its flat words' heights, and the feet of other words against the flat ones' in
 * lines holding both.
 */
export function footDepths<Item extends { words?: readonly WordBox[] | undefined }>(
  pages: readonly { textItems: readonly Item[] }[],
  keyOf: (item: Item) => string | undefined,
): Map<string, FootDepths> {
  const seen = new Map<string, { heights: number[]; under: Record<Reach, number[]> }>();
  for (const page of pages) {
    for (const item of page.textItems) {
      if (!item.words || item.words.length === 0) continue;
      const key = keyOf(item);
      if (key === undefined) continue;
      let font = seen.get(key);
      if (!font) seen.set(key, (font = { heights: [], under: { flat: [], descender: [], mark: [], square: [] } }));
      const feet = feetByReach(item.words, font.heights);
      if (feet.flat.length === 0 || feet.flat.length === item.words.length) continue;
      const flat = median(feet.flat);
      for (const reach of REACHES) if (reach !== 'flat' && feet[reach].length > 0) font.under[reach].push(median(feet[reach]) - flat);
    }
  }
  const out = new Map<string, FootDepths>();
  for (const [key, { heights, under }] of seen) {
    if (heights.length === 0) continue;
    const depths: FootDepths = { flat: FLAT_SHARE * median(heights), under: {} };
    for (const reach of REACHES) if (under[reach].length > 0) depths.under[reach] = median(under[reach]);
    out.set(key, depths);
  }
  return out;
}

/**
 * The line position of an item in a font whose boxes are cut to the glyphs: its flat words' feet (the middle one: a
 * round letter's overshoot aside), else its other words' feet less their font's depth, each less the flat feet's
 * depth under the baseline. Undefined where neither is
 * known (another script, a font whose lines never show the depth).
 */
export function glyphBoxBaseline(words: readonly WordBox[] | undefined, depths: FootDepths | undefined): number | undefined {
  if (!words || words.length === 0) return undefined;
  if (!depths) return undefined;
  const feet = feetByReach(words);
  const below = depths.flat;
  if (feet.flat.length > 0) return median(feet.flat) - below;
  for (const reach of REACHES) {
    const depth = depths.under[reach];
    if (feet[reach].length > 0 && depth !== undefined) return median(feet[reach]) - depth - below;
  }
  return undefined;
}
