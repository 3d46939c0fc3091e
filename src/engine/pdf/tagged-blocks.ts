/**
 * The roles a tagged PDF gives its text, carried to the page layout's blocks: each block takes the role of most
 * of its tagged characters (a heading's line and the paragraph under it are told apart by their tags even when
 * set alike). Pure.
 */
import type { TaggedRun } from './liteparse/page-items.js';
import type { StructureMark, StructureRole } from './liteparse/structure-roles.js';
import { ASCENT, type ProtoBlock, type TextLine } from './types.js';

/** How far (pt) a run's centre may stand outside a block's box and still be in it (boxes are cut tight). */
const SLACK = 1;

function holds(block: ProtoBlock, x: number, y: number): boolean {
  const { x0, y0, x1, y1 } = block.rect;
  return x >= x0 - SLACK && x <= x1 + SLACK && y >= y0 - SLACK && y <= y1 + SLACK;
}

/**
 * The smallest block whose box holds the point: a table's box may hold a line that is none of its cells (a form's
 * answer drawn over a grid of labels), whose own block is the run's.
 */
function innermostHolding(blocks: readonly ProtoBlock[], x: number, y: number): ProtoBlock | undefined {
  let best: ProtoBlock | undefined;
  let bestArea = Infinity;
  for (const block of blocks) {
    if (!holds(block, x, y)) continue;
    const area = (block.rect.x1 - block.rect.x0) * (block.rect.y1 - block.rect.y0);
    if (area < bestArea) {
      best = block;
      bestArea = area;
    }
  }
  return best;
}

/**
 * Sets `structure` on each block that holds tagged runs; a margin-zone block with none, set no bigger than the
 * page's body (`bodySize`), is marked an artifact: a tagged PDF leaves its running headers, footers and page
 * numbers out of the structure tree (Word and LibreOffice mark them `/Artifact`), so the page alone says what
 * a single page's header is, where the document would need it to recur.
 */
export function assignStructureRoles(blocks: readonly ProtoBlock[], runs: readonly TaggedRun[], bodySize = 0): void {
  const counts = new Map<ProtoBlock, Map<StructureRole, number>>();
  for (const run of runs) {
    const x = (run.x0 + run.x1) / 2;
    // The middle of the run's letters: half the ascent above the baseline.
    const y = run.baseline - (ASCENT * run.size) / 2;
    const block = innermostHolding(blocks, x, y);
    if (!block) continue;
    let roles = counts.get(block);
    if (!roles) counts.set(block, (roles = new Map()));
    roles.set(run.role, (roles.get(run.role) ?? 0) + run.chars);
  }
  for (const [block, roles] of counts) {
    let best: StructureRole | undefined;
    let most = -1;
    for (const [role, chars] of roles) {
      if (chars > most) {
        best = role;
        most = chars;
      }
    }
    if (best !== undefined) block.structure = best;
  }
  for (const block of blocks) {
    if (block.zone && !counts.has(block) && block.size <= ARTIFACT_SIZE * bodySize) block.artifact = true;
  }
}

/** A margin line set bigger than this many times the body is a title, whatever its tags. */
const ARTIFACT_SIZE = 1.15;

/** The mark most of a line's tagged characters have, for the page's runs (undefined: no tagged run on it). */
export function lineMarkFinder(runs: readonly TaggedRun[]): (line: TextLine) => StructureMark | undefined {
  return (line) => {
    let best: TaggedRun | undefined;
    let most = 0;
    const chars = new Map<number, number>();
    for (const run of runs) {
      if (run.baseline < line.top || run.baseline > line.bottom + SLACK) continue;
      const x = (run.x0 + run.x1) / 2;
      if (x < line.x0 - SLACK || x > line.x1 + SLACK) continue;
      const total = (chars.get(run.element) ?? 0) + run.chars;
      chars.set(run.element, total);
      if (total > most) {
        best = run;
        most = total;
      }
    }
    return best ? { role: best.role, element: best.element } : undefined;
  };
}
