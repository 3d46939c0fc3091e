/** Synthetic text items for the layout unit tests: no PDF, just geometry (top-down page space). */
import type { PdfTextItem } from '../../../src/engine/pdf/types.js';

export interface ItemOptions {
  size?: number;
  bold?: boolean;
  mono?: boolean;
  rtl?: boolean;
  font?: string;
  /** Width per character, in ems (0.5 by default). */
  em?: number;
  width?: number;
  spaceBefore?: boolean;
}

/** One item whose width is its length times half an em (or `width`). */
export function item(str: string, x0: number, baseline: number, options: ItemOptions = {}): PdfTextItem {
  const size = options.size ?? 10;
  const width = options.width ?? str.length * size * (options.em ?? 0.5);
  return {
    str,
    x0,
    x1: x0 + width,
    baseline,
    size,
    fontName: options.font ?? (options.bold ? 'bold' : options.mono ? 'mono' : 'regular'),
    bold: options.bold ?? false,
    monospace: options.mono ?? false,
    rtl: options.rtl ?? false,
    ...(options.spaceBefore ? { spaceBefore: true } : {}),
  };
}

/** Lines of a paragraph: one item per text, `pitch` apart from `top`. */
export function paragraph(texts: string[], x0: number, top: number, pitch = 12, options: ItemOptions = {}) {
  return texts.map((text, i) => item(text, x0, top + i * pitch, options));
}

/** Prose of a given number of words, deterministic. */
export function words(count: number, seed = 0): string {
  const vocabulary = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
  return Array.from({ length: count }, (_, i) => vocabulary[(i * 7 + seed) % vocabulary.length]).join(' ');
}
