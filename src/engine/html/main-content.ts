/**
 * `onlyMainContent` for web pages: keep the article, drop navigation, headers, footers, sidebars.
 *
 * @mozilla/readability decides what the main content is, but its rewritten HTML is not used: it renames tags (h1
 * becomes h2, divs become paragraphs), strips attributes and sometimes restructures. Instead every element of the
 * page is tagged with an id before readability runs on a copy; the ids that survive in readability's article are
 * the elements kept in the original, cleaned DOM, in place and untouched. Elements readability removed inside the
 * article (navboxes, edit links, share buttons) are removed from the original too.
 *
 * Readability is not used, and the page falls back to its `<main>`, else its only `<article>`, else `<body>`, with
 * semantic chrome removed (nav, page-level header and footer, aside, ARIA landmarks for navigation, banner,
 * contentinfo, complementary and search), when:
 * - the page is mostly a data table (Excel's HTML export, a report): readability would drop or mangle the table;
 * - readability judges the page not "readerable" (short pages, pages with no prose);
 * - its article holds less than a fifth of the page's text (it latched on to a fragment, e.g. one table row).
 *
 * Headings readability drops for repeating the title are kept: the page's first `<h1>` when the article has none
 * and its text matches the title (Wikipedia puts the title heading outside the content element), and a heading
 * inside the kept content that matches the title (an e-book chapter's `<h2>`).
 */
import { isProbablyReaderable, Readability } from '@mozilla/readability';
import { type DomDocument, type DomElement, type DomNode, isElement, normalisedText, parseDocument, tagOf } from './dom.js';
import { isLayoutTable, rowCells, tableRows } from './tables.js';

const ID_ATTRIBUTE = 'data-docmill-id';
/** The share of the page's text readability's article must hold to be trusted. */
const MIN_ARTICLE_SHARE = 0.2;
/** The share of the page's text in data tables above which the page is a table page. */
const TABLE_PAGE_SHARE = 0.5;

const CHROME_SELECTORS = [
  'nav',
  'aside',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="complementary"]',
  '[role="search"]',
  '[hidden]',
];
/** header/footer are page chrome only outside sectioning content. */
const SECTIONING = 'article, main, section, aside, nav';

export type MainContentMethod = 'readability' | 'table-page' | 'main' | 'article' | 'body';

/** Reduces `document.body` to the main content, in place. Returns how it was found. */
export function keepMainContent(document: DomDocument): MainContentMethod {
  const body = document.body;
  if (body === null) return 'body';
  if (isTablePage(body)) {
    removeChrome(body);
    return 'table-page';
  }
  const viaReadability = readabilityIds(document);
  if (viaReadability !== null) {
    pruneToIds(body, viaReadability);
    return 'readability';
  }
  return fallback(document);
}

/** Removes the id attributes keepMainContent added (they never reach the output). */
export function stripMainContentIds(root: DomElement): void {
  for (const element of root.querySelectorAll(`[${ID_ATTRIBUTE}]`)) element.removeAttribute(ID_ATTRIBUTE);
}

function isTablePage(body: DomElement): boolean {
  const total = normalisedText(body).length;
  if (total === 0) return false;
  let inTables = 0;
  for (const table of body.querySelectorAll('table')) {
    // Outermost data tables only.
    if (hasAncestor(table, 'table')) continue;
    if (isLayoutTable(table)) continue;
    const rows = tableRows(table);
    if (rows.length < 2 || !rows.some(({ row }) => rowCells(row).length >= 2)) continue;
    inTables += normalisedText(table).length;
  }
  return inTables / total >= TABLE_PAGE_SHARE;
}

