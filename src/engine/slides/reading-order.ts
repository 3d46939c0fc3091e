/**
 * Reading order of the shapes on a slide: top to bottom, and left to right along a row.
 *
 * Shapes are taken by their top edge. A row starts at the highest shape not yet placed (its anchor); a shape joins
 * the row when it starts in the upper half of the anchor and overlaps it vertically by at least half the height of
 * the shorter of the two. So two text boxes side by side are read left then right even when one starts a little
 * lower, while a caption under a picture or table starts a new row, even when the frame it sits under is drawn
 * taller than its content. Within a row shapes go by their left edge. Shapes without a position keep their
 * document order, after the placed ones.
 */
import type { Rect } from './slide-model.js';

const ROW_OVERLAP = 0.5;

export function readingOrder<T>(items: readonly T[], rectOf: (item: T) => Rect | null): T[] {
  const placed: { item: T; rect: Rect; index: number }[] = [];
  const unplaced: T[] = [];
  items.forEach((item, index) => {
    const rect = rectOf(item);
    if (rect === null) unplaced.push(item);
    else placed.push({ item, rect, index });
  });
  placed.sort((a, b) => a.rect.y - b.rect.y || a.rect.x - b.rect.x || a.index - b.index);

  const ordered: T[] = [];
  const taken = new Array<boolean>(placed.length).fill(false);
  for (let start = 0; start < placed.length; start += 1) {
    if (taken[start]) continue;
    const anchor = placed[start] as (typeof placed)[number];
    const row = [anchor];
    taken[start] = true;
    for (let other = start + 1; other < placed.length; other += 1) {
      const candidate = placed[other] as (typeof placed)[number];
      if (candidate.rect.y >= anchor.rect.y + anchor.rect.height) break;
      if (!taken[other] && sameRow(anchor.rect, candidate.rect)) {
        row.push(candidate);
        taken[other] = true;
      }
    }
    row.sort((a, b) => a.rect.x - b.rect.x || a.rect.y - b.rect.y || a.index - b.index);
    for (const entry of row) ordered.push(entry.item);
  }
  return [...ordered, ...unplaced];
}

function sameRow(anchor: Rect, candidate: Rect): boolean {
  if (candidate.y > anchor.y + anchor.height / 2) return false;
  const overlap = Math.min(anchor.y + anchor.height, candidate.y + candidate.height) - Math.max(anchor.y, candidate.y);
  const shorter = Math.min(anchor.height, candidate.height);
  if (shorter <= 0) return overlap >= 0 && candidate.y < anchor.y + anchor.height;
  return overlap >= shorter * ROW_OVERLAP;
}
