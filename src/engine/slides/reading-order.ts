/**
 * Reading order of the shapes on a slide: top to bottom, and left to right along a row.
 *
 * Shapes are taken by their top edge. A row starts at the highest shape not yet placed (its anchor); a shape joins
 * the row when it starts in the upper half of the anchor and overlaps it vertically by at least half the height of
 * the shorter of the two. So two text boxes side by side are read left then right even when one starts a little
 * lower, while a caption under a picture or table starts a new row, even when the frame it sits under is drawn
 * taller than its content. Within a row shapes go by their left edge. Shapes without a position keep their
 * document order, after the placed ones.
 *
 * A group of shapes (`p:grpSp`, `draw:g`) is read as one shape, placed by the box around its members, and its
 * members are read in the same way among themselves, nested groups too: the author grouped a heading with its
 * text (cards set side by side, a labelled diagram), and each card reads whole instead of the cards' headings in
 * one row and their texts in the next.
 */
import type { Rect } from './slide-model.js';

const ROW_OVERLAP = 0.5;

/**
 * `groupOf` gives the groups an item stands in, outermost first, by ids unique on the slide (none: not grouped).
 */
export function readingOrder<T>(items: readonly T[], rectOf: (item: T) => Rect | null, groupOf: (item: T) => readonly number[] | undefined = () => undefined): T[] {
  return groupedOrder(items, rectOf, groupOf, 0);
}

interface Unit<T> {
  members: T[];
  grouped: boolean;
  rect: Rect | null;
}

function groupedOrder<T>(items: readonly T[], rectOf: (item: T) => Rect | null, groupOf: (item: T) => readonly number[] | undefined, depth: number): T[] {
  const units: Unit<T>[] = [];
  const byGroup = new Map<number, Unit<T>>();
  for (const item of items) {
    const id = groupOf(item)?.[depth];
    if (id === undefined) {
      units.push({ members: [item], grouped: false, rect: rectOf(item) });
      continue;
    }
    const unit = byGroup.get(id);
    if (unit === undefined) {
      const created: Unit<T> = { members: [item], grouped: true, rect: rectOf(item) };
      byGroup.set(id, created);
      units.push(created);
    } else {
      unit.members.push(item);
      unit.rect = union(unit.rect, rectOf(item));
    }
  }
  if (byGroup.size === 0) return flatOrder(items, rectOf);
  return flatOrder(units, (unit) => unit.rect).flatMap((unit) => (unit.grouped ? groupedOrder(unit.members, rectOf, groupOf, depth + 1) : unit.members));
}

function union(a: Rect | null, b: Rect | null): Rect | null {
  if (a === null) return b;
  if (b === null) return a;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

function flatOrder<T>(items: readonly T[], rectOf: (item: T) => Rect | null): T[] {
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
