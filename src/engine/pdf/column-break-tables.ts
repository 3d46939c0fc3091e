/**
 * A table cut at a column break: its first rows at the foot of one column of the page, the rest at the top of the
 * next (a paper set in two columns lets a table run on as text does). In reading order the two parts stand one
 * right after the other, the second to the right of the first and higher up the page, both as wide, with as many
 * columns: the second carries on the first (table-stitch.ts writes them as one table). Pure.
 */
import type { ProtoBlock } from './types.js';

/** The two parts' widths may differ by this share of the first's: each spans its own cells' text, a header's label wider than the figures under it. */
const SAME_WIDTH = 0.1;
/** The second part starts at least this many of the first part's type sizes higher up the page. */
const HIGHER_BY_SIZES = 2;
/** The second part may start this far (points) left of the first part's right edge: columns set close. */
const SIDE_SLACK = 2;

/** Whether table block `below`, read right after table block `above`, is its rows carried on in the next column. */
export function continuesInNextColumn(above: ProtoBlock, below: ProtoBlock): boolean {
  const a = above.table;
  const b = below.table;
  if (above.kind !== 'table' || below.kind !== 'table' || !a || !b || a.colCount !== b.colCount || a.colCount < 2) return false;
  const width = above.rect.x1 - above.rect.x0;
  const sameWidth = Math.abs(below.rect.x1 - below.rect.x0 - width) <= SAME_WIDTH * width;
  const nextColumn = below.rect.x0 >= above.rect.x1 - SIDE_SLACK;
  const higher = below.rect.y0 < above.rect.y0 - HIGHER_BY_SIZES * above.size;
  return sameWidth && nextColumn && higher;
}
