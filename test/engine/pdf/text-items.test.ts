import { describe, expect, it } from 'vitest';
import { groupRotated } from '../../../src/engine/pdf/rotated.js';
import { squaringTurn } from '../../../src/engine/pdf/slanted-pages.js';
import { multiply, normaliseItems, type RawTextItem } from '../../../src/engine/pdf/text-items.js';

/** pdfjs viewport.transform of an unrotated 612×792 page at scale 1. */
const VIEWPORT = [1, 0, 0, -1, 0, 792];
const regular = () => ({ bold: false, monospace: false });

function raw(str: string, transform: number[], width: number, extra: Partial<RawTextItem> = {}): RawTextItem {
  return { str, transform, width, fontName: 'f1', dir: 'ltr', hasEOL: false, ...extra };
}

describe('normaliseItems', () => {
  it('maps PDF space to top-down page space', () => {
    const { items, chars } = normaliseItems([raw('Hello', [12, 0, 0, 12, 72, 700], 30)], VIEWPORT, regular);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ str: 'Hello', x0: 72, x1: 102, baseline: 92, size: 12, rtl: false });
    expect(chars).toBe(5);
  });

  it('turns whitespace items into a space flag on the next item and trims item ends', () => {
    const { items } = normaliseItems(
      [raw('Our', [10, 0, 0, 10, 72, 700], 15), raw(' ', [10, 0, 0, 10, 87, 700], 3), raw(' Dense ', [10, 0, 0, 10, 90, 700], 35)],
      VIEWPORT,
      regular,
    );
    expect(items.map((entry) => entry.str)).toEqual(['Our', 'Dense']);
    expect(items[1]!.spaceBefore).toBe(true);
    expect(items[1]!.x0).toBeCloseTo(95);
    expect(items[1]!.x1).toBeCloseTo(120);
  });

  it('keeps rotated text apart and reads it along its direction', () => {
    const { items, rotated } = normaliseItems(
      [raw('arXiv:2004.04906v3 [cs.CL]', [0, 20, -20, 0, 32, 232], 300)],
      VIEWPORT,
      regular,
    );
    expect(items).toEqual([]);
    expect(rotated).toHaveLength(1);
    const lines = groupRotated(rotated);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toBe('arXiv:2004.04906v3 [cs.CL]');
    expect(lines[0]!.rect.x0).toBeLessThan(32);
    expect(lines[0]!.rect.y1).toBeCloseTo(792 - 232);
  });

  it('marks right-to-left items and applies the font style', () => {
    const { items } = normaliseItems([raw('مرحبا', [12, 0, 0, 12, 400, 700], 40, { dir: 'rtl', fontName: 'b' })], VIEWPORT, (font) => ({
      bold: font === 'b',
      monospace: false,
    }));
    expect(items[0]).toMatchObject({ rtl: true, bold: true });
  });

  it('drops control characters and empty items', () => {
    const { items, chars } = normaliseItems(
      [raw('\u0000\u0001', [10, 0, 0, 10, 0, 0], 5), raw('', [10, 0, 0, 10, 0, 0], 0, { hasEOL: true }), raw('ok\u0002', [10, 0, 0, 10, 0, 0], 10)],
      VIEWPORT,
      regular,
    );
    expect(items.map((entry) => entry.str)).toEqual(['ok']);
    expect(chars).toBe(2);
  });
});

