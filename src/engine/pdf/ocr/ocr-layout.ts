/**
 * Recognised words → the page layout the text layer gets: each word becomes a text item in page units
 * (viewport space, top-left origin), so lines, paragraphs, columns, lists and tables are found by the same code
 * as for native text; each block then carries the mean confidence of its words. Pure.
 */
import { layoutPage, type PageLayout } from '../page-layout.js';
import type { PdfTextItem, Rect } from '../types.js';
import type { OcrLine } from './tesseract.js';

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

/** A page's OCR result as a layout; null when no word was recognised. */
export function layoutOcrPage(lines: readonly OcrLine[], scale: number, width: number, height: number): PageLayout | null {
  const scored = ocrItems(lines, scale);
  if (scored.length === 0) return null;
  const layout = layoutPage({ items: scored.map((entry) => entry.item), width, height });
  blockConfidences(layout, scored);
  return layout;
}
