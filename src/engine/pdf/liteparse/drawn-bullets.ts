/**
 * List bullets drawn as shapes. A browser prints a list's discs, circles and squares as paths, not as characters
 * (Chromium's "Save as PDF", and the PDFs made from web pages), and so do some report tools: the text layer then
 * holds the items without their markers, and a list reads as loose paragraphs. A small round or square shape set
 * just left of the first word of a line, at the height of its lower-case letters, is such a bullet: it becomes a
 * "•" item on that line, which the layout reads as a list marker as it reads a typed one. A chart's legend sets
 * such marks too, but several on one line, or one colour a mark down a column of them: those stay marks. Lists in
 * columns side by side (a brochure's) set their bullets at the same heights too: marks beside one another are
 * bullets where each starts its line and heads a list down its own column. Pure.
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
 * Per candidate, whether its column is not of several colours (a legend's column: a colour a series). The shapes'
 * places and colours are read once each, not once per pair: a page may draw hundreds of candidates.
 */
function oneColourColumns(candidates: readonly DrawnShape[]): boolean[] {
  const xs = candidates.map((shape) => shape.bbox.x);
  const colours = candidates.map(colourOf);
  return xs.map((x) => {
    let colour: string | undefined;
    for (let j = 0; j < xs.length; j++) {
      if (!(Math.abs(xs[j]! - x) <= ALIGNED)) continue;
      if (colour === undefined) colour = colours[j];
      else if (colours[j] !== colour) return false;
    }
    return colour !== undefined;
  });
}

function middleOf(shape: DrawnShape): number {
  return shape.bbox.y + shape.bbox.height / 2;
}

/**
 * Whether a bullet stands alone on its line, or beside others only as lists side by side do: a legend's row
 * ("● 2019 ● 2020") sets several marks on one line, where two columns of a brochure set their lists' bullets at
 * the same heights. Each mark on the line then starts its line of text and heads a list of its own down its column.
 */
function apartFromMarksBeside(shape: DrawnShape, candidates: readonly DrawnShape[], bullets: ReadonlyMap<DrawnShape, PdfTextItem>): boolean {
  const beside = candidates.filter((other) => other !== shape && Math.abs(middleOf(other) - middleOf(shape)) <= ALIGNED && Math.abs(other.bbox.x - shape.bbox.x) > ALIGNED);
  if (beside.length === 0) return true;
  const headsList = (mark: DrawnShape) => [...bullets.keys()].some((other) => other !== mark && Math.abs(other.bbox.x - mark.bbox.x) <= ALIGNED);
  return headsList(shape) && beside.every((other) => bullets.has(other) && headsList(other));
}

function bulletSized(shape: DrawnShape): boolean {
  const { width, height } = shape.bbox;
  return (shape.fill || shape.stroke) && width >= MIN_SIDE && height >= MIN_SIDE && Math.abs(width - height) <= SQUARENESS * Math.max(width, height);
}

/** The first item of the line a mark at `bbox` stands just left of, where it starts that line; else undefined. */
function lineStartedBy(bbox: DrawnShape['bbox'], items: readonly PdfTextItem[]): PdfTextItem | undefined {
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
  if (!marked) return undefined;
  const line = marked;
  const startsLine = !items.some(
    (item) => Math.abs(item.baseline - line.baseline) <= 0.3 * line.size && item.x1 <= bbox.x && bbox.x - item.x1 <= CLEAR_LEFT_EM * line.size,
  );
  return startsLine ? line : undefined;
}

/** The "•" items for the bullets among `shapes`, on the lines of `items` (page units, top-down, as the items). */
export function drawnBullets(items: readonly PdfTextItem[], shapes: readonly DrawnShape[]): PdfTextItem[] {
  const candidates = shapes.filter(bulletSized);
  if (candidates.length === 0 || candidates.length > MAX_CANDIDATES) return [];
  // Each mark with the line it starts; then those that stand apart from the marks beside them.
  const marked = new Map<DrawnShape, PdfTextItem>();
  const oneColour = oneColourColumns(candidates);
  for (let i = 0; i < candidates.length; i++) {
    const shape = candidates[i]!;
    if (!oneColour[i]) continue;
    const line = lineStartedBy(shape.bbox, items);
    if (line) marked.set(shape, line);
  }
  const bullets: PdfTextItem[] = [];
  for (const [shape, line] of marked) {
    if (!apartFromMarksBeside(shape, candidates, marked)) continue;
    const { bbox } = shape;
    bullets.push({ str: '•', x0: bbox.x, x1: bbox.x + bbox.width, baseline: line.baseline, size: line.size, fontName: line.fontName, bold: false, monospace: false, rtl: false, spaceBefore: false });
  }
  return bullets;
}
