/**
 * Boilerplate inside a page's main content, removed after main-content.ts has chosen it, and the page's JSON-LD
 * `articleBody`.
 *
 * Removed, unless the element holds most of the content's text (a page whose whole article sits in a wrapper with
 * an unlucky class name keeps it):
 * - comment sections: `#comments`, `#respond`, Disqus (`#disqus_thread`), schema.org `Comment`/`itemprop=comment`,
 *   and elements whose id or class names a comment list (`comments`, `comment-list`, `commentlist`...);
 * - share/follow bars (`share`, `sharing`, `social`, `follow-us`...), "related"/"read more"/"recommended" lists,
 *   newsletter and subscription boxes;
 * - link-dense blocks: a list or container of at least three links whose text is nearly all link text (menus,
 *   tag clouds, "more stories" lists readability left in).
 * Headings, tables, code, figures and the article's prose never match the link-density rule (they are not link
 * lists); the class rules match whole class words only (`share`, not `shareholder`).
 */
import { type DomDocument, type DomElement, normalisedText, tagOf } from './dom.js';

const BOILERPLATE_SELECTORS = [
  '#comments',
  '#respond',
  '#disqus_thread',
  '[itemtype*="schema.org/Comment" i]',
  '[itemprop="comment"]',
  '[itemprop="comments"]',
];

/** Class/id words of boilerplate, matched as whole words (split on -, _ and spaces). */
const BOILERPLATE_WORDS =
  /(?:^|[\s_-])(comments?|commentlist|comment-?list|disqus|respond|share|sharing|sharebar|shariff|social|socials|follow|related|read-?more|readmore|recommended|recommendations|more-?stories|newsletter|subscribe|subscription|signup|sign-?up|outbrain|taboola|breadcrumbs?|pagination|tags|tag-?list|byline-?share)(?:$|[\s_-])/i;

/** Elements the link-density rule looks at: lists and generic containers. */
const LINK_LIST_TAGS = new Set(['ul', 'ol', 'div', 'section', 'p', 'dl', 'menu']);
const KEEP_TAGS = new Set(['body', 'main', 'article', 'table', 'pre', 'code', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Removes boilerplate inside `root` (in place). */
export function removeBoilerplate(root: DomElement): void {
  const total = normalisedText(root).length;
  if (total === 0) return;
  const removable = (element: DomElement) => {
    if (KEEP_TAGS.has(tagOf(element))) return false;
    const length = normalisedText(element).length;
    return length < total * 0.5;
  };

  for (const selector of BOILERPLATE_SELECTORS) {
    for (const element of root.querySelectorAll(selector)) if (removable(element)) element.remove();
  }
  for (const element of root.querySelectorAll('[class], [id]')) {
    const names = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`;
    if (!BOILERPLATE_WORDS.test(names)) continue;
    if (removable(element)) element.remove();
  }
  for (const element of [...root.querySelectorAll('ul, ol, div, section, p, dl, menu')].reverse()) {
    if (!LINK_LIST_TAGS.has(tagOf(element)) || !removable(element)) continue;
    if (element.querySelector('table, pre, figure, img, h1, h2, h3, h4, h5, h6') !== null) continue;
    const links = [...element.querySelectorAll('a')];
    if (links.length < 3) continue;
    const text = normalisedText(element).length;
    if (text === 0) continue;
    const linkText = links.reduce((sum, link) => sum + normalisedText(link).length, 0);
    if (linkText / text >= 0.8) element.remove();
  }
}

/** The text of the page's JSON-LD `articleBody` (the longest one), or null. */
export function jsonLdArticleBody(document: DomDocument): string | null {
  let best: string | null = null;
  for (const node of jsonLdNodes(document)) {
    const body = node['articleBody'];
    if (typeof body === 'string' && body.trim() !== '' && (best === null || body.length > best.length)) best = body.trim();
  }
  return best;
}

/** Every object of the page's `application/ld+json` scripts, `@graph` members included. */
export function jsonLdNodes(document: DomDocument): Record<string, unknown>[] {
  const nodes: Record<string, unknown>[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (value !== null && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      nodes.push(object);
      if (object['@graph'] !== undefined) visit(object['@graph']);
    }
  };
  for (const script of document.querySelectorAll('script[type="application/ld+json" i]')) {
    try {
      visit(JSON.parse(script.textContent ?? ''));
    } catch {
      // Malformed JSON-LD is common; it gives nothing.
    }
  }
  return nodes;
}
