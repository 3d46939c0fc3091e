/**
 * Ruling lines: the straight, axis-parallel strokes and thin filled rectangles a page draws (table borders,
 * underlines, separators). The patched pdfjs worker feeds path operators to a `RulingRecorder` while it reads a
 * content stream for its text (no second pass over the page); the recorder keeps only what can be a rule.
 */
import type { Rect } from './types.js';

/** A rule in top-down viewport space: horizontal (y0 === y1) or vertical (x0 === x1), x0 ≤ x1 and y0 ≤ y1. */
export type Ruling = Rect;

/** The most rules one content stream may report; a page of vector art stops contributing past it. */
export const MAX_RULINGS_PER_STREAM = 20_000;
/** The most filled boxes one content stream may report (more is vector art; box tables give up far below). */
const MAX_BOXES_PER_STREAM = 2_000;
/** A filled rectangle at most this thick (page units), and at least 3× as long, is drawn as a line. */
const THIN_FILL = 3;
/** A segment whose ends differ by at most this much across its direction is axis-parallel. */
const SLANT = 0.5;
/** Shorter segments are dots, ticks or glyph-like marks, not rules. */
const MIN_LENGTH = 2;

type Matrix = readonly number[];

/**
 * Collects rule candidates from one content stream's path operators, in the stream's device space (the page's
 * user space after the current transformation matrix). Plain numbers in one flat array, four per rule, so the
 * result crosses pdfjs's message port cheaply.
 */
export class RulingRecorder {
  private readonly rules: number[] = [];
  /** Filled rectangles too thick to be rules: the cells of tables drawn as boxes (box-tables.ts). */
  private readonly boxes: number[] = [];
  /** The subpath being built: its points, device space, flat x/y pairs. */
  private subpath: number[] = [];
  /** Closed subpaths and open ones waiting for the paint operator. */
  private subpaths: { points: number[]; closed: boolean }[] = [];
  overflowed = false;

  moveTo(x: number, y: number, ctm: Matrix): void {
    this.endSubpath(false);
    this.addPoint(x, y, ctm);
  }

  lineTo(x: number, y: number, ctm: Matrix): void {
    if (this.subpath.length === 0) return;
    this.addPoint(x, y, ctm);
  }

  /** A curve ends the straight run: its end point starts a new (unpainted so far) subpath. */
  curveTo(x: number, y: number, ctm: Matrix): void {
    this.endSubpath(false);
    this.addPoint(x, y, ctm);
  }

  rectangle(x: number, y: number, width: number, height: number, ctm: Matrix): void {
    this.endSubpath(false);
    this.addPoint(x, y, ctm);
    this.addPoint(x + width, y, ctm);
    this.addPoint(x + width, y + height, ctm);
    this.addPoint(x, y + height, ctm);
    this.endSubpath(true);
  }

  closePath(): void {
    const start = this.subpath.slice(0, 2);
    this.endSubpath(true);
    // After closing, the current point is the subpath's start (a following lineTo draws from it).
    if (start.length === 2) this.subpath = start;
  }

  /** Painting ends the path: a stroke keeps its axis-parallel segments, a fill its thin rectangles. */
  paint(stroke: boolean, fill: boolean): void {
    this.endSubpath(false);
    for (const { points, closed } of this.subpaths) {
      if (stroke) this.strokeSegments(points, closed);
      else if (fill) this.fillRectangle(points);
    }
    this.subpaths = [];
    this.subpath = [];
  }

  /** The rules recorded so far (x0, y0, x1, y1 each, device space). */
  take(): number[] {
    return this.rules;
  }

  /** The filled boxes recorded so far (x0, y0, x1, y1 each, device space). */
  takeBoxes(): number[] {
    return this.boxes;
  }

  private addPoint(x: number, y: number, ctm: Matrix): void {
    if (typeof x !== 'number' || typeof y !== 'number') return;
    // Indexed, not destructured: pdfjs keeps the matrix in a Float32Array, and this runs for every path point.
    const px = ctm[0]! * x + ctm[2]! * y + ctm[4]!;
    const py = ctm[1]! * x + ctm[3]! * y + ctm[5]!;
    if (Number.isFinite(px) && Number.isFinite(py)) this.subpath.push(px, py);
  }

  private endSubpath(closed: boolean): void {
    // A subpath of one point draws nothing; bound the points a path may hold (a hostile stream has millions).
    if (this.subpath.length >= 4 && this.subpaths.length < 4 * MAX_RULINGS_PER_STREAM) {
      this.subpaths.push({ points: this.subpath, closed });
    }
    this.subpath = [];
  }

