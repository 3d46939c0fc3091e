/**
 * Paragraphs broken by a page or a column break. Most page breaks of a report or a book fall inside a paragraph,
 * often inside a sentence: the page's flow ends mid-sentence and the next page's flow takes it up; so does the foot
 * of a column and the head of the next. Each part keeps its block (and each page its Markdown), and the Markdown
 * joins the two parts with a space instead of a paragraph break (render.ts), or with nothing where the break cut a
 * word at its hyphen, so that a sentence is not cut in two for a reader or a chunker. Pure.
 */
import type { ProtoBlock } from './types.js';

/** The blocks the document takes for headings (a set, or the map of their levels). */
type HeadingSet = Pick<ReadonlySet<ProtoBlock>, 'has'>;

/** The font sizes of the two parts may differ by this share. */
const SIZE_TOLERANCE = 0.12;
/** A sentence (or a clause) ended, maybe inside quotes or brackets; or a word broken at the line end. */
const ENDED = /[.!?:;。！？\-\u00ad\u2010]["'”’)\]]*$/u;
/** A word broken at the break, after a letter. */
const BROKEN_WORD = /\p{L}[-\u00ad\u2010]$/u;

/** How a block carries on the one before it: the sentence goes on (a space), or the word broken at its hyphen. */
export type RunOn = 'sentence' | 'word';

function isRunningText(block: ProtoBlock, headings: HeadingSet): boolean {
  return block.kind === 'paragraph' && !headings.has(block) && block.chartLabel !== true;
}

/**
 * Whether `below` carries on `above`, the block before it in reading order across a page or column break: both
 * running text in the same size and weight, `above` of two lines or more stopping without ending its sentence (a
 * broken word is runOf's `word`), and `below` going on in lower case (in Hangul, after a particle or a connective
 * ending).
 */
export function runsOn(above: ProtoBlock, below: ProtoBlock, headings: HeadingSet): boolean {
  return runOf(above, below, headings) === 'sentence';
}

/**
 * How `below` carries on `above` (see runsOn), or undefined: a sentence, or a word broken at the break
 * (`Tues-` + `day`), whose hyphen each block keeps.
 */
export function runOf(above: ProtoBlock, below: ProtoBlock, headings: HeadingSet, measure?: number): RunOn | undefined {
  if (!isRunningText(above, headings) || !isRunningText(below, headings) || above.bold !== below.bold) return undefined;
  if (Math.abs(above.size - below.size) > SIZE_TOLERANCE * Math.max(above.size, below.size)) return undefined;
  const before = above.text.trimEnd();
  const after = below.text.trimStart();
  if (before === '' || !(/^\p{Ll}/u.test(after) || carriesOnInHangul(before, after))) return undefined;
  // A word cut at its hyphen goes on, even from a paragraph's first line at the foot of a column.
  if (BROKEN_WORD.test(before)) return 'word';
  // A lone line is a fragment of its own (an "or" between two examples), not the last line of a broken paragraph,
  // unless it is as wide as the lines it goes on into: a paragraph's first line, filled, at the foot of a column.
  return ENDED.test(before) || (above.lines < 2 && !isFilledLine(above, below, measure)) ? undefined : 'sentence';
}

/**
 * How a Korean word ends when its sentence goes on: particles and connective endings no noun ends in as often
 * (`모델을`, `지역에서`, `있으나`, `하며`, `것으로`), or a comma. Hangul has no lower case to say the text below goes
 * on; a sentence ends in `다`, `요`, `음` or `함`, and a list item's fragment in a noun (`성과`, `평가`, `보고서`,
 * whose last syllables are also particles, are left out for that).
 */
const GOES_ON_HANGUL = /(?:[을를에와며,]|하고|하여|해서|으나|지만|으며|하는|되는|에서|으로|부터|까지)$/u;
const STARTS_HANGUL = /^[\uac00-\ud7a3]/u;

/** Korean text cut mid-sentence (its last word ends in a particle or a connective ending) and going on in Hangul. */
function carriesOnInHangul(before: string, after: string): boolean {
  return GOES_ON_HANGUL.test(before) && STARTS_HANGUL.test(after);
}

/** A filled line runs this share of the width of the paragraph it goes on into, at the least. */
const FILLED_SHARE = 0.85;

/**
 * A lone line as wide as the paragraph it goes on into, or, where that is a lone line too (a paragraph's two lines
 * parted by a page break), as wide as the column's `measure`.
 */
function isFilledLine(line: ProtoBlock, paragraph: ProtoBlock, measure: number | undefined): boolean {
  const width = (block: ProtoBlock) => block.rect.x1 - block.rect.x0;
  if (line.lines !== 1) return false;
  if (paragraph.lines >= 2) return width(line) >= FILLED_SHARE * width(paragraph);
  return measure !== undefined && width(line) >= FILLED_SHARE * measure;
}

/**
 * The width of the column `block` stands in on its page: that of the page's widest paragraph of running text of two
 * lines or more starting where it starts, in its size; undefined where the page has none.
 */
function columnMeasure(block: ProtoBlock, page: FlowPage, headings: HeadingSet): number | undefined {
  let measure: number | undefined;
  for (const other of page.blocks) {
    if (other.lines < 2 || !isRunningText(other, headings)) continue;
    if (Math.abs(other.rect.x0 - block.rect.x0) > block.size || Math.abs(other.size - block.size) > SIZE_TOLERANCE * block.size) continue;
    const width = other.rect.x1 - other.rect.x0;
    if (measure === undefined || width > measure) measure = width;
  }
  return measure;
}

/** A line of the page's margin zone stands at most this many ems below the block above for the block to go on into it. */
const MARGIN_LINE_GAP = 0.8;

/**
 * A line alone at the page's foot (or head) right under the block before it, set apart as a running footer might be,
 * that the document did not take for one: the last line of a paragraph the page ends with (`change.`).
 */
function isMarginLineUnder(before: ProtoBlock, block: ProtoBlock): boolean {
  return block.zone !== undefined && block.rect.y0 >= before.rect.y1 && block.rect.y0 - before.rect.y1 <= MARGIN_LINE_GAP * block.size;
}

/** A page's blocks in reading order, page furniture left out (a running footer between two parts does not part them). */
export interface FlowPage {
  pageNumber: number;
  blocks: readonly ProtoBlock[];
}

/**
 * The blocks that carry on the block before them: the first block of a page, the last of the page just before
 * (a page without blocks ends any run); a block that starts higher up its page than the block before it ends, that
 * one (the head of the next column beside the foot of the last), never one below it in its column.
 */
export function blocksRunningOn(pages: readonly FlowPage[], headings: HeadingSet): Map<ProtoBlock, RunOn> {
  const running = new Map<ProtoBlock, RunOn>();
  const add = (above: ProtoBlock, block: ProtoBlock, page: FlowPage) => {
    // The column's measure is looked for only where both parts are lone lines.
    const measure = above.lines === 1 && block.lines === 1 ? columnMeasure(above, page, headings) : undefined;
    const run = runOf(above, block, headings, measure);
    if (run) running.set(block, run);
  };
  pages.forEach((page, i) => {
    const previous = pages[i - 1];
    const above = previous && previous.pageNumber === page.pageNumber - 1 ? previous.blocks[previous.blocks.length - 1] : undefined;
    const first = page.blocks[0];
    if (above && first) add(above, first, previous!);
    for (let j = 1; j < page.blocks.length; j++) {
      const before = page.blocks[j - 1]!;
      const block = page.blocks[j]!;
      if (block.rect.y0 < before.rect.y1 || isMarginLineUnder(before, block)) add(before, block, page);
    }
  });
  return running;
}
