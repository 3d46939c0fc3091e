/**
 * Blocks whose glyphs map to nothing readable on a page whose other text reads well: a heading or a paragraph set
 * in a font whose ToUnicode map gives U+FFFD or private-use code points (a writer that copied a font mapped only
 * through its own encoding, as pdftocairo and some print drivers do; a Type 3 font without a map). The page as a
 * whole is not garbage (text-quality.ts), so mode auto does not read it again by OCR, and those blocks came out as
 * `����� �������`. Mode auto reads each such block again by OCR, rendered at the resolution its type size needs,
 * and the block keeps its place, its size and its weight: a heading stays a heading at its level. A block with
 * only a few lost words among readable ones (`commonly called the ����`) is read again too, and only those words
 * are replaced, where the words around them in both readings agree (`patchLostWords`). Pure, but for the reader it
 * is given.
 */
import { isCaptionText } from '../captions.js';
import { escapeMarkdownText } from '../markdown.js';
import { HYPHEN_MARK } from '../paragraphs.js';
import type { ProtoBlock, Rect } from '../types.js';
import { countCodePointsBesideSpaces } from '../white-space.js';
import { lineConfidence, readableLines } from './ocr-layout.js';
import type { OcrLine } from './ocr-line.js';
import { textLayerCounts } from './text-quality.js';

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

/** The block's text: how many of its non-space characters are unreadable, of how many (its hyphen marks aside). */
function garbledShare(text: string): { chars: number; garbled: number } {
  const { chars, unreadable } = textLayerCounts([text.includes(HYPHEN_MARK) ? text.replaceAll(HYPHEN_MARK, '') : text]);
  return { chars, garbled: unreadable };
}

/**
 * A glyph the text layer lost: U+FFFD or a control character. A private-use code point is not counted here: among
 * readable words it is most often a symbol font's glyph (a bullet, a Greek letter), which OCR would misread.
 */
function isLostGlyph(code: number): boolean {
  // A tab or a line break is how a block's text sets its lines or cells apart, not a lost glyph.
  if (code === 0x09 || code === 0x0a || code === 0x0d) return false;
  return code === 0xfffd || code < 0x20 || (code >= 0x7f && code < 0xa0);
}

function lostGlyphs(word: string): number {
  let count = 0;
  for (const char of word) if (isLostGlyph(char.codePointAt(0) ?? 0)) count++;
  return count;
}

/**
 * Whether the block is prose with lost glyphs among readable words (read again word by word): one is enough, as
 * in a word whose ligature the font's map left out (`signi�cant`).
 */
function isPartlyGarbled(block: ProtoBlock): boolean {
  return mayReadAgain(block) && lostGlyphs(block.text) > 0;
}

/**
 * A character that may be unreadable (control, private-use, U+FFFD; a supplementary private-use one by its high
 * surrogate): one test of a block's text, made for every block of every page, before its characters are counted.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const SUSPECT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ue000-\uf8ff\ufffd\udb80-\udbff]/;

/** A block of prose, read from the text layer and not read again yet, whose text holds a character that may be unreadable. */
function mayReadAgain(block: ProtoBlock): boolean {
  return SUSPECT.test(block.text) && READABLE_KINDS.has(block.kind) && !block.furniture && block.source === undefined && !block.readAgain;
}

/** Whether the block is prose most of whose characters are unreadable. */
function isGarbled(block: ProtoBlock): boolean {
  if (!mayReadAgain(block)) return false;
  const { chars, garbled } = garbledShare(block.text);
  return garbled >= MIN_GARBLED_CHARS && garbled >= GARBLED_SHARE * chars;
}

/**
 * The indexes of the page's blocks to read again by OCR, mostly garbled or with a few lost words; none when there
 * are too many for a page that reads well.
 */
export function garbledBlocks(blocks: readonly ProtoBlock[]): number[] {
  const found: number[] = [];
  for (const [index, block] of blocks.entries()) if (isGarbled(block) || isPartlyGarbled(block)) found.push(index);
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
    else if (garbledShare(block.text).garbled >= MIN_GARBLED_CHARS && !isPartlyGarbled(block)) return false;
  }
  return garbled > 0 && garbled <= MAX_BLOCKS;
}

