import { describe, expect, it } from 'vitest';
import { filledBoxes } from '../../../../src/engine/pdf/ocr/bitmap-boxes.js';
import type { GreyBitmap } from '../../../../src/engine/pdf/ocr/render-page.js';

/** A page of 400 × 300 pt at 2 pixels a point, white paper. */
function paper(): GreyBitmap {
  return { width: 800, height: 600, pixels: new Uint8Array(800 * 600).fill(255), scale: 2, origin: { x: 0, y: 0 } };
}

/** Fills the rectangle (pt) with `grey`. */
function fill(bitmap: GreyBitmap, x0: number, y0: number, x1: number, y1: number, grey: number): void {
  for (let y = y0 * 2; y < y1 * 2; y++) for (let x = x0 * 2; x < x1 * 2; x++) bitmap.pixels[y * bitmap.width + x] = grey;
}

/**
 * A line of text (pt): letters 5 pt wide, 7 pt high, 1.5 pt apart, words 4 pt apart; each letter its two stems and,
 * with `feet`, a bar along its foot (a `u` and an `n`).
 */
function text(bitmap: GreyBitmap, x0: number, baseline: number, letters: number, grey = 0, feet = true): void {
  let x = x0;
  for (let i = 0; i < letters; i++) {
    fill(bitmap, x, baseline - 7, x + 1, baseline, grey);
    fill(bitmap, x + 4, baseline - 7, x + 5, baseline, grey);
    if (feet && i % 2 === 0) fill(bitmap, x, baseline - 1, x + 5, baseline, grey);
    else if (feet) fill(bitmap, x, baseline - 7, x + 5, baseline - 6, grey);
    x += i % 6 === 5 ? 9 : 6.5;
  }
}

describe('filledBoxes', () => {
  it("finds a table's shaded bands, with the text set in them, and nothing of the text on paper", () => {
    const page = paper();
    // Banded rows: shaded, unshaded, shaded, each 16 pt high, 300 pt wide.
    fill(page, 50, 100, 350, 116, 230);
    fill(page, 50, 132, 350, 148, 230);
    for (const baseline of [112, 128, 144]) text(page, 56, baseline, 30);
    // Prose on paper, and a heading in bold (stems twice as thick), neither a box.
    for (const baseline of [30, 42, 54]) text(page, 50, baseline, 48);
    text(page, 50, 80, 20, 0);
    fill(page, 50, 73, 200, 80, 255);
    const boxes = filledBoxes(page).map((box) => [box.x0, box.y0, box.x1, box.y1]);
    expect(boxes).toEqual([
      [50, 100, 350, 116],
      [50, 132, 350, 148],
    ]);
  });

  it('takes a dark header band set with light letters, and gives none for a page of tones (a photo)', () => {
    const page = paper();
    fill(page, 40, 200, 360, 220, 60);
    text(page, 46, 214, 20, 255, false);
    expect(filledBoxes(page).map((box) => [box.x0, box.y0, box.x1, box.y1])).toEqual([[40, 200, 360, 220]]);
    const photo = paper();
    for (let y = 0; y < 600; y++) for (let x = 0; x < 800; x++) photo.pixels[y * 800 + x] = (x * 7 + y * 13) % 97 < 40 ? 255 : 100 + ((x + y) % 80);
    expect(filledBoxes(photo).length).toBeLessThan(3);
  });
});
