/**
 * A scan fed askew, read square: tesseract reads a picture turned a degree or two, and gives each word's box round
 * the slanted word and each line a sloping baseline. Laid out as they stand, the ends of a long line sit a line's
 * height apart and lines of a paragraph interleave. Where the page's lines slope alike, every word is turned back
 * round the middle of the page's words by the lines' slope (the median of the long lines', by words), its box the
 * word's own height and length, so that the lines read level (as slanted-pages.ts reads a text layer askew).
 */
import type { OcrLine, OcrWord } from './ocr-line.js';
import { weightedMedian } from '../measure.js';
import { MAX_SLANT } from '../slanted-pages.js';

/** Slopes under this (about a tenth of a degree) leave a line's ends within a pixel or two of each other. */
const MIN_SLOPE = Math.tan((0.1 * Math.PI) / 180);
const MAX_SLOPE = Math.tan((MAX_SLANT * Math.PI) / 180);
/** A baseline this many pixels long gives its line's slope. */
const MIN_SPAN = 200;

/** The median slope of the page's long lines, by their words; undefined where there are none. */
function pageSlope(lines: readonly OcrLine[]): number | undefined {
  const slopes: { value: number; weight: number }[] = [];
  for (const line of lines) {
    const { x0, y0, x1, y1 } = line.baseline;
    if (x1 - x0 >= MIN_SPAN) slopes.push({ value: (y1 - y0) / (x1 - x0), weight: line.words.length });
  }
  return weightedMedian(slopes);
}

/** The lines turned back by their page's slope, where it is a scan's askew; else the lines as they are. */
export function squaredLines(lines: readonly OcrLine[]): readonly OcrLine[] {
  const slope = pageSlope(lines);
  if (slope === undefined || Math.abs(slope) < MIN_SLOPE || Math.abs(slope) > MAX_SLOPE) return lines;
  const angle = Math.atan(slope);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const line of lines) {
    for (const word of line.words) {
      left = Math.min(left, word.x0);
      top = Math.min(top, word.y0);
      right = Math.max(right, word.x1);
      bottom = Math.max(bottom, word.y1);
    }
  }
  const cx = (left + right) / 2;
  const cy = (top + bottom) / 2;
  // Turned back round (cx, cy): x' = x cos + y sin, y' = −x sin + y cos about it.
  const turn = (x: number, y: number) => ({ x: cx + (x - cx) * cos + (y - cy) * sin, y: cy - (x - cx) * sin + (y - cy) * cos });
  const across = Math.abs(sin);
  const word = (box: OcrWord): OcrWord => {
    const centre = turn((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2);
    // A box round a word of length L and height H slanted by a: L cos a + H sin a across, L sin a + H cos a down.
    const width = box.x1 - box.x0;
    const height = Math.max(0.5 * (box.y1 - box.y0), box.y1 - box.y0 - width * across);
    const length = Math.max(0.5 * width, width - height * across);
    return { ...box, x0: centre.x - length / 2, x1: centre.x + length / 2, y0: centre.y - height / 2, y1: centre.y + height / 2 };
  };
  return lines.map((line) => {
    const from = turn(line.baseline.x0, line.baseline.y0);
    const to = turn(line.baseline.x1, line.baseline.y1);
    return { ...line, words: line.words.map(word), baseline: { x0: from.x, y0: from.y, x1: to.x, y1: to.y } };
  });
}
