/**
 * pdfjs text content → normalised items in top-down page space. Horizontal text goes to the layout; rotated
 * text (the vertical arXiv stamp in a margin, rotated table headers) is kept apart and read line by line.
 */
import { squareOf, turnOf, type Turn } from './page-turns.js';
import type { PdfTextItem } from './types.js';
import { countCodePointsBesideSpaces } from './white-space.js';
import { withShiftedLettersBack } from './shifted-letters.js';
import { symbolFontText } from './symbol-font-text.js';

/** The fields of a pdfjs `TextItem` this module reads (structural, so tests need no pdfjs). */
export interface RawTextItem {
  str: string;
  dir?: string;
  transform: number[];
  width: number;
  height?: number;
  fontName: string;
  hasEOL?: boolean;
}

export interface FontStyle {
  bold: boolean;
  monospace: boolean;
  /** The Symbol font, whose private-use code points are read as its encoding's characters (symbol-font-text.ts). */
  symbol?: boolean;
}

/** Text drawn at an angle: one item with its direction. */
export interface RotatedItem {
  str: string;
  /** Start point (viewport space), unit direction of the advance, font size and advance length. */
  x: number;
  y: number;
  dx: number;
  dy: number;
  size: number;
  length: number;
}

export interface NormalisedItems {
  items: PdfTextItem[];
  rotated: RotatedItem[];
  /** Non-space characters on the page, horizontal and rotated. */
  chars: number;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g;
const WHITESPACE_ONLY = /^\s*$/;

export function multiply(m1: readonly number[], m2: readonly number[]): number[] {
  const [a1 = 0, b1 = 0, c1 = 0, d1 = 0, e1 = 0, f1 = 0] = m1;
  const [a2 = 0, b2 = 0, c2 = 0, d2 = 0, e2 = 0, f2 = 0] = m2;
  return [
    a1 * a2 + c1 * b2,
    b1 * a2 + d1 * b2,
    a1 * c2 + c1 * d2,
    b1 * c2 + d1 * d2,
    a1 * e2 + c1 * f2 + e1,
    b1 * e2 + d1 * f2 + f1,
  ];
}

/**
 * Normalises one page's pdfjs items. `viewportTransform` maps PDF user space to the top-down viewport (pdfjs
 * `viewport.transform` at scale 1); `styleOf` gives each font's weight and pitch.
 */
export function normaliseItems(
  raw: readonly RawTextItem[],
  viewportTransform: readonly number[],
  styleOf: (fontName: string) => FontStyle,
): NormalisedItems {
  const items: PdfTextItem[] = [];
  const rotated: RotatedItem[] = [];
  let chars = 0;
  let pendingSpace = false;
  const spacesInWords = fontsWithSpacesInWords(raw);
  for (const item of raw) {
    if (typeof item.str !== 'string' || !Array.isArray(item.transform)) continue;
    const str = item.str.replace(CONTROL, '');
    if (WHITESPACE_ONLY.test(str)) {
      if (str.length > 0) pendingSpace = true;
      if (item.hasEOL) pendingSpace = false;
      continue;
    }
    const m = multiply(viewportTransform, item.transform);
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = m;
    const size = Math.hypot(c, d) || Math.hypot(a, b);
    const scaleX = Math.hypot(a, b);
    if (!(size > 0) || !Number.isFinite(size) || !Number.isFinite(e) || !Number.isFinite(f)) continue;
    const trimmedStart = str.replace(/^\s+/, '');
    const text = trimmedStart.replace(/\s+$/, '');
    const leading = str.length - trimmedStart.length;
    const trailing = trimmedStart.length - text.length;
    const width = Number.isFinite(item.width) && item.width > 0 ? item.width : 0;
    const perChar = str.length > 0 ? width / str.length : 0;
    chars += countCodePointsBesideSpaces(text, true);
    const horizontal = a > 0 && Math.abs(b) <= 0.1 * scaleX && Math.abs(c) <= 0.1 * size;
    if (!horizontal) {
      const length = width;
      rotated.push({ str: text, x: e, y: f, dx: a / (scaleX || 1), dy: b / (scaleX || 1), size, length });
      pendingSpace = false;
      continue;
    }
    const style = styleOf(item.fontName);
    const x0 = e + leading * perChar;
    // A space drawn inside the word's place (an OCR layer's, fontsWithSpacesInWords) is part of the word's box.
    const x1 = Math.max(x0, e + width - trailing * perChar + (spacesInWords?.has(item.fontName) ? letterWidth(item) : 0));
    items.push({
      str: style.symbol ? symbolFontText(text) : withShiftedLettersBack(text),
      x0,
      x1,
      baseline: f,
      size,
      fontName: item.fontName,
      bold: style.bold,
      monospace: style.monospace,
      rtl: item.dir === 'rtl',
      spaceBefore: pendingSpace || leading > 0,
    });
    pendingSpace = trailing > 0;
    if (item.hasEOL) pendingSpace = false;
  }
  return { items, rotated, chars };
}

/** Horizontal scalings this far from 1 are a word fitted to its place (`Tz`). */
const FITTED = 0.1;
/** Words of a font fitted this often, and this share of its gaps a letter wide at least, hold their spaces. */
const FEW_FITTED = 3;
const SPACED_GAPS = 0.95;

/** The average width of the item's letters. */
function letterWidth(item: RawTextItem): number {
  return item.width / Math.max(1, [...item.str.trim()].length);
}

/**
 * The fonts whose words are each drawn with their space fitted into the word's place: tesseract's OCR layer scales
 * each word, its letters and the space after them, to the width of the word on the scan, so the word's letters
 * alone stop a letter short of it (liteparse/scaled-type.ts reads LiteParse's words so). Told by words fitted with
 * a horizontal scaling of their own, each standing at least a letter's width from the next (the space fitted with
 * it, then the gap on the scan); a word space is narrower than a letter, so where a writer fits the word alone and
 * its space apart (OCRmyPDF's own renderer), most words stand closer.
 * Undefined when no font draws so.
 */
function fontsWithSpacesInWords(raw: readonly RawTextItem[]): Set<string> | undefined {
  let fitted: Map<string, { items: number; gaps: number; spaced: number }> | undefined;
  for (let i = 0; i < raw.length; i++) {
    const item = raw[i]!;
    const [a = 0, b = 0, c = 0, d = 0] = item.transform;
    const scaleX = Math.hypot(a, b);
    const size = Math.hypot(c, d);
    if (!(size > 0) || Math.abs(scaleX / size - 1) <= FITTED) continue;
    fitted ??= new Map();
    let count = fitted.get(item.fontName);
    if (!count) fitted.set(item.fontName, (count = { items: 0, gaps: 0, spaced: 0 }));
    count.items++;
    const next = raw[i + 1];
    if (!next || next.fontName !== item.fontName || !(item.width > 0)) continue;
    // Along the line, in the item's own space: where the next word starts past the letters' end.
    const dx = (next.transform[4] ?? 0) - (item.transform[4] ?? 0);
    const dy = (next.transform[5] ?? 0) - (item.transform[5] ?? 0);
    const along = (dx * a + dy * b) / scaleX;
    if (Math.abs(dx * b - dy * a) / scaleX > size || along <= 0) continue;
    count.gaps++;
    // A word space is narrower than a letter on average; a space drawn as wide as a letter and a gap, fitted.
    if (along - item.width >= SPACED_GAPS * letterWidth(item)) count.spaced++;
  }
  if (!fitted) return undefined;
  let fonts: Set<string> | undefined;
  for (const [name, { items, gaps, spaced }] of fitted) {
    if (items >= FEW_FITTED && gaps >= FEW_FITTED && spaced >= SPACED_GAPS * gaps) (fonts ??= new Set()).add(name);
  }
  return fonts;
}

/** Weight from a PostScript font name: Bold, Black, Heavy, Semibold/Demi, Medium, TeX's CMBX/SFBX. */
export function isBoldFontName(name: string | undefined | null): boolean {
  if (!name) return false;
  const base = name.replace(/^[A-Z]{6}\+/, '');
  if (/bold|black|heavy|demi|semi-?bd|extra-?bd|ultra-?bd|medi(um)?\b|medi$/i.test(base)) return true;
  if (/[-,_ ](bd|b|sb|hv|blk)$/i.test(base)) return true;
  if (/(^|[^a-z])(cm|sf|ec|tc|lm)?bx(\d|$)|^cmb\d|^cmssbx|lmroman\d+-bold/i.test(base)) return true;
  if (/[^aeiou]bd$/i.test(base)) return true;
  return false;
}

/** Share of a line's characters in a monospaced font from which it is code on a page of proportional text. */
export const CODE_LINE_SHARE = 0.8;

/** A heading's type is this much larger than its text's, at the least (12.5 pt over 11 pt, 12 pt over 11 pt). */
export const HEADING_SIZE_STEP = 1.08;

/** The share of the items' characters set in a monospaced font (0 for none). */
export function monospaceShare(items: readonly PdfTextItem[]): number {
  let all = 0;
  let mono = 0;
  for (const item of items) {
    const chars = item.str.length;
    all += chars;
    if (item.monospace) mono += chars;
  }
  return all > 0 ? mono / all : 0;
}

/** A monospace family from a PostScript font name (the subset tag is not part of the name). */
export function isMonospaceFontName(name: string | undefined | null): boolean {
  if (!name) return false;
  const base = name.replace(/^[A-Z]{6}\+/, '');
  return /courier|mono|consol|menlo|cmtt|sftt|typewriter|fixed|lucida ?console|inconsolata|sourcecode|firacode|jetbrains|nimbusmon|cmsltt|cmitt|cmvtt|sfsltt|sfitt/i.test(
    base,
  );
}

/**
 * Which way the page's text runs in the viewport its items were normalised in (page-turns.ts): the turned
 * direction most of its characters take, else 0.
 */
export function itemsTurn(normalised: NormalisedItems): Turn {
  if (normalised.rotated.length === 0) return 0;
  const chars = [0, 0, 0, 0];
  let turned = 0;
  for (const item of normalised.rotated) {
    const n = countCodePointsBesideSpaces(item.str, true);
    turned += n;
    const square = squareOf((Math.atan2(item.dy, item.dx) * 180) / Math.PI);
    if (square >= 0) chars[square / 90]! += n;
  }
  chars[0]! += normalised.chars - turned;
  return turnOf(chars, normalised.chars);
}
