/**
 * Levels a list shows by its bullets alone. Korean reports (개조식) set `□` items, `○` under them, `-` under those
 * and `·` under those, often all at one indent: the glyph is the level. A list whose items start level with one
 * another and use two of these glyphs or more, the first item at its shallowest, is nested by them. Pure.
 */
import type { ListMarker } from './paragraphs.js';

/** Each glyph's level in the Korean convention. */
const LEVEL_OF_GLYPH: ReadonlyMap<string, number> = new Map([
  ['□', 0],
  ['■', 0],
  ['○', 1],
  ['◦', 1],
  ['●', 1],
  ['-', 2],
  ['–', 2],
  ['·', 3],
]);

/** Items whose markers start this far apart (in ems) at most are set at one indent. */
const LEVEL_EM = 0.5;

/** Per item, the level its bullet gives it; undefined where the list does not nest by its bullets. */
export function levelsByGlyph(items: readonly { marker: ListMarker; start: number }[], em: number): number[] | undefined {
  if (items.length < 2) return undefined;
  const levels: number[] = [];
  const first = items[0]!.start;
  for (const { marker, start } of items) {
    const level = marker.glyph === undefined ? undefined : LEVEL_OF_GLYPH.get(marker.glyph);
    if (level === undefined || Math.abs(start - first) > LEVEL_EM * em) return undefined;
    levels.push(level);
  }
  const shallowest = Math.min(...levels);
  if (levels[0] !== shallowest || new Set(levels).size < 2) return undefined;
  return levels.map((level) => level - shallowest);
}

/**
 * How far apart (in ems, bottom to top) two items of a report's bullet ladder may stand and still be one list: a
 * press release sets its `□` items a paragraph's spacing apart, the `○` items under one set in a step.
 */
const LADDER_GAP_EM = 3;

/** Whether an item led by `next` goes on the list whose last item `last` leads, `gap` (page units) under it. */
export function goesOnLadder(last: ListMarker, next: ListMarker, gap: number, em: number): boolean {
  const onLadder = (marker: ListMarker) => marker.glyph !== undefined && LEVEL_OF_GLYPH.has(marker.glyph);
  return onLadder(last) && onLadder(next) && gap <= LADDER_GAP_EM * em;
}

/** A line framed by dashes (`- 회수율 78%로 시범 지역보다 높아 -`) is a subtitle, not an item its first dash leads. */
export function isDashFramed(text: string): boolean {
  return /^[-–—]\s.+\s[-–—]$/u.test(text.trim());
}
