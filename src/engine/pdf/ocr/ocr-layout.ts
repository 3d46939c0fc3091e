/**
 * Recognised words → the page layout the text layer gets: each word becomes a text item in page units
 * (viewport space, top-left origin), so lines, paragraphs, columns, lists and tables are found by the same code
 * as for native text; each block then carries the mean confidence of its words. Pure.
 */
import { layoutPage, type PageLayout } from '../page-layout.js';
import type { Ruling } from '../rulings.js';
import { beforeRightCaption } from '../side-captions.js';
import type { PdfTextItem, ProtoBlock, Rect } from '../types.js';
import type { OcrLine } from './tesseract.js';
import { squaredLines } from './squared-lines.js';
import type { OcrWord } from './ocr-line.js';

export const OCR_FONT = 'ocr';

interface ScoredItem {
  item: PdfTextItem;
  confidence: number;
}

/** The line's baseline (bitmap pixels) at `x`, following its slope. */
function baselineAt(line: OcrLine, x: number): number {
  const { x0, y0, x1, y1 } = line.baseline;
  if (!(x1 > x0)) return y0;
  return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}

/** Words → items in page units; `scale` is bitmap pixels per point. */
export function ocrItems(lines: readonly OcrLine[], scale: number): ScoredItem[] {
  const out: ScoredItem[] = [];
  for (const line of lines) {
    const size = Math.max(1, line.rowHeight) / scale;
    line.words.forEach((word, index) => {
      const baseline = Math.max(baselineAt(line, (word.x0 + word.x1) / 2), word.y0);
      out.push({
        item: {
          str: word.text,
          x0: word.x0 / scale,
          x1: word.x1 / scale,
          baseline: baseline / scale,
          size,
          fontName: OCR_FONT,
          bold: false,
          monospace: false,
          rtl: line.rtl,
          spaceBefore: index > 0,
        },
        confidence: word.confidence,
      });
    });
  }
  return out;
}

function inside(item: PdfTextItem, rect: Rect): boolean {
  const x = (item.x0 + item.x1) / 2;
  const y = item.baseline - 0.3 * item.size;
  const slack = 0.5 * item.size;
  return x >= rect.x0 - slack && x <= rect.x1 + slack && y >= rect.y0 - slack && y <= rect.y1 + slack;
}

/** The mean confidence (weighted by characters) of the words in each block, 0..1, rounded to 3 places. */
function blockConfidences(layout: PageLayout, scored: readonly ScoredItem[]): void {
  for (const block of layout.blocks) {
    let weight = 0;
    let sum = 0;
    for (const { item, confidence } of scored) {
      if (!inside(item, block.rect)) continue;
      weight += item.str.length;
      sum += confidence * item.str.length;
    }
    block.ocrConfidence = weight > 0 ? Math.round((sum / weight) * 1000) / 1000 : null;
  }
}

/**
 * A line of a page's reading that tesseract is this unsure of on average (its words' confidences weighted by their
 * characters) is not text: a photo's texture or a drawing read as marks ("ee ee Tee a", "h, Js i ! e # $ %", read at
 * 0.10 to 0.48 on a slide's photo of a keyboard), where the lines of a scan read at 0.93 to 0.96 (the test corpus's
 * ocr_test.pdf and loremipsum-flat.pdf: none of their lines under 0.9).
 */
const MIN_PAGE_LINE_CONFIDENCE = 0.5;

export function lineConfidence(line: OcrLine): number {
  let weight = 0;
  let sum = 0;
  for (const word of line.words) {
    weight += word.text.length;
    sum += word.confidence * word.text.length;
  }
  return weight > 0 ? sum / weight : 0;
}

/**
 * The lines of a page's reading that are text: those read with `MIN_PAGE_LINE_CONFIDENCE` at least, without their
 * unsure words of marks alone (no letter or digit, under `MIN_REGION_WORD_CONFIDENCE`: a "|" or a "¢" for a bullet).
 */
export function readableLines(lines: readonly OcrLine[]): OcrLine[] {
  const readable: OcrLine[] = [];
  for (const line of lines) {
    if (lineConfidence(line) < MIN_PAGE_LINE_CONFIDENCE) continue;
    const words = line.words.filter((word) => WORDLIKE.test(word.text) || word.confidence >= MIN_REGION_WORD_CONFIDENCE);
    if (words.length > 0) readable.push(words.length === line.words.length ? line : { ...line, words });
  }
  return readable;
}

/**
 * A page's OCR result as a layout, its readable lines only (`readableLines`); null when none was recognised.
 * `rulings`: the rules taken out of the page's picture before OCR (bitmap-rules.ts), page units, from which its
 * ruled tables are built.
 */
export function layoutOcrPage(lines: readonly OcrLine[], scale: number, width: number, height: number, rulings: readonly Ruling[] = []): PageLayout | null {
  const scored = ocrItems(squaredLines(readableLines(lines)), scale);
  if (scored.length === 0) return null;
  const layout = layoutPage({ items: scored.map((entry) => entry.item), rulings, width, height });
  blockConfidences(layout, scored);
  return layout;
}

export const LAYOUT_OCR_SOURCE = 'layout_ocr';

/**
 * In an image region of a text page, a word is kept only when tesseract is at least this sure of it and it holds
 * a letter or a digit: a photo or a chart's texture read as text gives short, unsure "words" of marks. Inside a
 * ruled grid the floor does not apply (`keptWord`).
 */