describe('an OCR layer\'s words (normaliseItems)', () => {
  /** Words of 10 pt type each scaled across to fit `ink` points with its space, the next `gap` after the ink. */
  function fitted(words: readonly string[], scales: readonly number[], gap: number): RawTextItem[] {
    let x = 72;
    return words.map((word, i) => {
      const ink = 5 * (word.length + 1) * scales[i]!;
      const item = raw(word, [10 * scales[i]!, 0, 0, 10, x, 700], (ink * word.length) / (word.length + 1), { fontName: 'GlyphLessFont' });
      x += ink + gap;
      return item;
    });
  }

  it('gives each word back the space fitted into its place, where every word stands a letter or more from the next', () => {
    const { items } = normaliseItems(fitted(['During', 'changed', 'business', 'staff'], [0.84, 0.78, 0.86, 0.64], 3), VIEWPORT, regular);
    // `During` fills its 29.4 points on the scan, its space with it.
    expect(items[0]!.x1 - items[0]!.x0).toBeCloseTo(5 * 7 * 0.84, 6);
    expect(items[0]!.x1).toBeLessThan(items[1]!.x0);
  });

  it('leaves words alone whose space is drawn after them, as wide as a word space', () => {
    // Words scaled to fit (a condensed face), each starting a word space (2.5 pt, half a letter) after the last.
    const words = ['During', 'changed', 'business', 'staff'].map((word, i) => raw(word, [8, 0, 0, 10, 72 + 60 * i, 700], 4 * word.length, { fontName: 'Narrow' }));
    words.forEach((word, i) => {
      if (i > 0) word.transform[4] = words[i - 1]!.transform[4]! + words[i - 1]!.width + 2;
    });
    const { items } = normaliseItems(words, VIEWPORT, regular);
    expect(items.map((item) => item.x1 - item.x0)).toEqual([24, 28, 32, 20]);
  });
});

describe('a page slanted as a scan askew (squaringTurn)', () => {
  /** A line of words whose baseline runs at `degrees` (in the page's view, down the page positive). */
  function slantedLine(y: number, degrees: number, words = 8): RawTextItem[] {
    const radians = (-degrees * Math.PI) / 180;
    const cos = Math.cos(radians);
    const sin = Math.sin(radians);
    return Array.from({ length: words }, (_, i) =>
      raw(`word${i}`, [10 * cos, 10 * sin, -10 * sin, 10 * cos, 72 + 50 * i * cos, y + 50 * i * sin], 40),
    );
  }
  const view = { transform: VIEWPORT, width: 612, height: 792 };
  /** The view's transform followed by the turn that squares the page, as convert-pdf.ts reads such a page. */
  function squaredViewTransform(items: readonly RawTextItem[]): number[] | undefined {
    const turn = squaringTurn(items, view);
    return turn && multiply(turn, view.transform);
  }

  it('turns the page back by its slant: its lines read level', () => {
    const items = [...slantedLine(700, -1.2), ...slantedLine(686, -1.2), ...slantedLine(672, -1.2)];
    const transform = squaredViewTransform(items)!;
    expect(transform).toBeDefined();
    const { items: read, rotated } = normaliseItems(items, transform, regular);
    expect(rotated).toEqual([]);
    const baselines = [0, 1, 2].map((line) => read.slice(8 * line, 8 * line + 8).map((item) => item.baseline));
    for (const line of baselines) expect(Math.max(...line) - Math.min(...line)).toBeLessThan(0.01);
    expect(baselines[1]![0]! - baselines[0]![0]!).toBeCloseTo(14, 1);
  });

  it('leaves a square page, and one whose slanted text is a small part of it, as they are', () => {
    expect(squaredViewTransform([...slantedLine(700, 0), ...slantedLine(686, 0)])).toBeUndefined();
    expect(squaredViewTransform([...slantedLine(700, 0), ...slantedLine(686, 0), ...slantedLine(600, 3, 2)])).toBeUndefined();
    // Turned further than a scan is askew: the turned-page path's, not this one's.
    expect(squaredViewTransform([...slantedLine(700, 20), ...slantedLine(686, 20)])).toBeUndefined();
  });

  it('turns round the page\'s centre, which stays where it is', () => {
    const transform = squaredViewTransform([...slantedLine(700, 2), ...slantedLine(686, 2)])!;
    const centre = multiply(transform, [1, 0, 0, 1, 306, 396]);
    expect(centre[4]).toBeCloseTo(306, 6);
    expect(centre[5]).toBeCloseTo(396, 6);
  });
});
