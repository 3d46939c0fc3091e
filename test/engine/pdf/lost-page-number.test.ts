import { describe, expect, it } from 'vitest';
import { lostPageNumber } from '../../../src/engine/pdf/liteparse/lost-page-number.js';
import type { PdfTextItem } from '../../../src/engine/pdf/types.js';

function item(str: string, x0: number, baseline: number): PdfTextItem {
  return { str, x0, x1: x0 + 6 * str.length, baseline, size: 12, fontName: '', bold: false, monospace: false, rtl: false, spaceBefore: false };
}

const BODY = [item('The', 72, 100), item('first', 100, 100), item('line.', 140, 100), item('The', 72, 700), item('last', 100, 700), item('line.', 140, 700)];

describe('a page number the text items left out', () => {
  it('is taken from the last row of the page text and placed below the text, in its column', () => {
    const text = 'The first line.\n\nThe last line.\n                              14   \n';
    const lost = lostPageNumber(text, BODY, 612, 792);
    expect(lost?.chars).toBe(2);
    expect(lost?.item.str).toBe('14');
    expect(lost!.item.baseline).toBeGreaterThan(700);
    expect(lost!.item.baseline).toBeLessThan(792);
    expect(lost!.item.x0).toBeGreaterThan(300);
  });

  it('is taken from the first row when the number heads the page', () => {
    const lost = lostPageNumber('                    ix\nThe first line.\nThe last line.', BODY, 612, 792);
    expect(lost?.item.str).toBe('ix');
    expect(lost!.item.baseline).toBeLessThan(100 - 12);
  });

  it('is none when the items hold the number, or the row ends in words', () => {
    expect(lostPageNumber('The first line.\nThe last line.\n 14', [...BODY, item('14', 300, 760)], 612, 792)).toBeUndefined();
    expect(lostPageNumber('The first line.\nThe last line.\n 26     Annual Outlook', BODY, 612, 792)).toBeUndefined();
  });
});
