import { describe, expect, it } from 'vitest';
import type { OcrLine } from '../../../../src/engine/pdf/ocr/ocr-line.js';
import { squaredLines } from '../../../../src/engine/pdf/ocr/squared-lines.js';

/** A line of `words` words 100 px long, 40 px high and 30 apart, its baseline at `y` on the left sloping `slope`. */
function line(y: number, slope: number, words = 8): OcrLine {
  const boxes = Array.from({ length: words }, (_, i) => {
    const x0 = 100 + 130 * i;
    const x1 = x0 + 100;
    // The box round the slanted word: as high as the word and as its rise.
    const top = y - 40 + slope * x0 - 100;
    return { text: `word${i}`, x0, x1, y0: Math.min(top, top + slope * 100), y1: Math.max(top, top + slope * 100) + 40, confidence: 0.95 };
  });
  return { words: boxes, baseline: { x0: 100, y0: y + slope * 100 - 100, x1: 1100, y1: y + slope * 1100 - 100 }, rowHeight: 40, rtl: false };
}

describe('squaredLines', () => {
  it('turns the lines of a page scanned askew back level, each word its own height', () => {
    const slope = Math.tan((-1.2 * Math.PI) / 180);
    const squared = squaredLines([line(500, slope), line(560, slope), line(620, slope)]);
    for (const read of squared) {
      const centres = read.words.map((word) => (word.y0 + word.y1) / 2);
      expect(Math.max(...centres) - Math.min(...centres)).toBeLessThan(1);
      for (const word of read.words) expect(word.y1 - word.y0).toBeCloseTo(40, 0);
      expect(Math.abs(read.baseline.y1 - read.baseline.y0)).toBeLessThan(1);
    }
    // The lines stay 60 px apart, in their order.
    const firsts = squared.map((read) => read.words[0]!.y0);
    expect(firsts[1]! - firsts[0]!).toBeCloseTo(60, 0);
    expect(firsts[2]! - firsts[1]!).toBeCloseTo(60, 0);
  });

  it('leaves a square page, and one turned further than a scan askew, as they are', () => {
    const square = [line(500, 0), line(560, 0)];
    expect(squaredLines(square)).toBe(square);
    const turned = [line(500, Math.tan((12 * Math.PI) / 180)), line(560, Math.tan((12 * Math.PI) / 180))];
    expect(squaredLines(turned)).toBe(turned);
  });
});
