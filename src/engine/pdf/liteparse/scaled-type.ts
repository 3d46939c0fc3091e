/**
 * Type drawn narrower than its size: a PDF's horizontal scaling (`Tz`) stretches or squeezes glyphs across, not
 * up, but PDFium gives such an item the size of its narrowed em. An OCR text layer is drawn so: tesseract's (and
 * OCRmyPDF's) invisible words each get the scaling that fits the word it read into its place on the scan, 40 % to
 * 130 %, at the size of the line's height. Read at PDFium's sizes, a scan's headings came out smaller than its body
 * and a line's words of many sizes (`## 1. Minutes` a paragraph, a paragraph cut between its lines).
 *
 * The sign of it, item by item: the size PDFium gives is under the size set (`Tf`), while the item's box stands as
 * high as the font's ascent to descent at the size set (no text matrix scales it up or down). A font whose items'
 * boxes nearly all stand so, some of them narrowed, has those read at the size set. Not one item alone: a box may
 * reach the size set by chance (a font whose bounding box spans tall accents, a running head in Century).
 *
 * Tesseract also fits each word's space into the word's place, scaled with it: PDFium's box of the word, its
 * letters alone, stops short of the word on the scan by a letter's width (a column of figures flush right read
 * ragged, a table's cells apart). Where a scaled font's words always stand at least that far apart, their boxes
 * are given back the width of the space drawn in them. Not where a writer fits the word alone and scales the space
 * apart to the gap (OCRmyPDF's own renderer): there most words stand closer than that.
 */
import type { NativeTextItem } from './page-items.js';

/** An item's size under this share of the size set is narrowed. */
const NARROWED = 0.9;
/** Its box is the font's ascent to descent at the size set within this share. */
const BOX_AT_SIZE = 0.05;
/** The share of a font's items whose boxes stand at the size set, in a font drawn unscaled up or down. */
const NEARLY_ALL = 0.9;
/** Narrowed items a font must show: fewer may be chance. */
const FEW_ITEMS = 3;

/** The share of a font's gaps between words that must be a letter's width at least, where its spaces are in its words. */
const SPACED_GAPS = 0.95;

type WordBox = NonNullable<NativeTextItem['words']>[number];

/** The average width of a word's letters. */
function letterWidth(word: WordBox): number {
  return word.width / Math.max(1, [...word.text].length);
}

/** Whether the item's box stands as high as its font's ascent to descent at the size set. */
function boxAtSizeSet(item: NativeTextItem): boolean {
  const { fontSize, fontAscent, fontDescent, height } = item;
  if (fontSize === undefined || fontAscent === undefined || fontDescent === undefined || !(fontSize > 0)) return false;
  if ((item.rotation ?? 0) % 360 !== 0) return false;
  // Ascent and descent come at the size set: the box's height over them is the text matrix's vertical scale.
  const em = fontAscent - fontDescent;
  return em > 0 && Math.abs(height / em - 1) <= BOX_AT_SIZE;
}

function isNarrowed(item: NativeTextItem): boolean {
  return item.fontHeight !== undefined && item.fontHeight > 0 && item.fontHeight < NARROWED * item.fontSize!;
}

/** Gives the items of fonts drawn in narrowed type the size set (their `fontHeight`), in place. */
export function unscaleNarrowedType(pages: readonly { textItems: readonly NativeTextItem[] }[]): void {
  const counts = new Map<string, { items: number; atSize: number; narrowed: number }>();
  for (const page of pages) {
    for (const item of page.textItems) {
      const name = item.fontName ?? '';
      let count = counts.get(name);
      if (!count) counts.set(name, (count = { items: 0, atSize: 0, narrowed: 0 }));
      count.items++;
      if (!boxAtSizeSet(item)) continue;
      count.atSize++;
      if (isNarrowed(item)) count.narrowed++;
    }
  }
  const scaled = new Set<string>();
  for (const [name, { items, atSize, narrowed }] of counts) if (narrowed >= FEW_ITEMS && atSize >= NEARLY_ALL * items) scaled.add(name);
  if (scaled.size === 0) return;
  const gaps = new Map<string, { all: number; spaced: number }>();
  for (const page of pages) {
    for (const item of page.textItems) {
      const name = item.fontName ?? '';
      if (!scaled.has(name)) continue;
      // Every item of the font at the size set: those scaled less than NARROWED would stay apart by their scaling.
      if (boxAtSizeSet(item)) item.fontHeight = item.fontSize;
      const words = item.words ?? [];
      let count = gaps.get(name);
      if (!count) gaps.set(name, (count = { all: 0, spaced: 0 }));
      for (let i = 1; i < words.length; i++) {
        const word = words[i - 1]!;
        count.all++;
        if (words[i]!.x - (word.x + word.width) >= SPACED_GAPS * letterWidth(word)) count.spaced++;
      }
    }
  }
  for (const page of pages) {
    for (const item of page.textItems) {
      const count = gaps.get(item.fontName ?? '');
      if (!count || count.all < FEW_ITEMS || count.spaced < SPACED_GAPS * count.all) continue;
      widenWords(item);
    }
  }
}

/** The item's word boxes with the space drawn in each (all but a last word with no space after it). */
function widenWords(item: NativeTextItem): void {
  const words = item.words;
  if (!words || words.length === 0) return;
  const codes = item.charCodes;
  const spaceAfterLast = codes !== undefined && codes[codes.length - 1] === SPACE;
  for (let i = 0; i < words.length; i++) {
    if (i === words.length - 1 && !spaceAfterLast) break;
    const word = words[i]!;
    word.width += letterWidth(word);
  }
  const last = words[words.length - 1]!;
  item.width = Math.max(item.width, last.x + last.width - item.x);
}

const SPACE = 0x20;