export const MIN_REGION_WORD_CONFIDENCE = 0.6;
/** A region block of fewer characters (after the word filter) is dropped as noise. */
const MIN_REGION_BLOCK_CHARS = 3;
const WORDLIKE = /[\p{L}\p{N}]/u;
/** Rules each way that make a region's rules a table's grid: two rows and two columns of cells at least. */
const GRID_RULES = 3;

/**
 * Where the rules of a region draw a grid (bitmap pixels, as its words), or undefined: the span of its vertical
 * rules across by that of its horizontal ones, when there are `GRID_RULES` of each.
 */
function gridBox(rulings: readonly Ruling[], scale: number, origin: { x: number; y: number }): Rect | undefined {
  const across = rulings.filter((rule) => rule.y0 === rule.y1);
  const down = rulings.filter((rule) => rule.x0 === rule.x1);
  if (across.length < GRID_RULES || down.length < GRID_RULES) return undefined;
  const px = (value: number, from: number) => (value - from) * scale;
  return {
    x0: px(Math.min(...down.map((rule) => rule.x0)), origin.x),
    x1: px(Math.max(...down.map((rule) => rule.x0)), origin.x),
    y0: px(Math.min(...across.map((rule) => rule.y0)), origin.y),
    y1: px(Math.max(...across.map((rule) => rule.y0)), origin.y),
  };
}

/**
 * A band of a picture read for the lines of text between its photos (image-regions.ts `textBands`) gives, from the
 * photos' edges, lines of short unsure marks ("(Px", "A \"x a"); a line of text holds at least one word of this many
 * letters or digits that tesseract is this sure of.
 */
const SURE_WORD = { chars: 3, confidence: 0.75 } as const;

/** The lines that hold a word tesseract is sure of (`SURE_WORD`): what a band of a picture keeps. Pure. */
export function linesWithSureWords(lines: readonly OcrLine[]): OcrLine[] {
  return lines.filter((line) =>
    line.words.some((word) => word.confidence >= SURE_WORD.confidence && (word.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= SURE_WORD.chars),
  );
}

/** A word read in a cell of a ruled grid is the cell's text however unsure tesseract is of it (a "µL" it misreads). */
function keptWord(word: OcrWord, grid: Rect | undefined): boolean {
  if (!WORDLIKE.test(word.text)) return false;
  if (word.confidence >= MIN_REGION_WORD_CONFIDENCE) return true;
  if (!grid) return false;
  const x = (word.x0 + word.x1) / 2;
  const y = (word.y0 + word.y1) / 2;
  return x > grid.x0 && x < grid.x1 && y > grid.y0 && y < grid.y1;
}

/**
 * An image region's OCR result as blocks of the page (`source` layout_ocr, page units), words filtered as above;
 * `origin` is the region's top-left corner on the page and `scale` bitmap pixels per point; `rulings` the rules
 * taken out of the region's picture (page units), as for a page.
 */
export function layoutOcrRegion(
  lines: readonly OcrLine[],
  scale: number,
  origin: { x: number; y: number },
  width: number,
  height: number,
  rulings: readonly Ruling[] = [],
): ProtoBlock[] {
  const grid = gridBox(rulings, scale, origin);
  const kept = lines
    .map((line) => ({ ...line, words: line.words.filter((word) => keptWord(word, grid)) }))
    .filter((line) => line.words.length > 0);
  const scored = ocrItems(kept, scale);
  for (const { item } of scored) {
    item.x0 += origin.x;
    item.x1 += origin.x;
    item.baseline += origin.y;
  }
  if (scored.length === 0) return [];
  const layout = layoutPage({ items: scored.map((entry) => entry.item), rulings, width, height });
  blockConfidences(layout, scored);
  const blocks: ProtoBlock[] = [];
  for (const block of layout.blocks) {
    if (block.chars < MIN_REGION_BLOCK_CHARS) continue;
    // Text in a picture is neither a running head nor a heading of the document: no zone, read as it is.
    delete block.zone;
    delete block.numberApart;
    block.source = LAYOUT_OCR_SOURCE;
    blocks.push(block);
  }
  return blocks;
}

function overlapsHorizontally(p: Rect, q: Rect): boolean {
  return p.x0 < q.x1 && p.x1 > q.x0;
}

/**
 * The page's blocks with an image region's blocks in reading order: before the first block below the region's
 * top in the same column (horizontal overlap) or a caption beside it on its right, whichever comes first, else
 * after the last block above it in that column, else last.
 */
export function insertRegionBlocks(blocks: readonly ProtoBlock[], region: Rect, regionBlocks: readonly ProtoBlock[], pageWidth: number): ProtoBlock[] {
  if (regionBlocks.length === 0) return [...blocks];
  const out = [...blocks];
  let at = out.findIndex((block) => block.source === undefined && block.rect.y0 >= region.y0 - 1 && overlapsHorizontally(block.rect, region));
  // A caption beside the region on its right is read after it (side-captions.ts).
  const caption = beforeRightCaption(out, region, pageWidth, (block) => (block.kind === 'caption' && block.source === undefined ? block.rect : undefined));
  if (caption >= 0 && (at < 0 || caption < at)) at = caption;
  if (at < 0) {
    let last = -1;
    out.forEach((block, index) => {
      if (block.rect.y1 <= region.y0 + 1 && overlapsHorizontally(block.rect, region)) last = index;
    });
    at = last >= 0 ? last + 1 : out.length;
  }
  out.splice(at, 0, ...regionBlocks);
  return out;
}
