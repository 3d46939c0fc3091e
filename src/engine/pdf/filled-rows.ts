/**
 * Rows a table draws as filled bands: a presentation's table shades its cells row by row (Impress's and
 * PowerPoint's templates), so boxes of a row's height stand one under another behind its text. Lists set side by
 * side in text boxes (which read like a table whose cells open with bullets) have at most a panel behind each list,
 * as tall as the list. Pure.
 */
import type { Rect } from './types.js';

/** Fewest bands, one under another, that make rows drawn. */
const MIN_BANDS = 3;
/** A band is at most this share of the table's height: a panel behind a whole list is none. */
const BAND_SHARE = 0.5;

/** Whether boxes of row height stand behind `rect` at three heights or more (`size`: its text's, for their spacing). */
export function hasFilledRows(rect: Rect, boxes: readonly Rect[], size: number): boolean {
  const height = rect.y1 - rect.y0;
  const tops: number[] = [];
  for (const box of boxes) {
    const x = (box.x0 + box.x1) / 2;
    const y = (box.y0 + box.y1) / 2;
    if (x < rect.x0 || x > rect.x1 || y < rect.y0 || y > rect.y1 || box.y1 - box.y0 > BAND_SHARE * height) continue;
    if (tops.every((top) => Math.abs(top - box.y0) >= 0.5 * size)) tops.push(box.y0);
    if (tops.length >= MIN_BANDS) return true;
  }
  return false;
}