/** The ids of the elements readability keeps, or null when readability is not to be trusted on this page. */
function readabilityIds(document: DomDocument): Set<string> | null {
  const body = document.body as DomElement;
  const elements = [...body.querySelectorAll('*')];
  elements.forEach((element, index) => element.setAttribute(ID_ATTRIBUTE, String(index)));

  const copy = parseDocument(document.toString());
  if (!isProbablyReaderable(copy as never)) return null;
  const pageText = normalisedText(copy.body as DomElement).length;
  let article: { content?: unknown; title?: string | null } | null;
  try {
    article = new Readability<DomNode>(copy as never, { serializer: (node) => node as unknown as DomNode }).parse();
  } catch {
    return null;
  }
  const content = article?.content as DomNode | null | undefined;
  if (!isElement(content)) return null;
  if (normalisedText(content).length < pageText * MIN_ARTICLE_SHARE) return null;

  const ids = new Set<string>();
  let hasHeading = false;
  for (const element of content.querySelectorAll(`[${ID_ATTRIBUTE}]`)) {
    const id = element.getAttribute(ID_ATTRIBUTE) as string;
    ids.add(id);
    const original = elements[Number(id)];
    if (original !== undefined && tagOf(original) === 'h1') hasHeading = true;
  }
  if (ids.size === 0) return null;

  // Headings readability dropped for repeating the title: the page's first h1 when the article has none
  // (Wikipedia keeps it outside the content element), and a heading inside the kept content (a chapter's h2).
  const title = (article?.title ?? '').trim().toLowerCase();
  const matchesTitle = (heading: DomElement) => {
    const text = normalisedText(heading).toLowerCase();
    return text !== '' && title !== '' && (title.includes(text) || text.includes(title));
  };
  const restore = (heading: DomElement) => {
    ids.add(heading.getAttribute(ID_ATTRIBUTE) as string);
    for (const element of heading.querySelectorAll(`[${ID_ATTRIBUTE}]`)) ids.add(element.getAttribute(ID_ATTRIBUTE) as string);
  };
  const firstH1 = body.querySelector('h1');
  if (!hasHeading && firstH1 !== null && matchesTitle(firstH1)) restore(firstH1);
  for (const heading of body.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    const id = heading.getAttribute(ID_ATTRIBUTE) as string;
    const parentId = heading.parentElement?.getAttribute(ID_ATTRIBUTE);
    if (!ids.has(id) && parentId !== undefined && parentId !== null && ids.has(parentId) && matchesTitle(heading)) restore(heading);
  }
  return ids;
}

/**
 * Keeps the elements whose id is in `keep` (with their text), the ancestors they need, and nothing else: an
 * ancestor kept only to hold kept elements loses its own text and its other children.
 */
function pruneToIds(body: DomElement, keep: Set<string>): void {
  const wrappers = new Set<DomNode>();
  for (const element of body.querySelectorAll(`[${ID_ATTRIBUTE}]`)) {
    if (!keep.has(element.getAttribute(ID_ATTRIBUTE) as string)) continue;
    for (let parent = element.parentNode; parent !== null && parent !== body && !wrappers.has(parent); parent = parent.parentNode) {
      wrappers.add(parent);
    }
  }
  const visit = (parent: DomNode, insideKept: boolean) => {
    for (let node = parent.firstChild; node !== null; ) {
      const next = node.nextSibling;
      if (isElement(node)) {
        const kept = keep.has(node.getAttribute(ID_ATTRIBUTE) ?? '');
        if (kept) visit(node, true);
        else if (wrappers.has(node)) visit(node, insideKept);
        else node.remove();
      } else if (!insideKept) {
        node.remove();
      }
      node = next;
    }
  };
  visit(body, false);
}

function fallback(document: DomDocument): MainContentMethod {
  const body = document.body as DomElement;
  const main = body.querySelectorAll('main, [role="main"]');
  const articles = body.querySelectorAll('article');
  let method: MainContentMethod = 'body';
  let root: DomElement | null = null;
  if (main.length === 1) {
    root = main[0] ?? null;
    method = 'main';
  } else if (articles.length === 1) {
    root = articles[0] ?? null;
    method = 'article';
  }
  if (root !== null) body.replaceChildren(root);
  removeChrome(body);
  return method;
}

function removeChrome(body: DomElement): void {
  for (const selector of CHROME_SELECTORS) {
    for (const element of body.querySelectorAll(selector)) element.remove();
  }
  for (const element of body.querySelectorAll('header, footer')) {
    const parent = element.parentElement;
    if (parent !== null && parent.closest(SECTIONING) === null) element.remove();
  }
}

function hasAncestor(element: DomElement, tag: string): boolean {
  for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
    if (tagOf(parent) === tag) return true;
  }
  return false;
}
