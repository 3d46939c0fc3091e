/**
 * Paragraphs broken by a page break. Most page breaks of a report or a book fall inside a paragraph, often inside a
 * sentence: the page's flow ends mid-sentence and the next page's flow takes it up. Each page keeps its own part
 * (its Markdown, its block), and the document Markdown joins the two parts with a space instead of a paragraph
 * break (render.ts), so that a sentence is not cut in two for a reader or a chunker. Pure.
 */
import type { ProtoBlock } from './types.js';

/** The font sizes of the two parts may differ by this share. */
const SIZE_TOLERANCE = 0.12;
/** A sentence (or a clause) ended, maybe inside quotes or brackets; or a word broken at the line end. */
const ENDED = /[.!?:;。！？\-\u00ad\u2010]["'”’)\]]*$/u;

function isRunningText(block: ProtoBlock, headings: ReadonlySet<ProtoBlock>): boolean {
  return block.kind === 'paragraph' && !headings.has(block) && block.chartLabel !== true;
}

/**
 * Whether `below`, the first block of a page's flow, carries on `above`, the last of the page before: both running
 * text in the same size and weight, `above` of two lines or more stopping without ending its sentence (nor on a
 * broken word, whose hyphen its page keeps), and `below` going on in lower case.
 */
export function runsOnAcrossPages(above: ProtoBlock, below: ProtoBlock, headings: ReadonlySet<ProtoBlock>): boolean {
  // A lone line is a fragment of its own (an "or" between two examples), not the last line of a broken paragraph.
  if (!isRunningText(above, headings) || !isRunningText(below, headings) || above.lines < 2) return false;
  if (above.bold !== below.bold) return false;
  if (Math.abs(above.size - below.size) > SIZE_TOLERANCE * Math.max(above.size, below.size)) return false;
  const before = above.text.trimEnd();
  return before !== '' && !ENDED.test(before) && /^\p{Ll}/u.test(below.text.trimStart());
}

/** A page's blocks in reading order, page furniture left out (a running footer between two parts does not part them). */
export interface FlowPage {
  pageNumber: number;
  blocks: readonly ProtoBlock[];
}

/** The blocks that carry on the last block of the page just before theirs; a page without blocks ends any run. */
export function blocksRunningOn(pages: readonly FlowPage[], headings: ReadonlySet<ProtoBlock>): Set<ProtoBlock> {
  const running = new Set<ProtoBlock>();
  for (let i = 1; i < pages.length; i++) {
    const previous = pages[i - 1]!;
    if (pages[i]!.pageNumber !== previous.pageNumber + 1) continue;
    const above = previous.blocks[previous.blocks.length - 1];
    const below = pages[i]!.blocks[0];
    if (above && below && runsOnAcrossPages(above, below, headings)) running.add(below);
  }
  return running;
}
