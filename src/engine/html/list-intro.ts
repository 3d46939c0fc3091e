/**
 * A list announced by the article's own prose: the text just before it is a sentence ending in a colon ("Many
 * patches were sent for review:", "Here are the courses you can take:"). Such a list of links (pull requests,
 * courses, sources) is what the sentence is about, however link-dense; menus and related lists are not introduced
 * so, and a label ("Follow us:", "Share:") is too short to be a sentence. The article must go on after the list: a
 * list announced at its end ("further information is on these pages:") is a list of further reading.
 */
import { type DomElement, type DomNode, isElement, tagOf } from './dom.js';

/** A sentence introducing a list is at least this long (characters). */
const INTRO_MIN = 25;
/** At most this share of the sentence is link text. */
const INTRO_MAX_LINK_SHARE = 0.5;

/**
 * The element or text node holding the sentence that introduces `element`, or null: the nearest node with text
 * before it, looked for among its siblings, then its ancestors' siblings up to `root`.
 */
export function introducingSentence(element: DomElement, root: DomElement, isArticleText: (paragraph: DomElement) => boolean = () => true): DomNode | null {
  if (isTableOfContents(element) || !followedByProse(element, root, isArticleText)) return null;
  for (let node: DomElement | null = element; node !== null && node !== root; node = node.parentElement) {
    let previous = node.previousSibling;
    while (previous !== null && (previous.textContent ?? '').trim() === '') previous = previous.previousSibling;
    if (previous === null) continue;
    const text = (previous.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text.length < INTRO_MIN || !text.endsWith(':')) return null;
    if (isElement(previous)) {
      if (/^h[1-6]$/.test(tagOf(previous))) return null;
      const links = [...previous.querySelectorAll('a')].reduce((sum, link) => sum + (link.textContent ?? '').replace(/\s+/g, ' ').trim().length, 0);
      if (links >= text.length * INTRO_MAX_LINK_SHARE) return null;
    }
    return previous;
  }
  return null;
}

/** A paragraph of prose after the list is at least this long (characters). */
const PROSE_MIN = 80;

/** Whether a paragraph of prose (of the article, by `isArticleText`) follows `element` inside `root`. */
function followedByProse(element: DomElement, root: DomElement, isArticleText: (paragraph: DomElement) => boolean): boolean {
  const isProse = (paragraph: DomElement) => (paragraph.textContent ?? '').replace(/\s+/g, ' ').trim().length >= PROSE_MIN && paragraph.closest('li') === null && isArticleText(paragraph);
  for (let node: DomElement | null = element; node !== null && node !== root; node = node.parentElement) {
    for (let next = node.nextSibling; next !== null; next = next.nextSibling) {
      if (!isElement(next)) continue;
      if ((tagOf(next) === 'p' && isProse(next)) || [...next.querySelectorAll('p')].some(isProse)) return true;
    }
  }
  return false;
}

/** A table of contents ("In this article:"): its links lead to the page's own sections, not to other content. */
function isTableOfContents(element: DomElement): boolean {
  const links = [...element.querySelectorAll('a')];
  return links.length > 0 && links.filter((link) => (link.getAttribute('href') ?? '').trim().startsWith('#')).length >= links.length / 2;
}
