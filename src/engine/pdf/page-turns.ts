/**
 * A page's places in the frame its text reads in, and back. `Turn` is how far (degrees, clockwise in the page's
 * view) its text runs from left to right: the frame turned by it reads left to right (liteparse/upright-pages.ts
 * for a text layer, ocr/page-orientation.ts for a scan).
 */
import type { Rect } from './types.js';

export type Turn = 0 | 90 | 180 | 270;

/** Degrees off a right angle still read as that angle (as level text is read within 2° of level). */
const SQUARE = 2;
/** More than this share of the page's characters running in one turned direction turns the page. */
const TURNED_SHARE = 0.5;

/** The right angle (0, 90, 180 or 270) text at `degrees` (clockwise in the page's view) runs at, or -1 at a slant. */
export function squareOf(degrees: number): number {
  const within = ((degrees % 360) + 360) % 360;
  const quarter = Math.round(within / 90);
  return Math.abs(within - quarter * 90) <= SQUARE ? (quarter % 4) * 90 : -1;
}

/**
 * Which way a page's text runs: the turned direction most of its characters take (`chars`, by right angle: 0, 90,
 * 180, 270), else 0. `all`: every character of the page's text, at a slant too.
 */
export function turnOf(chars: readonly number[], all: number): Turn {
  for (const turn of [90, 180, 270] as const) if (chars[turn / 90]! > TURNED_SHARE * all) return turn;
  return 0;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A box of the page's view (`width` by `height`) in the frame turned by `turn`. */
export function turnBox<B extends Box>(box: B, turn: Turn, width: number, height: number): B {
  switch (turn) {
    case 90:
      return { ...box, x: box.y, y: width - (box.x + box.width), width: box.height, height: box.width };
    case 180:
      return { ...box, x: width - (box.x + box.width), y: height - (box.y + box.height) };
    case 270:
      return { ...box, x: height - (box.y + box.height), y: box.x, width: box.height, height: box.width };
    default:
      return box;
  }
}

/** A rectangle of the page's view (`width` by `height`) in the frame turned by `turn`. */
export function turnRect(rect: Rect, turn: Turn, width: number, height: number): Rect {
  const box = turnBox({ x: rect.x0, y: rect.y0, width: rect.x1 - rect.x0, height: rect.y1 - rect.y0 }, turn, width, height);
  return { x0: box.x, y0: box.y, x1: box.x + box.width, y1: box.y + box.height };
}

/** A rectangle of the turned frame back in the page's view, `width` by `height` (the view's own size). */
export function rectInView(rect: Rect, turn: Turn, width: number, height: number): Rect {
  switch (turn) {
    case 90:
      return { x0: width - rect.y1, y0: rect.x0, x1: width - rect.y0, y1: rect.x1 };
    case 180:
      return { x0: width - rect.x1, y0: height - rect.y1, x1: width - rect.x0, y1: height - rect.y0 };
    case 270:
      return { x0: rect.y0, y0: height - rect.x1, x1: rect.y1, y1: height - rect.x0 };
    default:
      return rect;
  }
}

/** The size of the page's view, from the turned frame's. */
export function viewSize(turn: Turn, width: number, height: number): { width: number; height: number } {
  return turn === 90 || turn === 270 ? { width: height, height: width } : { width, height };
}
