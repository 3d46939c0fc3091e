import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PageRenderer, toPng } from '../../../src/engine/pdf/ocr/render-page.js';
import { mixedPdf, solid } from './image-pdfs.js';

/** A letter page with a black bar from 50 pt below its top to 50 pt above its bottom, and a line of text. */
function barPage(): Uint8Array {
  return mixedPdf([
    {
      text: [{ x: 360, y: 400, text: 'Inspection of the north wing', size: 14 }],
      images: [{ bitmap: solid(16, 0), x: 100, y: 50, width: 200, height: 692 }],
    },
  ]);
}

describe('PageRenderer', () => {
  it('draws a page at 300 DPI whole, with no seam where one band of drawing ends and the next begins', async () => {
    const renderer = (await PageRenderer.open(barPage()))!;
    try {
      const bitmap = renderer.render(1, 300)!;
      expect([bitmap.width, bitmap.height]).toEqual([2550, 3300]);
      const scale = 300 / 72;
      const [x0, x1] = [Math.ceil(100 * scale) + 1, Math.floor(300 * scale) - 2];
      const [y0, y1] = [Math.ceil(50 * scale) + 1, Math.floor(742 * scale) - 2];
      const rows = { inside: 0, brokenBar: 0, brokenPaper: 0 };
      for (let y = 0; y < bitmap.height; y++) {
        const row = bitmap.pixels.subarray(y * bitmap.width, (y + 1) * bitmap.width);
        if (y >= y0 && y <= y1) {
          rows.inside++;
          if (row.subarray(x0, x1 + 1).some((grey) => grey > 16)) rows.brokenBar++;
        } else if (y < y0 - 3 || y > y1 + 3) {
          // Above and below the bar the left half of the page is paper.
          if (row.subarray(0, Math.floor(306 * scale)).some((grey) => grey < 250)) rows.brokenPaper++;
        }
      }
      expect(rows.inside).toBeGreaterThan(2800);
      expect(rows).toMatchObject({ brokenBar: 0, brokenPaper: 0 });
      // The text on the right half was drawn too.
      expect(bitmap.pixels.some((grey, i) => grey < 64 && i % bitmap.width > 360 * scale)).toBe(true);
    } finally {
      renderer.close();
    }
  });

  it('draws several regions of a page, loaded once, as each region drawn on its own', async () => {
    const renderer = (await PageRenderer.open(barPage()))!;
    try {
      const regions = [
        { x0: 80, y0: 30, x1: 320, y1: 200 },
        { x0: 350, y0: 370, x1: 580, y1: 410 },
      ];
      const together = renderer.renderRegions(1, regions, 150)!;
      expect(together).toHaveLength(2);
      regions.forEach((region, i) => {
        const alone = renderer.render(1, 150, region)!;
        expect(together[i]).toEqual(alone);
      });
    } finally {
      renderer.close();
    }
  });

  it('gives a drawn bitmap to OCR as a greyscale PNG file of its pixels', async () => {
    const renderer = (await PageRenderer.open(barPage()))!;
    try {
      const drawn = renderer.render(1, 100, { x0: 60, y0: 20, x1: 400, y1: 420 })!;
      const file = Buffer.from(toPng(drawn));
      expect(file.subarray(1, 4).toString('latin1')).toBe('PNG');
      // IHDR: width, height, 8 bits, colour type 0 (greyscale).
      expect([file.readUInt32BE(16), file.readUInt32BE(20), file[24], file[25]]).toEqual([drawn.width, drawn.height, 8, 0]);
      const idat = file.indexOf('IDAT', 0, 'latin1');
      const rows = inflateSync(file.subarray(idat + 4, idat + 4 + file.readUInt32BE(idat - 4)));
      const pixels = new Uint8Array(drawn.width * drawn.height);
      for (let y = 0; y < drawn.height; y++) {
        expect(rows[y * (drawn.width + 1)]).toBe(0);
        pixels.set(rows.subarray(y * (drawn.width + 1) + 1, (y + 1) * (drawn.width + 1)), y * drawn.width);
      }
      expect(Buffer.from(pixels).equals(drawn.pixels)).toBe(true);
      // Much smaller than its pixels: what tesseract.js copies on the way to its worker.
      expect(file.length).toBeLessThan(drawn.pixels.length / 4);
    } finally {
      renderer.close();
    }
  });
});
