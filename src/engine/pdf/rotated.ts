/**
 * Rotated text (not horizontal in the page view): grouped by direction, then into lines by distance across
 * the direction, read along it. Typically the vertical arXiv identifier in a margin, or turned table headers.
 */
import type { RotatedItem } from './text-items.js';
import type { Rect } from './types.js';

export interface RotatedLine {
  text: string;
  rect: Rect;
  size: number;
  /** Set at a slant, at least DIAGONAL_DEGREES off both the page's axes (a watermark across the page). */
  diagonal: boolean;
}

/** How far (degrees) from both axes text is set to be diagonal: axis labels turned 90° are not. */
const DIAGONAL_DEGREES = 20;
const DIAGONAL_SINE = Math.sin((DIAGONAL_DEGREES * Math.PI) / 180);

/** Whether text running along (dx, dy), a unit vector, is set at a slant. */
export function isDiagonal(dx: number, dy: number): boolean {
  return Math.abs(dx) >= DIAGONAL_SINE && Math.abs(dy) >= DIAGONAL_SINE;
}

/**
 * Rotated words or items this many ems apart along their line stand in places of their own (the same column's name
 * turned on its side over two tables, one above the other): lines of their own.
 */
export const ROTATED_APART_EM = 3;

export function groupRotated(items: readonly RotatedItem[]): RotatedLine[] {
  const byDirection = new Map<string, RotatedItem[]>();
  for (const item of items) {
    const key = `${Math.round(item.dx * 20)}|${Math.round(item.dy * 20)}`;
    let group = byDirection.get(key);
    if (!group) byDirection.set(key, (group = []));
    group.push(item);
  }
  const lines: RotatedLine[] = [];
  for (const group of byDirection.values()) {
    const first = group[0]!;
    const [dx, dy] = [first.dx, first.dy];
    const diagonal = isDiagonal(dx, dy);
    // Along = position on the reading direction, across = distance perpendicular to it.
    const placed = group
      .map((item) => ({ item, along: item.x * dx + item.y * dy, across: -item.x * dy + item.y * dx }))
      .sort((a, b) => a.across - b.across || a.along - b.along);
    let current: typeof placed = [];
    const flush = () => {
      if (current.length === 0) return;
      current.sort((a, b) => a.along - b.along);
      // Runs on one baseline far apart along it are lines of their own: the same column's name over two tables.
      let run: typeof placed = [];
      let reach = -Infinity;
      for (const entry of current) {
        if (run.length > 0 && entry.along - reach > ROTATED_APART_EM * Math.max(entry.item.size, run[run.length - 1]!.item.size)) {
          pushLine(run);
          run = [];
        }
        run.push(entry);
        reach = Math.max(reach, entry.along + entry.item.length);
      }
      pushLine(run);
      current = [];
    };
    const pushLine = (run: typeof placed) => {
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -Infinity;
      let y1 = -Infinity;
      let size = 0;
      for (const { item } of run) {
        // The glyph box spans `length` along the direction and about one em "up" from the baseline.
        const ux = -dy * item.size;
        const uy = dx * item.size;
        const corners = [
          [item.x, item.y],
          [item.x + dx * item.length, item.y + dy * item.length],
          [item.x - ux, item.y - uy],
          [item.x + dx * item.length - ux, item.y + dy * item.length - uy],
        ];
        for (const [x, y] of corners) {
          x0 = Math.min(x0, x!);
          y0 = Math.min(y0, y!);
          x1 = Math.max(x1, x!);
          y1 = Math.max(y1, y!);
        }
        size = Math.max(size, item.size);
      }
      const text = run
        .map(({ item }) => item.str)
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      if (text) lines.push({ text, rect: { x0, y0, x1, y1 }, size, diagonal });
    };
    for (const entry of placed) {
      const last = current[current.length - 1];
      if (last && Math.abs(entry.across - last.across) > 0.5 * Math.max(entry.item.size, last.item.size)) flush();
      current.push(entry);
    }
    flush();
  }
  return lines;
}
