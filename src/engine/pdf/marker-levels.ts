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
