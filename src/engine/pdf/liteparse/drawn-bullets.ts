/**
 * List bullets drawn as shapes. A browser prints a list's discs, circles and squares as paths, not as characters
 * (Chromium's "Save as PDF", and the PDFs made from web pages), and so do some report tools: the text layer then
 * holds the items without their markers, and a list reads as loose paragraphs. A small round or square shape set
 * just left of the first word of a line, at the height of its lower-case letters, is such a bullet: it becomes a
 * "•" item on that line, which the layout reads as a list marker as it reads a typed one. A chart's legend sets
 * such marks too, but several on one line, or one colour a mark down a column of them: those stay marks. Pure.
 */
import type { PdfTextItem } from '../types.js';

export interface DrawnShape {
  bbox: { x: number; y: number; width: number; height: number };
  fill: boolean;
  stroke: boolean;
  fillColor?: string | undefined;
  strokeColor?: string | undefined;
}

/** A bullet is at least this wide (pt) and at most this share of the text's em. */
const MIN_SIDE = 1.5;
const MAX_SIDE_EM = 0.6;
/** Its width and height differ by at most this share: a disc, a circle, a square. */
const SQUARENESS = 0.25;
/** It stands at most this many em left of the word it marks, and at least a tenth of one. */
const MAX_GAP_EM = 2.5;
/** No word of its line ends within this many em left of it: a bullet starts its line (a legend's second marker does not). */
const CLEAR_LEFT_EM = 3;
/** Past this many small shapes a page is a chart or a pattern, not a list: none is taken. */
const MAX_CANDIDATES = 400;

/** Marks within this many pt are on one line (their middles) or in one column (their left edges). */
const ALIGNED = 1.5;

function colourOf(shape: DrawnShape): string {
  return (shape.fill ? shape.fillColor : shape.strokeColor) ?? '';
}

/**
 * The marks that may be bullets: not two on one line (a legend's row: "● 2019 ● 2020"), and not of several
 * colours down one column (a legend's column: a colour a series).
 */
function listMarks(candidates: readonly DrawnShape[]): DrawnShape[] {
  const middle = (shape: DrawnShape) => shape.bbox.y + shape.bbox.height / 2;
  return candidates.filter((shape) => {
    const beside = candidates.some((other) => other !== shape && Math.abs(middle(other) - middle(shape)) <= ALIGNED && Math.abs(other.bbox.x - shape.bbox.x) > ALIGNED);
    if (beside) return false;
    const column = candidates.filter((other) => Math.abs(other.bbox.x - shape.bbox.x) <= ALIGNED);
    return new Set(column.map(colourOf)).size === 1;
  });
}

function bulletSized(shape: DrawnShape): boolean {
  const { width, height } = shape.bbox;
  return (shape.fill || shape.stroke) && width >= MIN_SIDE && height >= MIN_SIDE && Math.abs(width - height) <= SQUARENESS * Math.max(width, height);
}

/** The "•" items for the bullets among `shapes`, on the lines of `items` (page units, top-down, as the items). */
export function drawnBullets(items: readonly PdfTextItem[], shapes: readonly DrawnShape[]): PdfTextItem[] {
  const candidates = shapes.filter(bulletSized);
  if (candidates.length === 0 || candidates.length > MAX_CANDIDATES) return [];
  const bullets: PdfTextItem[] = [];
  for (const { bbox } of listMarks(candidates)) {
    const x1 = bbox.x + bbox.width;
    const middle = bbox.y + bbox.height / 2;
    let marked: PdfTextItem | undefined;
    for (const item of items) {
      if (bbox.width > MAX_SIDE_EM * item.size) continue;
      const gap = item.x0 - x1;
      if (gap < 0.1 * item.size || gap > MAX_GAP_EM * item.size) continue;
      // Between the baseline and the top of the lower-case letters.
      if (middle > item.baseline || middle < item.baseline - 0.75 * item.size) continue;
      if (!marked || item.x0 < marked.x0) marked = item;
    }
    if (!marked) continue;
    const line = marked;
    const startsLine = !items.some(
      (item) => Math.abs(item.baseline - line.baseline) <= 0.3 * line.size && item.x1 <= bbox.x && bbox.x - item.x1 <= CLEAR_LEFT_EM * line.size,
    );
    if (!startsLine) continue;
    bullets.push({ str: '•', x0: bbox.x, x1, baseline: line.baseline, size: line.size, fontName: line.fontName, bold: false, monospace: false, rtl: false, spaceBefore: false });
  }
  return bullets;
}