/** Whether any of the page's blocks is still garbled (a page's warning: its text could not be read). */
export function holdsGarbledText(blocks: readonly ProtoBlock[]): boolean {
  return blocks.some((block) => isGarbled(block) || isPartlyGarbled(block));
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

/** OCR's reading of a block: its readable lines top to bottom, and their mean confidence (weighted by characters). */
interface Reading {
  lines: OcrLine[];
  confidence: number;
}

/** The block's reading; undefined when it is empty or below `MIN_CONFIDENCE`. */
function sureReading(lines: readonly OcrLine[]): Reading | undefined {
  const readable = readableLines(lines).toSorted((a, b) => a.baseline.y0 - b.baseline.y0);
  let weight = 0;
  let sum = 0;
  for (const line of readable) {
    const chars = line.words.reduce((total, word) => total + word.text.length, 0);
    weight += chars;
    sum += lineConfidence(line) * chars;
  }
  if (weight === 0 || sum / weight < MIN_CONFIDENCE) return undefined;
  return { lines: readable, confidence: sum / weight };
}

/**
 * A reading as one text. A word broken at a line-end hyphen is marked as the page layout marks one (HYPHEN_MARK),
 * for the document's words to decide whether the hyphen stays.
 */
function readingText(reading: Reading): string {
  let text = '';
  for (const line of reading.lines) {
    const words = line.words.map((word) => word.text).join(' ');
    text = text === '' ? words : BROKEN_AT_HYPHEN.test(text) && /^\p{L}/u.test(words) ? text.slice(0, -1) + HYPHEN_MARK + words : `${text} ${words}`;
  }
  return text;
}

/** A run of the text layer's words holding lost glyphs, and OCR's words that replace it. */
export interface LostWordsPatch {
  from: string[];
  to: string[];
}

/** A word as the two readings are compared: its letters and digits, in lower case and compatibility form. */
function comparable(word: string): string {
  return word.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** The pairs of words the two readings share, in order (a longest common subsequence): [layer index, OCR index]. */
function sharedWords(layer: readonly string[], ocr: readonly string[]): [number, number][] {
  const n = layer.length;
  const m = ocr.length;
  const table = new Uint16Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[at(i, j)] = layer[i] !== '' && layer[i] === ocr[j] ? table[at(i + 1, j + 1)]! + 1 : Math.max(table[at(i + 1, j)]!, table[at(i, j + 1)]!);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (layer[i] !== '' && layer[i] === ocr[j]) pairs.push([i++, j++]);
    else if (table[at(i + 1, j)]! >= table[at(i, j + 1)]!) i++;
    else j++;
  }
  return pairs;
}

/**
 * The block's words with its lost ones replaced by what OCR read in their place: a run of words holding lost
 * glyphs is replaced only where the words right before and right after it (or the block's start or end) are words
 * both readings share, and by at most twice as many words plus one, each read with `MIN_CONFIDENCE` at least and
 * none unreadable. The other words stay the text layer's. Undefined when no run could be replaced; else each
 * replaced run's words and what replaces them.
 */
export function patchLostWords(text: string, ocrWords: readonly { text: string; confidence: number }[]): LostWordsPatch[] | undefined {
  const words = text.split(/\s+/).filter((word) => word !== '');
  const lost = words.map((word) => lostGlyphs(word) > 0);
  const pairs = sharedWords(
    words.map((word, i) => (lost[i] ? '' : comparable(word))),
    ocrWords.map((word) => comparable(word.text)),
  );
  const partner = new Map(pairs);
  const patches: LostWordsPatch[] = [];
  for (let start = 0; start < words.length; start++) {
    if (!lost[start]) continue;
    let end = start;
    while (end < words.length && lost[end]) end++;
    const before = start === 0 ? -1 : partner.get(start - 1);
    const after = end === words.length ? ocrWords.length : partner.get(end);
    if (before !== undefined && after !== undefined) {
      const read = ocrWords.slice(before + 1, after);
      const sure = read.every((word) => word.confidence >= MIN_CONFIDENCE && garbledShare(word.text).garbled === 0);
      if (read.length > 0 && read.length <= 2 * (end - start) + 1 && sure) patches.push({ from: words.slice(start, end), to: read.map((word) => word.text) });
    }
    start = end;
  }
  return patches.length > 0 ? patches : undefined;
}

/** `text` with each patch's words replaced in turn, each looked for after the last; undefined if one is not found. */
function applyPatches(text: string, patches: readonly LostWordsPatch[], escape: (text: string) => string): string | undefined {
  let out = '';
  let rest = text;
  for (const { from, to } of patches) {
    const start = escape(from[0]!);
    const first = rest.indexOf(start);
    if (first < 0) return undefined;
    let end = first + start.length;
    for (const word of from.slice(1)) {
      const next = rest.indexOf(escape(word), end);
      if (next < 0) return undefined;
      end = next + escape(word).length;
    }
    out += rest.slice(0, first) + escape(to.join(' '));
    rest = rest.slice(end);
  }
  return out + rest;
}

/**
 * A margin line's cells with the patches' words replaced in them, in order: a running head whose page number
 * had lost its digits (`3��`) has its number standing apart again, which tells a running head (`numberApart`).
 */
function patchCells(cells: readonly { text: string; x0: number }[], patches: readonly LostWordsPatch[]): { text: string; x0: number }[] {
  const replacements = patches.flatMap(({ from, to }) => from.map((word, i) => ({ word, by: i === 0 ? to.join(' ') : '' })));
  let next = 0;
  return cells.map((cell) => {
    const words = cell.text.split(/\s+/).map((word) => {
      const replacement = replacements[next];
      if (!replacement || word !== replacement.word) return word;
      next++;
      return replacement.by;
    });
    return { ...cell, text: words.filter((word) => word !== '').join(' ') };
  });
}

const PAGE_NUMBER = /^\d{1,4}$/;

/** Reads the rendered regions by OCR, each on its own: the lines of each, in page order. */
export type RegionReader = (regions: readonly GarbledRegion[]) => Promise<OcrLine[][]>;

/** A mostly garbled block with OCR's reading as its text; undefined when the reading is empty or unsure. */
function readAgainWhole(block: ProtoBlock, lines: readonly OcrLine[]): ProtoBlock | undefined {
  const reading = sureReading(lines);
  if (!reading) return undefined;
  const text = readingText(reading);
  return {
    ...block,
    // What the text says of the block, as the page layout would have read it (a figure's caption).
    kind: block.kind === 'paragraph' && isCaptionText(text) ? 'caption' : block.kind,
    text,
    markdown: escapeMarkdownText(text),
    chars: countCodePointsBesideSpaces(text),
    readAgain: true,
    ocrConfidence: Math.round(reading.confidence * 1000) / 1000,
  };
}

/** A block with a few lost words, those words replaced by OCR's (`patchLostWords`); its Markdown keeps its formatting. */
function readAgainWordByWord(block: ProtoBlock, lines: readonly OcrLine[]): ProtoBlock | undefined {
  const reading = sureReading(lines);
  const patches = reading && patchLostWords(block.text, reading.lines.flatMap((line) => line.words));
  if (!patches) return undefined;
  const text = applyPatches(block.text, patches, (word) => word);
  const markdown = applyPatches(block.markdown, patches, escapeMarkdownText);
  if (text === undefined || markdown === undefined) return undefined;
  const patched: ProtoBlock = { ...block, text, markdown, chars: countCodePointsBesideSpaces(text) };
  if (block.zoneCells) {
    const cells = patchCells(block.zoneCells, patches);
    patched.zoneCells = cells;
    patched.numberApart = block.numberApart === true || PAGE_NUMBER.test(cells[0]!.text) || PAGE_NUMBER.test(cells.at(-1)!.text);
  }
  return patched;
}

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
    const block = blocks[index]!;
    const replaced = isGarbled(block) ? readAgainWhole(block, readings[n] ?? []) : readAgainWordByWord(block, readings[n] ?? []);
    if (!replaced) continue;
    out ??= [...blocks];
    out[index] = replaced;
  }
  return out;
}
