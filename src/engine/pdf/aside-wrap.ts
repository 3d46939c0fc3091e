/**
 * Text set round a floated box: a newsletter's "Dates for your diary" panel, a pull-out set beside a paragraph.
 * The band beside the box reads as columns (the text's column and the box's), and the paragraph the band's foot
 * broke goes on full width under it: read region by region, the box's text fell inside that paragraph's sentence
 * ("Please save seeds | Dates for your diary … | from your strongest plants"). The paragraph's two parts are one
 * block, in the text's column: the box is read after the whole paragraph. Pure.
 */
import type { RegionBlocks } from './column-notes.js';
import { ENDS_OPEN, OPENS_LOWER } from './columns.js';
import type { ProtoBlock } from './types.js';

/** The rest sits at most this many ems below the part (a line's pitch, not a paragraph's gap). */
const MAX_GAP_EM = 0.8;
/** Its lines reach at least this far (in ems) to each side of the part's: the full width the box gave back. */
const EDGE_EM = 1;

function sameType(a: ProtoBlock, b: ProtoBlock): boolean {
  return a.bold === b.bold && Math.abs(a.size - b.size) <= 0.1 * Math.max(a.size, b.size);
}

/** Whether `rest`, the first block under a band, carries on `part`, the last block of one of its columns. */
function carriesOn(part: ProtoBlock, rest: ProtoBlock): boolean {
  if (part.kind !== 'paragraph' || rest.kind !== 'paragraph' || part.zone || rest.zone || !sameType(part, rest)) return false;
  // The part goes on: no sentence or clause ends it, and no hyphen (a word cut there stays as it is).
  if (!ENDS_OPEN.test(part.text) || !OPENS_LOWER.test(rest.text)) return false;
  const em = part.size;
  const gap = rest.rect.y0 - part.rect.y1;
  return gap >= -0.2 * em && gap <= MAX_GAP_EM * em && rest.rect.x0 <= part.rect.x0 + EDGE_EM * em && rest.rect.x1 >= part.rect.x1 + EDGE_EM * em;
}

function joined(part: ProtoBlock, rest: ProtoBlock): ProtoBlock {
  return {
    ...part,
    text: `${part.text} ${rest.text}`,
    markdown: `${part.markdown} ${rest.markdown}`,
    rect: { x0: Math.min(part.rect.x0, rest.rect.x0), y0: part.rect.y0, x1: Math.max(part.rect.x1, rest.rect.x1), y1: rest.rect.y1 },
    lines: part.lines + rest.lines,
    chars: part.chars + rest.chars,
  };
}

/**
 * The regions with each paragraph broken at the foot of a band of columns by a box beside it made whole again, in
 * its column; the full-width region under the band loses its first block to it.
 */
export function withTextRoundAsides(regions: readonly RegionBlocks[]): RegionBlocks[] {
  const out = regions.map((region) => ({ ...region, blocks: [...region.blocks] }));
  for (let end = 0; end < out.length; end++) {
    const below = out[end + 1];
    if (out[end]!.kind !== 'column' || below?.kind !== 'full') continue;
    const rest = below.blocks[0];
    if (!rest) continue;
    let start = end;
    while (start > 0 && out[start - 1]!.kind === 'column') start--;
    // A band of one column has no box beside the text.
    if (start === end) continue;
    for (let column = start; column <= end; column++) {
      const blocks = out[column]!.blocks;
      const part = blocks[blocks.length - 1];
      if (!part || !carriesOn(part, rest)) continue;
      blocks[blocks.length - 1] = joined(part, rest);
      below.blocks.shift();
      break;
    }
  }
  return out;
}
