/**
 * When is a font's weight worth an operator list? pdfjs text content names fonts but not their weight; the
 * weight comes from the font object, which only an operator list (about a third more work for the page)
 * loads. Weight only changes decisions for short lines (heading candidates, paragraph breaks) set in a font
 * that is not the page's body font and not already set apart by size. Pure.
 */
import { clusterLines } from './lines.js';
import type { PdfTextItem } from './types.js';
import { argMax } from './measure.js';

const SHORT_LINE_WORDS = 15;
const WORD = /\p{L}{3}/u;

/**
 * The unknown fonts (not in `known`) whose weight could change the layout of this page: the dominant font of
 * some short line with a word in it, other than the page's body font, not monospaced, at less than 1.2× the
 * body size.
 */
export function fontsNeedingWeight(items: readonly PdfTextItem[], known: ReadonlySet<string>): Set<string> {
  const needed = new Set<string>();
  const unknownPresent = items.some((item) => !known.has(item.fontName));
  if (!unknownPresent) return needed;
  const fontChars = new Map<string, number>();
  const sizeChars = new Map<number, number>();
  for (const item of items) {
    const n = item.str.length;
    fontChars.set(item.fontName, (fontChars.get(item.fontName) ?? 0) + n);
    const size = Math.round(item.size * 2) / 2;
    sizeChars.set(size, (sizeChars.get(size) ?? 0) + n);
  }
  const bodyFont = argMax(fontChars);
  const bodySize = argMax(sizeChars) ?? 0;
  for (const cluster of clusterLines(items)) {
    let words = 0;
    const chars = new Map<string, number>();
    let size = 0;
    let mono = 0;
    let total = 0;
    for (const item of cluster) {
      words += item.str.split(/\s+/).filter(Boolean).length;
      chars.set(item.fontName, (chars.get(item.fontName) ?? 0) + item.str.length);
      size = Math.max(size, item.size);
      total += item.str.length;
      if (item.monospace) mono += item.str.length;
    }
    if (words > SHORT_LINE_WORDS || mono > 0.5 * total) continue;
    // Page numbers and formulas ("a2 + 8 = 12") are not headings: a heading has a word.
    if (!cluster.some((item) => WORD.test(item.str))) continue;
    const font = argMax(chars);
    if (font === undefined || known.has(font) || font === bodyFont) continue;
    if (bodySize > 0 && size >= 1.2 * bodySize) continue;
    needed.add(font);
  }
  return needed;
}

