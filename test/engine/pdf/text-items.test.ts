import { describe, expect, it } from 'vitest';
import { groupRotated } from '../../../src/engine/pdf/rotated.js';
import { normaliseItems, type RawTextItem } from '../../../src/engine/pdf/text-items.js';

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
