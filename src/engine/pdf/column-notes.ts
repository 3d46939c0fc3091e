/**
 * Footnotes set at the foot of each column of a page in columns are read after the columns, as a reader turns
 * from the foot of one column to the top of the next: a sentence running from one column into the next is not
 * cut by the first column's notes.
 *
 * A column's notes: the blocks that end the column, set smaller than the page's body, the first of them opening
 * with a note's number or mark (`25 Beckford, …`, `* See …`). They move only when another column of the same band
 * follows with body text; the last column's notes stay where they are, after it.
 */
import { opensNote } from './paragraphs.js';
import type { ProtoBlock } from './types.js';

/** A note is set at most this share of the body's size. */
const NOTE_SMALLER = 0.92;

export interface RegionBlocks {
  kind: 'full' | 'column';
  blocks: ProtoBlock[];
}

/** Where the notes at the foot of `blocks` begin and end (before its margin lines); both `end` when it has none. */
function notesSpan(blocks: readonly ProtoBlock[], bodySize: number): { start: number; end: number } {
  // The column's margin lines (a page number under it) come after its notes and stay where they are.
  let end = blocks.length;
  while (end > 0 && blocks[end - 1]!.zone) end--;
  let start = end;
  while (start > 0) {
    const block = blocks[start - 1]!;
    if (block.zone || block.kind !== 'paragraph' || !(block.size < NOTE_SMALLER * bodySize)) break;
    start--;
  }
  // The notes are a run that opens with a note's number; a small paragraph without one is something else.
  while (start < end && !opensNote(blocks[start]!.text)) start++;
  return { start, end };
}

function holdsBody(blocks: readonly ProtoBlock[], bodySize: number): boolean {
  return blocks.some((block) => !block.zone && block.kind === 'paragraph' && block.size >= NOTE_SMALLER * bodySize);
}

/** The page's blocks in reading order, regions in turn, each column's notes after the last column of its band. */
export function withColumnNotesLast(regions: readonly RegionBlocks[], bodySize: number): ProtoBlock[] {
  const out: ProtoBlock[] = [];
  let held: ProtoBlock[] = [];
  regions.forEach((region, index) => {
    const { blocks } = region;
    const next = regions[index + 1];
    const bandGoesOn = region.kind === 'column' && next?.kind === 'column' && holdsBody(next.blocks, bodySize);
    if (!bandGoesOn && held.length === 0) {
      for (const block of blocks) out.push(block);
      return;
    }
    const { start, end } = region.kind === 'column' && bodySize > 0 ? notesSpan(blocks, bodySize) : { start: blocks.length, end: blocks.length };
    for (let i = 0; i < start; i++) out.push(blocks[i]!);
    if (bandGoesOn) {
      // Held for the foot of the band, in the order the columns come.
      for (let i = start; i < end; i++) held.push(blocks[i]!);
      for (let i = end; i < blocks.length; i++) out.push(blocks[i]!);
      return;
    }
    for (const note of held) out.push(note);
    for (let i = start; i < blocks.length; i++) out.push(blocks[i]!);
    held = [];
  });
  for (const note of held) out.push(note);
  return out;
}
