import { describe, expect, it } from 'vitest';
import { takeRules } from '../../../../src/engine/pdf/ocr/bitmap-rules.js';
import type { GreyBitmap } from '../../../../src/engine/pdf/ocr/render-page.js';
import { squaredBitmap } from '../../../../src/engine/pdf/ocr/squared-bitmap.js';

/** The turn back by `degrees` round (cx, cy), as slanted-pages.ts squares a page scanned askew. */
function turnBack(degrees: number, cx: number, cy: number): number[] {
  const slant = (degrees * Math.PI) / 180;
  const cos = Math.cos(slant);
  const sin = Math.sin(slant);
  return [cos, -sin, sin, cos, cx - cos * cx - sin * cy, cy + sin * cx - cos * cy];
}

/**
 * A page of 600 × 400 pt drawn at 2 pixels a point, scanned askew: a table's grid of hairlines (0.75 pt, one or two
 * pixels thick) that stands square in the frame `turn` takes the page to.
 */
function askewGrid(turn: readonly number[]): GreyBitmap {
  const scale = 2;
  const width = 1200;
  const height = 800;
  const pixels = new Uint8Array(width * height).fill(255);
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = turn;
  // Each pixel of the scan is ink where the square frame's point it shows lies on a rule.
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const px = (x + 0.5) / scale;
      const py = (y + 0.5) / scale;
      const sx = a * px + c * py + e;
      const sy = b * px + d * py + f;
      const inside = sx >= 99.5 && sx <= 500.5 && sy >= 99.5 && sy <= 300.5;
      const onRow = [100, 150, 200, 250, 300].some((row) => Math.abs(sy - row) < 0.375);
      const onColumn = [100, 300, 500].some((column) => Math.abs(sx - column) < 0.375);
      if (inside && (onRow || onColumn)) pixels[y * width + x] = 0;
    }
  }
  return { width, height, pixels, scale, origin: { x: 0, y: 0 } };
}

describe('squaredBitmap', () => {
  it("turns a scan askew with its text, so that its table's rules are found level and upright", () => {
    const turn = turnBack(2, 300, 200);
    const scan = askewGrid(turn);
    // Askew, a hairline 400 pt long climbs 14 pt: no run of its pixels along a row or column is a rule's length.
    expect(takeRules({ ...scan, pixels: scan.pixels.slice() }).filter((rule) => rule.x1 - rule.x0 > 100)).toEqual([]);
    const rules = takeRules(squaredBitmap(scan, turn));
    const across = rules.filter((rule) => rule.y0 === rule.y1).map((rule) => Math.round(rule.y0));
    const down = rules.filter((rule) => rule.x0 === rule.x1).map((rule) => Math.round(rule.x0));
    expect(across.sort((p, q) => p - q)).toEqual([100, 150, 200, 250, 300]);
    expect(down.sort((p, q) => p - q)).toEqual([100, 300, 500]);
    for (const rule of rules.filter((rule) => rule.y0 === rule.y1)) {
      expect(rule.x0).toBeCloseTo(100, -0.5);
      expect(rule.x1).toBeCloseTo(500, -0.5);
    }
  });

  it('leaves paper where the turn brings in nothing from the picture', () => {
    const picture: GreyBitmap = { width: 100, height: 100, pixels: new Uint8Array(100 * 100).fill(0), scale: 1, origin: { x: 0, y: 0 } };
    const squared = squaredBitmap(picture, turnBack(3, 50, 50));
    // The corners come from outside the picture.
    expect(squared.pixels[0]).toBe(255);
    expect(squared.pixels[99 * 100 + 99]).toBe(255);
    expect(squared.pixels[50 * 100 + 50]).toBe(0);
  });
});
