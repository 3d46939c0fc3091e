/** Which pages mode auto draws to find the table rules a scan's picture holds under its OCR text layer. */
import { describe, expect, it } from 'vitest';
import { wantsGridFromPicture, type LayeredPage } from '../../../../src/engine/pdf/ocr/layered-scan-rules.js';
import type { PdfTextItem } from '../../../../src/engine/pdf/types.js';

function run(str: string, x0: number, baseline: number, size = 10): PdfTextItem {
  return { str, x0, x1: x0 + str.length * size * 0.5, baseline, size, fontName: 'GlyphLessFont', bold: false, monospace: false, rtl: false };
}

/** A letter page of 40 lines of prose, one run a line. */
const prose = Array.from({ length: 40 }, (_, i) => run('words of a paragraph set across the whole column of the page', 72, 80 + i * 14));
/** Three rows of a table: a run a cell, the cells 100 pt apart. */
const rows = [0, 1, 2].flatMap((i) => ['Version', '1.0', 'Original'].map((cell, j) => run(cell, 72 + j * 100, 700 + i * 14)));

function page(items: readonly PdfTextItem[], overrides: Partial<LayeredPage> = {}): LayeredPage {
  const chars = items.reduce((sum, item) => sum + item.str.replace(/\s/g, '').length, 0);
  return { width: 612, height: 792, chars, items, rulings: [], images: [{ x0: 0, y0: 0, x1: 612, y1: 792 }], ...overrides };
}

describe('wantsGridFromPicture', () => {
  it('takes a page-sized picture under a text layer whose lines are parted into columns', () => {
    expect(wantsGridFromPicture(page([...prose, ...rows]))).toBe(true);
  });

  it('leaves a scan of prose alone: drawing it would find no table', () => {
    expect(wantsGridFromPicture(page(prose))).toBe(false);
  });

  it('leaves a page that draws its own grid, a page without a page-sized picture, and a stamp of text alone', () => {
    const grid = [0, 1, 2].map((i) => ({ x0: 72, y0: 690 + i * 14, x1: 372, y1: 690 + i * 14 }));
    expect(wantsGridFromPicture(page([...prose, ...rows], { rulings: grid }))).toBe(false);
    expect(wantsGridFromPicture(page([...prose, ...rows], { images: [{ x0: 72, y0: 72, x1: 300, y1: 300 }] }))).toBe(false);
    expect(wantsGridFromPicture(page(rows))).toBe(false);
  });
});
