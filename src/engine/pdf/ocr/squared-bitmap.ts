/**
 * A page's picture turned a few degrees, as its text layer is squared when the page was scanned askew
 * (slanted-pages.ts): the rules drawn in the picture then run level and upright, where bitmap-rules.ts finds them,
 * in the frame the squared text is laid out in. Paper (white) where the turn brings in no pixel.
 */
import type { GreyBitmap } from './render-page.js';

const PAPER = 255;

/**
 * The whole page's `bitmap` (origin at the page's corner) turned by `turn`, a matrix [a, b, c, d, e, f] in page
 * units taking the page as shown to the squared frame; the same size and scale.
 */
export function squaredBitmap(bitmap: GreyBitmap, turn: readonly number[]): GreyBitmap {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = turn;
  const det = a * d - b * c;
  const { width, height, pixels, scale } = bitmap;
  const out = new Uint8Array(width * height).fill(PAPER);
  // Each pixel of the squared frame takes the pixel of the picture the inverse turn brings it from, in pixels: the
  // turn's translation scaled with them.
  const ex = e * scale;
  const fy = f * scale;
  // Along a row of the squared frame the source point moves by a fixed step: added, not computed again.
  const stepX = d / det;
  const stepY = -b / det;
  for (let y = 0; y < height; y++) {
    const dy = y + 0.5 - fy;
    const dx = 0.5 - ex;
    let fx = (d * dx - c * dy) / det - 0.5;
    let fyRow = (a * dy - b * dx) / det - 0.5;
    const row = y * width;
    for (let x = 0; x < width; x++, fx += stepX, fyRow += stepY) {
      // The darkest of the four pixels round the point: a hairline one pixel thick, which the turn would otherwise
      // leave stepping between two rows in pieces too short for a rule, stays unbroken along one.
      const sx = Math.floor(fx);
      const sy = Math.floor(fyRow);
      if (sx >= 0 && sy >= 0 && sx + 1 < width && sy + 1 < height) {
        const at = sy * width + sx;
        out[row + x] = Math.min(pixels[at]!, pixels[at + 1]!, pixels[at + width]!, pixels[at + width + 1]!);
      } else if (sx >= -1 && sy >= -1 && sx < width && sy < height) {
        out[row + x] = darkestAround(bitmap, sx, sy);
      }
    }
  }
  return { width, height, pixels: out, scale, origin: { x: 0, y: 0 } };
}

/** The darkest of the pixels of (sx, sy), (sx + 1, sy + 1) that lie in the bitmap: at its edges. */
function darkestAround(bitmap: GreyBitmap, sx: number, sy: number): number {
  const { width, height, pixels } = bitmap;
  let darkest = PAPER;
  for (let j = Math.max(0, sy); j <= Math.min(height - 1, sy + 1); j++) {
    for (let i = Math.max(0, sx); i <= Math.min(width - 1, sx + 1); i++) darkest = Math.min(darkest, pixels[j * width + i]!);
  }
  return darkest;
}