  private push(x0: number, y0: number, x1: number, y1: number): void {
    if (this.rules.length >= 4 * MAX_RULINGS_PER_STREAM) {
      this.overflowed = true;
      return;
    }
    this.rules.push(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1));
  }

  private strokeSegments(points: readonly number[], closed: boolean): void {
    const n = points.length / 2;
    const last = closed ? n : n - 1;
    for (let i = 0; i < last; i++) {
      const j = (i + 1) % n;
      const x0 = points[2 * i]!;
      const y0 = points[2 * i + 1]!;
      const x1 = points[2 * j]!;
      const y1 = points[2 * j + 1]!;
      const dx = Math.abs(x1 - x0);
      const dy = Math.abs(y1 - y0);
      if (dy <= SLANT && dx >= MIN_LENGTH) this.push(x0, (y0 + y1) / 2, x1, (y0 + y1) / 2);
      else if (dx <= SLANT && dy >= MIN_LENGTH) this.push((x0 + x1) / 2, y0, (x0 + x1) / 2, y1);
    }
  }

  /** A filled axis-parallel rectangle (four corners, or five with the start repeated) that is thin: its centre line. */
  private fillRectangle(points: readonly number[]): void {
    let n = points.length / 2;
    if (n === 5 && points[0] === points[8] && points[1] === points[9]) n = 4;
    if (n !== 4) return;
    for (let i = 0; i < 4; i++) {
      const j = (i + 1) % 4;
      const dx = Math.abs(points[2 * j]! - points[2 * i]!);
      const dy = Math.abs(points[2 * j + 1]! - points[2 * i + 1]!);
      if (dx > SLANT && dy > SLANT) return;
    }
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (let i = 0; i < 4; i++) {
      x0 = Math.min(x0, points[2 * i]!);
      x1 = Math.max(x1, points[2 * i]!);
      y0 = Math.min(y0, points[2 * i + 1]!);
      y1 = Math.max(y1, points[2 * i + 1]!);
    }
    const width = x1 - x0;
    const height = y1 - y0;
    if (height <= THIN_FILL && width >= 3 * height && width >= MIN_LENGTH) this.push(x0, (y0 + y1) / 2, x1, (y0 + y1) / 2);
    else if (width <= THIN_FILL && height >= 3 * width && height >= MIN_LENGTH) this.push((x0 + x1) / 2, y0, (x0 + x1) / 2, y1);
    else if (width > THIN_FILL && height > THIN_FILL && this.boxes.length < 4 * MAX_BOXES_PER_STREAM) this.boxes.push(x0, y0, x1, y1);
  }
}

/** The marker item the patched worker adds to a content stream's text content when it drew rules. */
export interface RulingsItem {
  type: 'docmillRulings';
  rules: number[];
  /** Filled boxes, four numbers each as the rules (absent from workers before boxes were recorded). */
  boxes?: number[];
}

export function isRulingsItem(item: unknown): item is RulingsItem {
  return (item as { type?: unknown } | null)?.type === 'docmillRulings' && Array.isArray((item as RulingsItem).rules);
}

/**
 * Device-space rules → viewport rules (top-down, rotation applied), still axis-parallel for pages rotated by a
 * multiple of 90°; anything else is dropped.
 */
export function rulingsInViewport(rules: readonly number[], viewportTransform: readonly number[]): Ruling[] {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = viewportTransform;
  const out: Ruling[] = [];
  for (let i = 0; i + 3 < rules.length && out.length < MAX_RULINGS_PER_STREAM * 4; i += 4) {
    const x0 = a * rules[i]! + c * rules[i + 1]! + e;
    const y0 = b * rules[i]! + d * rules[i + 1]! + f;
    const x1 = a * rules[i + 2]! + c * rules[i + 3]! + e;
    const y1 = b * rules[i + 2]! + d * rules[i + 3]! + f;
    if (![x0, y0, x1, y1].every(Number.isFinite)) continue;
    if (Math.abs(x1 - x0) > SLANT && Math.abs(y1 - y0) > SLANT) continue;
    out.push({ x0: Math.min(x0, x1), y0: Math.min(y0, y1), x1: Math.max(x0, x1), y1: Math.max(y0, y1) });
  }
  return out;
}

/** Device-space boxes → viewport rectangles (corners through the transform, then ordered). */
export function boxesInViewport(boxes: readonly number[], viewportTransform: readonly number[]): Rect[] {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = viewportTransform;
  const out: Rect[] = [];
  for (let i = 0; i + 3 < boxes.length && out.length < MAX_BOXES_PER_STREAM; i += 4) {
    const x0 = a * boxes[i]! + c * boxes[i + 1]! + e;
    const y0 = b * boxes[i]! + d * boxes[i + 1]! + f;
    const x1 = a * boxes[i + 2]! + c * boxes[i + 3]! + e;
    const y1 = b * boxes[i + 2]! + d * boxes[i + 3]! + f;
    if (![x0, y0, x1, y1].every(Number.isFinite)) continue;
    out.push({ x0: Math.min(x0, x1), y0: Math.min(y0, y1), x1: Math.max(x0, x1), y1: Math.max(y0, y1) });
  }
  return out;
}
