/**
 * Boilerplate inside a page's main content, removed after main-content.ts has chosen it, and the page's JSON-LD
 * `articleBody`.
 *
 * Removed, unless the element holds most of the content's text (a page whose whole article sits in a wrapper with
 * an unlucky class name keeps it; for sections marked up as comments by id or schema.org, three quarters):
 * - comment sections: `#comments`, `#respond`, Disqus (`#disqus_thread`), schema.org `Comment`/`itemprop=comment`,
 *   and elements whose id or class names a comment list (`comments`, `comment-list`, `commentlist`...);
 * - share/follow bars (`share`, `sharing`, `social`, `follow-us`...), "related"/"read more"/"recommended" lists,
 *   newsletter and subscription boxes;
 * - posts embedded from social networks (`blockquote.twitter-tweet`, `instagram-media`, Facebook's `fb-post`,
 *   WordPress's `wp-embedded-content`): quoted from elsewhere, not the article's text;
 * - link-dense blocks: a list or container of at least three links whose text is nearly all link text (menus,
 *   tag clouds, "more stories" lists readability left in).
 * Headings, tables, code, figures and the article's prose never match the link-density rule (they are not link
 * lists); the class rules match whole class words only (`share`, not `shareholder`).
 */
import { type DomDocument, type DomElement, type DomNode, isElement, isText, tagOf } from './dom.js';

const BOILERPLATE_SELECTORS = [
  '#comments',
  '#respond',
  '#disqus_thread',
  '[itemtype*="schema.org/Comment" i]',
  '[itemprop="comment"]',
  '[itemprop="comments"]',
  // Posts embedded from social networks and other sites: quoted from elsewhere, not the article's text.
  'blockquote.twitter-tweet',
  'blockquote.instagram-media',
  'blockquote.tiktok-embed',
  'blockquote.wp-embedded-content',
  '.fb-post',
];

/** Class/id words of boilerplate, matched as whole words (split on -, _ and spaces). */
const BOILERPLATE_WORDS =
  /(?:^|[\s_-])(comments?|commentlist|comment-?list|disqus|respond|share|sharing|sharebar|shariff|social|socials|follow|related|read-?more|readmore|recommended|recommendations|more-?stories|newsletter|subscribe|subscription|signup|sign-?up|outbrain|taboola|breadcrumbs?|pagination|tags|tag-?list|byline-?share)(?:$|[\s_-])/i;

/** A comment section marked up as such is kept only when it holds more than this share of the content's text. */
const MARKED_UP_MAX_SHARE = 0.75;

/** Elements the link-density rule looks at: lists and generic containers. */
const LINK_LIST_TAGS = new Set(['ul', 'ol', 'div', 'section', 'p', 'dl', 'menu']);
const KEEP_TAGS = new Set(['body', 'main', 'article', 'table', 'pre', 'code', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Removes boilerplate inside `root` (in place). */
export function removeBoilerplate(root: DomElement): void {
  // Text and link-text lengths of every element, computed once bottom-up (whitespace runs count as one).
  const textLength = new Map<DomNode, number>();
  const linkLength = new Map<DomNode, number>();
  const measure = (node: DomNode): void => {
    let text = 0;
    let links = 0;
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (isElement(child)) {
        measure(child);
        text += textLength.get(child) ?? 0;
        links += linkLength.get(child) ?? 0;
      } else if (isText(child)) {
        text += (child.textContent ?? '').replace(/\s+/g, ' ').length;
      }
    }
    textLength.set(node, text);
    linkLength.set(node, isElement(node) && tagOf(node) === 'a' ? text : links);
  };
  measure(root);
  const total = textLength.get(root) ?? 0;
  if (total === 0) return;
  const removable = (element: DomElement) => !KEEP_TAGS.has(tagOf(element)) && (textLength.get(element) ?? 0) < total * 0.5;

  // A section marked up as comments (by id or schema.org) goes unless it is nearly all the content: beside a
  // short post, the comment form often holds more text than the post.
  for (const selector of BOILERPLATE_SELECTORS) {
    for (const element of root.querySelectorAll(selector)) {
      if (!KEEP_TAGS.has(tagOf(element)) && (textLength.get(element) ?? 0) < total * MARKED_UP_MAX_SHARE) element.remove();
    }
  }
  for (const element of root.querySelectorAll('[class], [id]')) {
    const names = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`;
    if (!BOILERPLATE_WORDS.test(names)) continue;
    if (removable(element)) element.remove();
  }
  for (const element of [...root.querySelectorAll('ul, ol, div, section, p, dl, menu')].reverse()) {
    if (!LINK_LIST_TAGS.has(tagOf(element)) || !removable(element)) continue;
    const text = textLength.get(element) ?? 0;
    if (text === 0 || (linkLength.get(element) ?? 0) / text < 0.8) continue;
    if (element.querySelectorAll('a').length < 3) continue;
    if (element.querySelector('table, pre, figure, img, h1, h2, h3, h4, h5, h6') !== null) continue;
    element.remove();
  }
}

/** Whether an element is, by its markup, a comment section, a share bar, a related list or the like. */
export function isBoilerplateElement(element: DomElement): boolean {
  if (BOILERPLATE_SELECTORS.some((selector) => element.matches(selector))) return true;
  const names = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`;
  return names.trim() !== '' && BOILERPLATE_WORDS.test(names);
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
