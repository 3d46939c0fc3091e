/**
 * Headings as a tagged PDF names them. Where the structure tree tags the title and headings (`Title`, `H1`…`H6`),
 * the document's own outline decides, as an HTML page's `<h1>`…`<h6>` do: a block tagged as a heading is one, at
 * its tag's level, even when set like the body or numbered like a list item (`3. Screwdrivers`); a block tagged as
 * body text is not one, even when set bold and short. The title is the block tagged `Title`, or else the first
 * tagged `H1`. Blocks without tags (a page read by the other text reader) keep the layout's own decision. Tags
 * that cannot be an outline (most of the text tagged as headings, or long paragraphs) are not trusted. Pure.
 */
import type { HeadingDecision } from './headings.js';
import { BODY_ROLE, TITLE_ROLE } from './liteparse/structure-roles.js';
import type { ProtoBlock } from './types.js';

/** A heading is a line or a few; tags on longer blocks than this are not headings' tags. */
const HEADING_LINES = 4;
/** Tags that make more than this share of the tagged characters headings are not an outline. */
const MOST_HEADING_CHARS = 0.5;

/**
 * The tagged decision for each block: a heading, null for tagged body text, undefined where the tags say
 * nothing. Undefined altogether when the document tags no heading, or tags that cannot be an outline.
 */
export function taggedHeadings(blocks: readonly ProtoBlock[]): (HeadingDecision | null | undefined)[] | undefined {
  let headingBlocks = 0;
  let longHeadings = 0;
  let headingChars = 0;
  let taggedChars = 0;
  for (const block of blocks) {
    if (block.structure === undefined) continue;
    taggedChars += block.chars;
    if (block.structure === BODY_ROLE) continue;
    headingBlocks++;
    headingChars += block.chars;
    if (block.lines > HEADING_LINES) longHeadings++;
  }
  if (headingBlocks === 0 || 2 * longHeadings > headingBlocks || headingChars > MOST_HEADING_CHARS * taggedChars) return undefined;
  const titled = blocks.some((block) => block.structure === TITLE_ROLE && canHead(block));
  let titleTaken = false;
  return blocks.map((block) => {
    const role = block.structure;
    if (role === undefined) return undefined;
    if (role === BODY_ROLE || !canHead(block)) return null;
    if (!titleTaken && (role === TITLE_ROLE || (!titled && role === 1))) {
      titleTaken = true;
      return { type: 'title', level: 1 };
    }
    return { type: 'section_header', level: Math.max(1, role) };
  });
}

/** A paragraph, or a lone numbered line the layout read as a list item, may be a heading; a table or code may not. */
export function canHead(block: ProtoBlock): boolean {
  return (block.kind === 'paragraph' || block.kind === 'list') && block.lines <= HEADING_LINES && !block.chartLabel && block.source === undefined;
}
