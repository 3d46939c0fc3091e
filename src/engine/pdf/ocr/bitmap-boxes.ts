/**
 * Filled boxes in a page's picture: table cells drawn as shaded rectangles (a banded body, a dark header row, cells
 * set apart by white gutters), which a scan's picture holds and its OCR text layer leaves out. They are handed to
 * the layout as a born-digital page's filled rectangles are (box-tables.ts). A box is a rectangle mostly covered by
 * a tone other than the paper's, its text inside it; lines of text on paper cover far less of their rectangle.
 * Pure.
 */
import type { Rect } from '../types.js';
import type { GreyBitmap } from './render-page.js';
import { greyHistogram } from './image-regions.js';

/** A pixel this much darker than the paper is not paper: a fill's tone (a light grey band is 15–40 below it). */
const PAPER_MARGIN = 12;
/** A box is at least this wide and this high (pt): a cell, not a word or a rule. */
const MIN_WIDTH = 24;
const MIN_HEIGHT = 8;
/** Along a row, paper this narrow (pt) inside a fill is a letter's counter or stroke set light on it. */
const GAP = 1.5;
/** The rows of one box start and end within this (pt) of each other. */
const EDGE = 2;
/** A box's area is at least this share not paper; a line of dark text on paper covers a third of its own at most. */
const COVER = 0.7;
/** The most boxes a picture gives: more is a photo's texture or a chart's bars, not a table. */
const MAX_BOXES = 400;

interface Open {
  x0: number;
  x1: number;
  y0: number;
  /** The row it was last extended on. */
  y: number;
  /** Pixels not paper in it so far. */
  filled: number;
}

/** The paper's grey: the commonest level of the lighter half, where a page's background is. */
function paperLevel(pixels: Uint8Array): number {
  const histogram = greyHistogram(pixels);
  let level = 255;
  for (let v = 128; v < 256; v++) if (histogram[v]! > histogram[level]!) level = v;
  return level;
}

/** The filled boxes of `bitmap`, in page units (as bitmap-rules.ts gives its rules). */
export function filledBoxes(bitmap: GreyBitmap): Rect[] {
  const { width, height, pixels, scale, origin } = bitmap;
  const dark = paperLevel(pixels) - PAPER_MARGIN;
  const minWidth = Math.round(MIN_WIDTH * scale);
  const minHeight = Math.round(MIN_HEIGHT * scale);
  const gap = Math.max(1, Math.round(GAP * scale));
  const edge = Math.max(1, Math.round(EDGE * scale));
  let open: Open[] = [];
  const boxes: Rect[] = [];
  const close = (box: Open): void => {
    const rows = box.y - box.y0 + 1;
    if (rows >= minHeight && box.filled >= COVER * rows * (box.x1 - box.x0)) {
      boxes.push({ x0: origin.x + box.x0 / scale, y0: origin.y + box.y0 / scale, x1: origin.x + box.x1 / scale, y1: origin.y + (box.y + 1) / scale });
    }
  };
  for (let y = 0; y <= height; y++) {
    const next: Open[] = [];
    if (y < height) {
      const row = y * width;
      let x = 0;
      while (x < width) {
        if (pixels[row + x]! >= dark) {
          x++;
          continue;
        }
        // A run of tone, through gaps of paper no wider than a letter's counter.
        const start = x;
        let end = x;
        let filled = 0;
        while (x < width && x - end <= gap) {
          if (pixels[row + x]! < dark) {
            end = x + 1;
            filled++;
          }
          x++;
        }
        x = end;
        if (end - start < minWidth) continue;
        const match = open.find((box) => Math.abs(box.x0 - start) <= edge && Math.abs(box.x1 - end) <= edge);
        if (match) {
          open = open.filter((box) => box !== match);
          next.push({ x0: Math.min(match.x0, start), x1: Math.max(match.x1, end), y0: match.y0, y, filled: match.filled + filled });
        } else {
          next.push({ x0: start, x1: end, y0: y, y, filled });
        }
      }
    }
    for (const box of open) close(box);
    if (boxes.length > MAX_BOXES) return [];
    open = next;
  }
  return boxes;
}
