/**
 * Blocks whose glyphs map to nothing readable on a page whose other text reads well: a heading or a paragraph set
 * in a font whose ToUnicode map gives U+FFFD or private-use code points (a writer that copied a font mapped only
 * through its own encoding, as pdftocairo and some print drivers do; a Type 3 font without a map). The page as a
 * whole is not garbage (text-quality.ts), so mode auto does not read it again by OCR, and those blocks came out as
 * `����� �������`. Mode auto reads each such block again by OCR, rendered at the resolution its type size needs,
 * and the block keeps its place, its size and its weight: a heading stays a heading at its level. Pure, but for
 * the reader it is given.
 */
import { isCaptionText } from '../captions.js';
import { escapeMarkdownText } from '../markdown.js';
import { HYPHEN_MARK } from '../paragraphs.js';
import type { ProtoBlock, Rect } from '../types.js';
import { countCodePointsBesideSpaces } from '../white-space.js';
import { lineConfidence, readableLines } from './ocr-layout.js';
import type { OcrLine } from './ocr-line.js';
import { unreadable } from './text-quality.js';

/** A block is read again when at least this share of its characters (spaces aside) is unreadable… */
const GARBLED_SHARE = 0.5;
/** …and at least this many of them are: a lone private-use bullet or symbol is not a lost text. */
const MIN_GARBLED_CHARS = 2;
/** Kinds whose text is plain prose (a heading is a paragraph until the document's headings are decided). */
const READABLE_KINDS: ReadonlySet<ProtoBlock['kind']> = new Set(['paragraph', 'caption']);
/** At most this many blocks a page: a page with more is garbage as a whole, and read so. */
const MAX_BLOCKS = 40;

/**
 * A line is rendered so that its type is about this many pixels high: tesseract reads body text best with a
 * capital height of 20 to 30 pixels (10-pt type: 260 DPI), and a heading needs no more than that either.
 */
const TARGET_TYPE_PIXELS = 36;
const MIN_DPI = 150;
const MAX_DPI = 400;

/**
 * A reading of OCR below this mean confidence (its words' confidences weighted by their characters) is not kept:
 * tesseract reading a script it has no model for (Korean with the English model) answers 0.3–0.6, a line of
 * printed Latin text over 0.9. The block then stays as it was: unreadable, rather than wrong.
 */
const MIN_CONFIDENCE = 0.7;

/** The block's text: how many of its non-space characters are unreadable, of how many. */
function garbledShare(text: string): { chars: number; garbled: number } {
  let chars = 0;
  let garbled = 0;
  for (const char of text) {
    if (char === ' ' || char === '\n' || char === '\t' || char === '\u00a0') continue;
    chars++;
    if (unreadable(char.codePointAt(0) ?? 0)) garbled++;
  }
  return { chars, garbled };
}

/** Whether the block is prose most of whose characters are unreadable. */
function isGarbled(block: ProtoBlock): boolean {
  if (!READABLE_KINDS.has(block.kind) || block.furniture || block.source !== undefined || block.readAgain) return false;
  const { chars, garbled } = garbledShare(block.text);
  return garbled >= MIN_GARBLED_CHARS && garbled >= GARBLED_SHARE * chars;
}

/** The indexes of the page's blocks to read again by OCR; none when there are too many for a page that reads well. */
export function garbledBlocks(blocks: readonly ProtoBlock[]): number[] {
  const found: number[] = [];
  for (const [index, block] of blocks.entries()) if (isGarbled(block)) found.push(index);
  return found.length > MAX_BLOCKS ? [] : found;
}

/**
 * Whether a page whose text layer is garbage as a whole (text-quality.ts) is better read block by block than by
 * OCR of the whole page: every block holding unreadable text is prose (a table's or a list's stays for the page's
 * OCR, which finds their cells and items again), and they are few enough. Its layout then stays the text layer's:
 * the columns, the paragraphs and the headings that fonts and sizes tell, which a page's OCR cannot (a bold heading
 * at the body's size is body text to it).
 */
