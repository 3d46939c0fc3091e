/**
 * Small measurements the layout modules share: a median, the rectangle around lines, whether
 * two rectangles overlap.
 */
import type { Rect, TextLine } from './types.js';

/** The upper median (0 for no values). */
export function median(values: readonly number[]): number {
  // Most calls are of a word or two (an item's words, a line's cells): no copy sorted for them. As the sort leaves
  // them: a NaN compares as equal and keeps its place.
  if (values.length <= 2) return values.length === 2 ? (values[0]! > values[1]! ? values[0]! : values[1]!) : (values[0] ?? 0);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The value half the weight lies at or below (the first value whose running weight reaches half); undefined for none. */
export function weightedMedian(entries: readonly { value: number; weight: number }[]): number | undefined {
  const sorted = [...entries].sort((a, b) => a.value - b.value);
  const half = sorted.reduce((sum, entry) => sum + entry.weight, 0) / 2;
  let seen = 0;
  for (const entry of sorted) {
    seen += entry.weight;
    if (seen >= half) return entry.value;
  }
  return undefined;
}

/** The smallest rectangle holding every line. */
export function boundingRect(lines: readonly TextLine[]): Rect {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const line of lines) {
    x0 = Math.min(x0, line.x0);
    y0 = Math.min(y0, line.top);
    x1 = Math.max(x1, line.x1);
    y1 = Math.max(y1, line.bottom);
  }
  return { x0, y0, x1, y1 };
}

/**
 * Whether a span from `x0` to `x1` is centred between `left` and `right` (its middle within `size` of theirs) and set
 * in from both by `size` at least: a centred title, not a full line.
 */
export function isCentredBetween(x0: number, x1: number, left: number, right: number, size: number): boolean {
  return Math.abs(x0 + x1 - left - right) <= 2 * size && x0 - left >= size && right - x1 >= size;
}

/** Whether two rectangles share some area (touching edges do not). */
export function overlaps(a: Rect, b: Rect): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}
