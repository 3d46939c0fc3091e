/**
 * The title said twice at the top of the content: the title heading and, beside it, the same words again in a
 * paragraph or a smaller heading (a kicker or breadcrumb repeating the title, a heading kept by readability next
 * to the one restored from the page's header). The second copy adds nothing; the title heading stays.
 */
import { type DomElement, elementChildren, normalisedLength, normalisedText, tagOf } from './dom.js';

/** Blocks just before or after the title heading that are looked at for a copy of it. */
const NEIGHBOURS = 2;
/** A title shorter than this (characters, letters and digits only) is too common a phrase to call a copy. */
const MIN_TITLE = 12;
const BLOCK_TAGS = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'section', 'span', 'a', 'strong', 'b', 'em']);
const CONTAINER_TAGS = new Set(['div', 'header', 'section', 'article', 'main', 'hgroup']);

const comparable = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Removes copies of the content's first `<h1>` found just before or after it (in place). */
export function removeTitleCopies(root: DomElement): void {
  const title = root.querySelector('h1');
  if (title === null) return;
  const key = comparable(normalisedText(title));
  if (key.length < MIN_TITLE) return;
  const blocks = textBlocks(root);
  const at = blocks.indexOf(title);
  if (at < 0) return;
  for (const block of blocks.slice(Math.max(0, at - NEIGHBOURS), at + NEIGHBOURS + 1)) {
    if (block !== title && comparable(normalisedText(block)) === key) block.remove();
  }
}

/** The content's innermost text blocks in page order: a container's text is its children's. */
function textBlocks(root: DomElement): DomElement[] {
  const blocks: DomElement[] = [];
  const visit = (element: DomElement): void => {
    for (const child of elementChildren(element)) {
      const tag = tagOf(child);
      if (CONTAINER_TAGS.has(tag) && [...elementChildren(child)].some((inner) => CONTAINER_TAGS.has(tagOf(inner)) || tagOf(inner) === 'p' || /^h[1-6]$/.test(tagOf(inner)))) visit(child);
      else if (BLOCK_TAGS.has(tag) && normalisedLength(child) !== 0) blocks.push(child);
    }
  };
  visit(root);
  return blocks;
}