export function readableBlockByBlock(blocks: readonly ProtoBlock[]): boolean {
  let garbled = 0;
  for (const block of blocks) {
    if (block.furniture) continue;
    if (isGarbled(block)) garbled++;
    else if (garbledShare(block.text).garbled >= MIN_GARBLED_CHARS) return false;
  }
  return garbled > 0 && garbled <= MAX_BLOCKS;
}

/** Whether any of the page's blocks is still garbled (a page's warning: its text could not be read). */
export function holdsGarbledText(blocks: readonly ProtoBlock[]): boolean {
  return blocks.some(isGarbled);
}

/** One block to read: its rectangle with a margin (page units) and the resolution its type size needs. */
export interface GarbledRegion {
  rect: Rect;
  dpi: number;
}

/** Where and at what resolution to render a block: its glyphs' box widened by a part of its type size, inside the page. */
export function garbledRegion(block: ProtoBlock, width: number, height: number): GarbledRegion {
  const size = block.size > 0 ? block.size : 10;
  const dpi = Math.round(Math.min(MAX_DPI, Math.max(MIN_DPI, (TARGET_TYPE_PIXELS * 72) / size)));
  const dx = 0.5 * size;
  const dy = 0.3 * size;
  const { x0, y0, x1, y1 } = block.rect;
  return {
    rect: { x0: Math.max(0, x0 - dx), y0: Math.max(0, y0 - dy), x1: Math.min(width, x1 + dx), y1: Math.min(height, y1 + dy) },
    dpi,
  };
}

/** A line that ends in a word broken at a hyphen. */
const BROKEN_AT_HYPHEN = /\p{L}-$/u;

/**
 * OCR's reading of a block as one text: its readable lines top to bottom. A word broken at a line-end hyphen is
 * marked as the page layout marks one (HYPHEN_MARK), for the document's words to decide whether the hyphen stays.
 */
export function readingText(lines: readonly OcrLine[]): { text: string; confidence: number } | undefined {
  const readable = readableLines(lines).toSorted((a, b) => a.baseline.y0 - b.baseline.y0);
  let text = '';
  let weight = 0;
  let sum = 0;
  for (const line of readable) {
    const words = line.words.map((word) => word.text).join(' ');
    text = text === '' ? words : BROKEN_AT_HYPHEN.test(text) && /^\p{L}/u.test(words) ? text.slice(0, -1) + HYPHEN_MARK + words : `${text} ${words}`;
    const chars = line.words.reduce((total, word) => total + word.text.length, 0);
    weight += chars;
    sum += lineConfidence(line) * chars;
  }
  if (text === '' || weight === 0) return undefined;
  return { text, confidence: sum / weight };
}

/** Reads the rendered regions by OCR, each on its own: the lines of each, in page order. */
export type RegionReader = (regions: readonly GarbledRegion[]) => Promise<OcrLine[][]>;

/**
 * The page's blocks with their garbled ones read again (`read` renders and recognises them); a block whose reading
 * is unsure, or empty, stays as it was. The blocks given are not changed; undefined when none was read again.
 */
export async function readGarbledBlocks(blocks: readonly ProtoBlock[], width: number, height: number, read: RegionReader): Promise<ProtoBlock[] | undefined> {
  const indexes = garbledBlocks(blocks);
  if (indexes.length === 0) return undefined;
  const readings = await read(indexes.map((index) => garbledRegion(blocks[index]!, width, height)));
  let out: ProtoBlock[] | undefined;
  for (const [n, index] of indexes.entries()) {
    const reading = readingText(readings[n] ?? []);
    if (!reading || reading.confidence < MIN_CONFIDENCE) continue;
    out ??= [...blocks];
    const confidence = Math.round(reading.confidence * 1000) / 1000;
    const block = blocks[index]!;
    out[index] = {
      ...block,
      // What the text says of the block, as the page layout would have read it (a figure's caption).
      kind: block.kind === 'paragraph' && isCaptionText(reading.text) ? 'caption' : block.kind,
      text: reading.text,
      markdown: escapeMarkdownText(reading.text),
      chars: countCodePointsBesideSpaces(reading.text),
      readAgain: true,
      ocrConfidence: confidence,
    };
  }
  return out;
}
