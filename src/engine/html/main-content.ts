/**
 * `onlyMainContent` for web pages: keep the article, drop navigation, headers, footers, sidebars.
 *
 * @mozilla/readability decides what the main content is, but its rewritten HTML is not used: it renames tags (h1
 * becomes h2, divs become paragraphs), strips attributes and sometimes restructures. Instead every element of the
 * page is tagged with an id before readability runs on a copy; the ids that survive in readability's article are
 * the elements kept in the original, cleaned DOM, in place and untouched. Elements readability removed inside the
 * article (navboxes, edit links, share buttons) are removed from the original too.
 *
 * Readability's article is kept whenever it holds text, readerable page or not: a larger container (`<main>`,
 * `<body>`) brings comment threads, menus and footers with it. Only when it holds less than a fifth of the page's
 * text (a comment thread marked up as one beside it not counted; the article as readability found it, without the
 * title heading, lead and prose restored around it, which would make a fragment look whole) is it widened: a
 * fragment (one paragraph, a lead) gets the page's own marked-up container of it (the smallest
 * `itemprop="articleBody"`, `<article>` or `<main>` holding all of it and more, never `<body>`, without the comment
 * thread beside it; the restored title heading kept before it when outside). So does an article holding
 * less than half of its own `<article>` (one section of a post: readability's cleaning dropped the others) or of
 * the `<main>` holding it (a page builder's text modules), when prose it left out there is half its length again
 * (not the author cards and notices around a short post). An article readability found inside a side block is
 * given up only for a container holding more text than it. Only
 * when readability finds nothing, or on a short page (under 500 characters) it does not find readerable, does the
 * page's own structure decide, with semantic chrome removed (nav, page-level header and footer, aside, ARIA
 * landmarks for navigation, banner, contentinfo, complementary and search): the element marked
 * `itemprop="articleBody"`, else the `<article>` with the most text, else `<main>`/`role="main"`, else the JSON-LD
 * `articleBody` (when the markup holds less of it), else `<body>`. A page mostly made of a data table (Excel's HTML
 * export, a report) is kept whole: readability would drop or mangle the table.
 *
 * A thread (a forum or Q&A page: posts alike, side by side) is kept whole where readability's article lies in it
 * (`siblingPosts`): readability takes the post with the most prose, and replies marked up as comments are no
 * boilerplate there.
 *
 * The FAQ a page declares in schema.org `FAQPage` JSON-LD is kept where its questions and answers are shown
 * together in one block (faq.ts): readability often leaves an accordion after the article out. Its toggles and
 * folded answers are no buttons or hidden chrome to the boilerplate rules.
 *
 * Boilerplate left inside the chosen content is then removed (boilerplate.ts): comment sections, share/follow
 * bars, "related"/"read more" lists, newsletter boxes, link-dense blocks; the author's box (author-bio.ts); the
 * publisher's affiliate disclosures (disclosures.ts); and the publisher's lines to the reader, known by what they
 * say: sign-up and follow calls, comment and paywall notes, reading times (publisher-lines.ts); a copy of the title
 * heading just beside it (title-copies.ts).
 *
 * Headings readability drops for repeating the title are kept: the page's first `<h1>` matching the title when the
 * article has none (Wikipedia puts the title heading outside the content element; a logo `<h1>` may come first),
 * and a heading inside the kept content that matches the title (an e-book chapter's `<h2>`). So is the article's
 * lead (standfirst, abstract, subtitle), which readability leaves out with the header: see `articleLead`. So are
 * paragraphs of prose readability's cleaning dropped inside its article (a paragraph in a block it judged
 * link-heavy, a text-only `<div>`): see `droppedProse`; and lists its own sentence announces, margin figures, and
 * the headings of sections it kept (`droppedSectionHeadings`). A heading matches the title when one holds the other, or
 * by readability's own word similarity (the heading it drops for repeating the title).
 */
import { isProbablyReaderable, Readability } from '@mozilla/readability';
import { copyDocument, type DomDocument, type DomElement, type DomNode, elementChildren, isElement, isText, linkTextLength, normalisedLength, normalisedText, tagOf, textLengthOf } from './dom.js';
import { removeAuthorBoxes } from './author-bio.js';
import { removeTitleCopies } from './title-copies.js';
import { removeAffiliateDisclosures } from './disclosures.js';
import { removePublisherLines } from './publisher-lines.js';
import { commentSectionsBeside, isBoilerplateElement, isMarginFigure, removeBoilerplate, takesInput } from './boilerplate.js';
import { introducingSentence } from './list-intro.js';
import { type FaqEntry, faqSection } from './faq.js';
import { isLayoutTable, rowCells, tableRows } from './tables.js';

const ID_ATTRIBUTE = 'data-docmill-id';
/** Pages with less text than this (characters) that readability does not find readerable use the page's structure. */
const SHORT_PAGE = 500;
/** Below this share of the page's text, readability's article is widened to the page's container of it, if any. */
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
/** Class/id words of overlays (matched as whole words, split on -, _ and spaces). */
const OVERLAY_WORDS = /(?:^|[\s_-])(cookies?|cookie-?banner|cookie-?notice|consent|gdpr|modal|popup|pop-up|overlay|flyout|disclosure)(?:$|[\s_-])/i;
/** An overlay holds less than this share of the page's text. */
const MAX_OVERLAY_SHARE = 0.2;
/** The page's own markup of its article, most specific first. */
const CONTAINERS = [
  ['[itemprop="articleBody"]', 'article-body'],
  ['article', 'article'],
  ['main, [role="main"]', 'main'],
] as const satisfies readonly (readonly [string, MainContentMethod])[];
/** header/footer are page chrome only outside sectioning content. */
const SECTIONING = 'article, main, section, aside, nav';

export type MainContentMethod = 'readability' | 'table-page' | 'article-body' | 'main' | 'article' | 'json-ld' | 'body';

/**
 * Reduces `document.body` to the main content, in place. Returns how it was found. `articleBody` is the page's
 * JSON-LD `articleBody` (read before scripts are removed), if any; `authorBiographies` the descriptions of its JSON-LD
 * `Person` nodes, whose author boxes are removed (author-bio.ts); `authors` the names the page gives its author, whose
 * biography near the end is removed (author-bio.ts).
 */
export function keepMainContent(
  document: DomDocument,
  articleBody: string | null = null,
  authorBiographies: string[] = [],
  faq: readonly FaqEntry[] = [],
  authors: readonly string[] = [],
): MainContentMethod {
  const body = document.body;
  if (body === null) return 'body';
  if (isTablePage(body)) {
    removeChrome(body);
    return 'table-page';
  }
  removeOverlays(body);
  // Forms judged by their fields before readability runs: it may keep a lead form's notes and labels (its consent
  // text is a paragraph of prose) without the fields that make it a form.
  const inputForms = new Set([...body.querySelectorAll('form')].filter(takesInput));
  const readability = readabilityIds(document);
  const viaReadability = readability?.kept ?? null;
  // A thread's other posts join the one readability took; marked up as comments (schema.org), they are the page.
  const threadPosts = readability === null ? [] : siblingPosts(body, readability.kept);
  // The FAQ the page declares in its JSON-LD is its content, where readability left it out.
  const faqShown = readability === null ? null : faqSection(body, faq);
  if (readability !== null) {
    for (const element of faqShown === null ? threadPosts : [...threadPosts, faqShown]) {
      keepWhole(readability.kept, element);
      keepWhole(readability.found, element);
    }
  }
  let method: MainContentMethod;
  let misplaced = viaReadability !== null && isMisplaced(body, viaReadability);
  // Whether readability's article is a fragment of the page's is judged on what it found itself: the lead, headings
  // and prose restored around it would make a fragment look whole.
  let widened = readability === null ? null : misplaced ? containerOutsideChrome(body) : semanticContainer(body, readability.found);
  // A side block readability took for the article is given up only for a container holding more text than it:
  // a "misplaced" article under an unlucky class name beside a near-empty <article> stays.
  if (misplaced && viaReadability !== null && (widened === null || normalisedLength(widened.root) <= keptTextLength(body, viaReadability))) {
    misplaced = false;
    widened = null;
  }
  if (widened !== null) {
    // Widened around readability's article, not to its comment thread.
    if (viaReadability !== null) for (const section of commentSectionsBeside(widened.root, keptIn(viaReadability))) section.remove();
    // The title heading restored beside readability's article stays when the container does not hold it.
    const title = readability?.title ?? null;
    if (title !== null && !isInside(title, widened.root)) body.replaceChildren(title, widened.root);
    else body.replaceChildren(widened.root);
    removeChrome(body);
    method = widened.method;
  } else if (viaReadability !== null && !misplaced) {
    pruneToIds(body, viaReadability);
    method = 'readability';
  } else {
    method = fallback(document, articleBody);
  }
  // A post, or the wrapper marked up as a comment around one; and the declared FAQ's toggles and folded answers.
  const inFaq = (element: DomElement) => faqShown !== null && (element === faqShown || isInside(element, faqShown));
  removeBoilerplate(body, (element) => threadPosts.some((post) => post === element || isInside(post, element)) || inFaq(element), inputForms);
  // A thread's posts are its readers' words, not the publisher's notice.
  const inThreadPost = (element: DomElement) => threadPosts.some((post) => post === element || isInside(element, post));
  removeAffiliateDisclosures(body, inThreadPost);
  removePublisherLines(body, inThreadPost);
  removeAuthorBoxes(body, authorBiographies, authors);
  removeTitleCopies(body);
  return method;
}

/** Whether readability kept the element (its id is among `ids`). */
function keptIn(ids: Set<string>): (element: DomElement) => boolean {
  return (element) => ids.has(element.getAttribute(ID_ATTRIBUTE) ?? '');
}

/** Keeps an element with everything inside it (a heading, a lead, a post readability left out). */
function keepWhole(ids: Set<string>, element: DomElement): void {
  for (const kept of [element, ...element.querySelectorAll(`[${ID_ATTRIBUTE}]`)]) {
    const id = kept.getAttribute(ID_ATTRIBUTE);
    if (id !== null) ids.add(id);
  }
}

/** Removes the id attributes keepMainContent added (they never reach the output). */
export function stripMainContentIds(root: DomElement): void {
  for (const element of root.querySelectorAll(`[${ID_ATTRIBUTE}]`)) element.removeAttribute(ID_ATTRIBUTE);
}

function isTablePage(body: DomElement): boolean {
  const total = normalisedLength(body);
  if (total === 0) return false;
  let inTables = 0;
  for (const table of body.querySelectorAll('table')) {
    // Outermost data tables only.
    if (hasAncestor(table, 'table')) continue;
    if (isLayoutTable(table)) continue;
    const rows = tableRows(table);
    if (rows.length < 2 || !rows.some(({ row }) => rowCells(row).length >= 2)) continue;
    inTables += normalisedLength(table);
  }
  return inTables / total >= TABLE_PAGE_SHARE;
}

/**
 * Cookie and consent notices, modal dialogs, pop-ups and flyouts: small blocks of prose over the page, which
 * readability takes for the article on a page whose article is short or split up. Removed before it runs when
 * their id or class says so (whole words), they hold a small share of the page's text and no article, `<main>`
 * or `<h1>`.
 */
function removeOverlays(body: DomElement): void {
  const total = normalisedLength(body);
  for (const element of [...body.querySelectorAll('[class], [id]')]) {
    if (element.parentNode === null) continue;
    const names = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`;
    if (!OVERLAY_WORDS.test(names) || tagOf(element) === 'body') continue;
    if (element.querySelector('article, main, [itemprop="articleBody"], h1') !== null) continue;
    if (normalisedLength(element) >= total * MAX_OVERLAY_SHARE) continue;
    element.remove();
  }
}

/**
 * The ids of the elements readability keeps (`kept`: its article with what it dropped restored, see below; `found`:
 * its article alone), or null when readability finds no article with text.
 */
function readabilityIds(document: DomDocument): { kept: Set<string>; found: Set<string>; title: DomElement | null } | null {
  const body = document.body as DomElement;
  const elements = [...body.querySelectorAll('*')];
  elements.forEach((element, index) => element.setAttribute(ID_ATTRIBUTE, String(index)));

  const copy = copyDocument(document);
  // A short page readability does not find readerable: its judgement of a few lines is no better than the
  // page's own structure, and a short page brings little boilerplate with its <main>.
  if (normalisedLength(copy.body as DomElement) < SHORT_PAGE && !isProbablyReaderable(copy as never)) return null;
  let article: { content?: unknown; title?: string | null } | null;
  try {
    article = new Readability<DomNode>(copy as never, { serializer: (node) => node as unknown as DomNode }).parse();
  } catch {
    return null;
  }
  const content = article?.content as DomNode | null | undefined;
  if (!isElement(content)) return null;
  if (normalisedLength(content) === 0) return null;

  const ids = new Set<string>();
  let hasHeading = false;
  for (const element of content.querySelectorAll(`[${ID_ATTRIBUTE}]`)) {
    const id = element.getAttribute(ID_ATTRIBUTE) as string;
    ids.add(id);
    const original = elements[Number(id)];
    if (original !== undefined && tagOf(original) === 'h1') hasHeading = true;
  }
  if (ids.size === 0) return null;
  recoverReplacedElements(content, elements, ids);
  recoverLooseText(content, document, ids);
  // What readability itself found, before the restorations below: the measure of the article's share of the page.
  const found = new Set(ids);

  // Headings readability dropped for repeating the title: the page's first h1 when the article has none
  // (Wikipedia keeps it outside the content element), and a heading inside the kept content (a chapter's h2).
  const title = (article?.title ?? '').trim().toLowerCase();
  const matchesTitle = (heading: DomElement) => {
    const text = normalisedText(heading).toLowerCase();
    return text !== '' && title !== '' && (title.includes(text) || text.includes(title) || textSimilarity(title, text) > TITLE_SIMILARITY);
  };
  const restore = (element: DomElement) => keepWhole(ids, element);
  // The title heading: the first h1 matching the title (a logo or site name often comes first in an h1 of its own).
  const titleH1 = [...body.querySelectorAll('h1')].find(matchesTitle);
  const titleRestored = !hasHeading && titleH1 !== undefined && !isInChrome(titleH1);
  if (titleRestored) restore(titleH1);
  for (const heading of body.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    const id = heading.getAttribute(ID_ATTRIBUTE) as string;
    const parentId = heading.parentElement?.getAttribute(ID_ATTRIBUTE);
    if (!ids.has(id) && parentId !== undefined && parentId !== null && ids.has(parentId) && matchesTitle(heading)) restore(heading);
  }
  for (const lead of articleLead(elements, ids, titleH1)) restore(lead);
  for (const paragraph of droppedProse(body, ids)) restore(paragraph);
  for (const list of droppedIntroducedLists(body, ids)) restore(list);
  for (const figure of droppedMarginFigures(body, ids)) restore(figure);
  for (const heading of droppedSectionHeadings(body, ids)) restore(heading);
  return { kept: ids, found, title: titleRestored ? titleH1 : null };
}

/** Class words of one post among others: a forum's or a Q&A page's posts, replies and answers. */
const POST_WORDS = /(?:^|[\s_-])(posts?|messages?|replies|reply|answers?|topic-body|thread-?item|crawler-post|postbit|message-?body)(?:$|[\s_-])/i;
/** Below this much text (characters) a sibling is a stub (a "load more" row, a divider), not a post. */
const MIN_POST_TEXT = 80;

/** Tag and class names, sorted: what makes posts of one thread alike. */
function signatureOf(element: DomElement): string | null {
  const classes = (element.getAttribute('class') ?? '').split(/\s+/).filter((name) => name !== '');
  if (classes.length === 0) return null;
  return `${tagOf(element)}.${classes.sort().join('.')}`;
}

/**
 * A thread's posts (a forum or Q&A page), where readability's article lies in one or more of them: readability
 * picks the post with the most prose, and the replies, often marked up as comments, would go as boilerplate. Posts
 * are siblings alike (same tag and classes, a class naming a post) with text of their own; the thread is the group
 * holding the most of readability's article, at least half of it. Of each post, the part in the place readability's
 * article has in the post it is in (a message without its author card); the post itself where it has no such part.
 */
function siblingPosts(body: DomElement, ids: Set<string>): DomElement[] {
  const tops = topKept(body, ids);
  const keptText = textLengthOf(tops);
  if (keptText === 0) return [];
  const keptTextIn = (element: DomElement) =>
    tops.some((top) => top === element || isInside(element, top)) ? normalisedLength(element) : textLengthOf(tops.filter((top) => isInside(top, element)));
  const groups = new Map<DomElement, Map<string, DomElement[]>>();
  for (const element of body.querySelectorAll('[class]')) {
    const parent = element.parentElement;
    const signature = signatureOf(element);
    if (parent === null || signature === null || !POST_WORDS.test(element.getAttribute('class') ?? '')) continue;
    if (normalisedLength(element) < MIN_POST_TEXT) continue;
    const bySignature = groups.get(parent) ?? new Map<string, DomElement[]>();
    groups.set(parent, bySignature);
    bySignature.set(signature, [...(bySignature.get(signature) ?? []), element]);
  }
  let thread: DomElement[] = [];
  let threadKept = keptText / 2;
  for (const bySignature of groups.values()) {
    for (const posts of bySignature.values()) {
      if (posts.length < 2) continue;
      const kept = posts.reduce((sum, post) => sum + keptTextIn(post), 0);
      if (kept >= threadKept) {
        thread = posts;
        threadKept = kept;
      }
    }
  }
  if (thread.length === 0) return [];
  const main = thread.reduce((best, post) => (keptTextIn(post) > keptTextIn(best) ? post : best));
  const path = pathTo(main, tops);
  return [main, ...thread.filter((post) => post !== main && !isInChrome(post)).map((post) => (path === null ? post : (partAt(post, path) ?? post)))];
}

/** The signatures from below `post` down to the one element of `tops` inside it; null when there is not exactly one. */
function pathTo(post: DomElement, tops: readonly DomElement[]): string[] | null {
  const inside = tops.filter((top) => isInside(top, post));
  if (inside.length !== 1) return null;
  const path: string[] = [];
  for (let node: DomElement | null = inside[0] as DomElement; node !== null && node !== post; node = node.parentElement) path.unshift(signatureOf(node) ?? tagOf(node));
  return path;
}

/** The descendant of `post` reached by `path` (a signature per level, or a bare tag name), if there is one. */
function partAt(post: DomElement, path: readonly string[]): DomElement | null {
  let node = post;
  for (const step of path) {
    const next = [...elementChildren(node)].find((child) => (signatureOf(child) ?? tagOf(child)) === step);
    if (next === undefined) return null;
    node = next;
  }
  return normalisedLength(node) === 0 ? null : node;
}

/** Readability drops the first h1/h2 whose words are this similar to the title (its `_headerDuplicatesTitle`). */
const TITLE_SIMILARITY = 0.75;

/**
 * Readability's measure of how much of `text` the title says: 1 minus the share (in characters) of its words
 * missing from the title. A section heading that shares most words with the title ("Interview with X" under
 * "X: an interview") is the one readability drops.
 */
function textSimilarity(title: string, text: string): number {
  const words = (value: string) => value.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
  const titleWords = new Set(words(title));
  const textWords = words(text);
  if (titleWords.size === 0 || textWords.length === 0) return 0;
  const missing = textWords.filter((word) => !titleWords.has(word));
  return 1 - missing.join(' ').length / textWords.join(' ').length;
}

/** Class/id words of an article's lead: its standfirst, abstract or summary under the title. */
const LEAD_WORDS = /(?:^|[\s_-])(intro|lead|lede|abstract|standfirst|summary|chapo|deck|dek|subtitle|sub-?headline|subline)(?:$|[\s_-])/i;
/** A lead is a sentence or a paragraph: between these lengths (characters). */
const LEAD_MIN = 20;
const LEAD_MAX = 1500;
/** An unmarked paragraph between the title and the body is a standfirst from this length (characters). */
const STANDFIRST_MIN = 100;

/**
 * The article's lead (standfirst, abstract, subtitle), which readability often leaves out with the article's
 * header: elements before the first element readability kept, inside the same `<article>` or `<main>`, marked up
 * as a lead (`itemprop="description"`, a class such as `intro`, `lead`, `abstract`, `standfirst`, a subtitle in
 * an `<hgroup>`), prose rather than links, outside page chrome and boilerplate.
 */
function articleLead(elements: DomElement[], ids: Set<string>, title: DomElement | undefined): DomElement[] {
  let first = Infinity;
  for (const id of ids) {
    const index = Number(id);
    const element = elements[index];
    if (index < first && element !== undefined && normalisedLength(element) !== 0 && !/^h[1-6]$/.test(tagOf(element))) first = index;
  }
  const firstKept = elements[first];
  if (firstKept === undefined) return [];
  const candidates = new Set<DomElement>();
  const scope = firstKept.closest('article, [role="article"], main, [role="main"]');
  if (scope !== null) for (const element of scope.querySelectorAll('*')) candidates.add(element);
  // Between the title heading and the article's first paragraph: the standfirst, marked up or not.
  const titleIndex = title === undefined ? NaN : Number(title.getAttribute(ID_ATTRIBUTE));
  const betweenTitleAndBody = (index: number) => index > titleIndex && index < first;
  if (!Number.isNaN(titleIndex)) for (const element of elements.slice(titleIndex + 1, first)) candidates.add(element);
  // A page that holds its article twice (a second copy for another screen size) puts the copy readability did not
  // take before the title's paragraphs: its paragraphs are no lead, the article has them already.
  let keptParagraphs: Set<string> | undefined;
  const alreadyKept = (text: string) =>
    (keptParagraphs ??= new Set([...ids].flatMap((id) => {
      const element = elements[Number(id)];
      return element !== undefined && tagOf(element) === 'p' ? [normalisedText(element)] : [];
    }))).has(text);
  const leads: DomElement[] = [];
  for (const candidate of candidates) {
    const index = Number(candidate.getAttribute(ID_ATTRIBUTE));
    if (!(index < first) || ids.has(String(index))) continue;
    if (leads.some((lead) => isInside(candidate, lead))) continue;
    const names = `${candidate.getAttribute('id') ?? ''} ${candidate.getAttribute('class') ?? ''}`;
    const marked = candidate.getAttribute('itemprop') === 'description' || tagOf(candidate.parentElement ?? candidate) === 'hgroup' || LEAD_WORDS.test(names);
    const text = normalisedText(candidate);
    const unmarkedStandfirst = tagOf(candidate) === 'p' && betweenTitleAndBody(index) && text.length >= STANDFIRST_MIN && candidate.closest('figure, figcaption') === null;
    if ((!marked && !unmarkedStandfirst) || isInside(firstKept, candidate)) continue;
    if (text.length < LEAD_MIN || text.length > LEAD_MAX || alreadyKept(text)) continue;
    if (candidate.querySelector('h1, article, main, img, figure, table, form') !== null) continue;
    const linkText = linkTextLength(candidate);
    if (linkText > text.length * 0.3) continue;
    if (isInChrome(candidate) || isInBoilerplate(candidate, Infinity)) continue;
    leads.push(candidate);
  }
  return leads;
}

/** A paragraph of prose is at least this long (characters)... */
const PROSE_MIN = 80;
/** ...and at most this share of it is link text. */
const PROSE_MAX_LINK_SHARE = 0.25;

/**
 * Paragraphs of prose readability's cleaning dropped inside the article it kept: a lead in the article's header, a
 * paragraph in a wrapper it judged to be a widget, a text-only `<div>`. A `<p>` (or a `<div>` holding only text
 * and inline markup) not kept, with a kept ancestor, of a sentence's length or more, mostly not link text, outside
 * page chrome and boilerplate. Boilerplate readability dropped (share bars, newsletter boxes) is mostly links,
 * short, or marked up as such, and stays out.
 */
function droppedProse(body: DomElement, ids: Set<string>): DomElement[] {
  const found: DomElement[] = [];
  for (const candidate of body.querySelectorAll('p, div')) {
    const id = candidate.getAttribute(ID_ATTRIBUTE);
    if (id === null || ids.has(id)) continue;
    if (tagOf(candidate) === 'div' && [...elementChildren(candidate)].some((child) => !INLINE_TAGS.has(tagOf(child)))) continue;
    if (!hasKeptAncestor(candidate, ids)) continue;
    const text = normalisedText(candidate);
    if (text.length < PROSE_MIN) continue;
    const linkText = linkTextLength(candidate);
    if (linkText > text.length * PROSE_MAX_LINK_SHARE) continue;
    if (isInChrome(candidate) || isInBoilerplate(candidate, Infinity)) continue;
    found.push(candidate);
  }
  return found;
}

/**
 * Lists readability's cleaning dropped (as link-heavy) inside its article although a sentence of the article it
 * kept announces them (list-intro.ts): the pull requests a report lists, the courses a guide names.
 */
function droppedIntroducedLists(body: DomElement, ids: Set<string>): DomElement[] {
  const found: DomElement[] = [];
  for (const list of body.querySelectorAll('ul, ol, dl')) {
    const id = list.getAttribute(ID_ATTRIBUTE);
    if (id === null || ids.has(id) || found.some((kept) => isInside(list, kept))) continue;
    if (!hasKeptAncestor(list, ids) || normalisedLength(list) === 0) continue;
    const intro = introducingSentence(list, body, (paragraph) => ids.has(paragraph.getAttribute(ID_ATTRIBUTE) ?? ''));
    // The sentence kept, or its paragraph inside a wrapper readability replaced.
    if (!isElement(intro) || ![intro, ...intro.querySelectorAll(`[${ID_ATTRIBUTE}]`)].some((element) => ids.has(element.getAttribute(ID_ATTRIBUTE) ?? ''))) continue;
    if (isInChrome(list) || isInBoilerplate(list, Infinity)) continue;
    found.push(list);
  }
  return found;
}

/**
 * Figures with their caption that the page sets in an `<aside>` beside the article's text (a margin figure), which
 * readability drops with the aside: restored when the aside lies inside the article it kept.
 */
function droppedMarginFigures(body: DomElement, ids: Set<string>): DomElement[] {
  const found: DomElement[] = [];
  for (const aside of body.querySelectorAll('aside')) {
    const id = aside.getAttribute(ID_ATTRIBUTE);
    if (id === null || ids.has(id) || !isMarginFigure(aside) || !hasKeptAncestor(aside, ids)) continue;
    const outer = aside.parentElement?.closest(CHROME_SELECTORS.join(', ')) ?? null;
    if (outer !== null || isInBoilerplate(aside.parentElement ?? aside, Infinity)) continue;
    found.push(...aside.querySelectorAll('figure'));
  }
  return found;
}

/**
 * Section headings readability dropped inside its article while keeping the section under them (a heading whose
 * class name it takes for page chrome, `module_header`): a heading not kept, with a kept ancestor, whose next
 * element with text is kept or holds kept elements, mostly not link text, outside page chrome and boilerplate.
 */
function droppedSectionHeadings(body: DomElement, ids: Set<string>): DomElement[] {
  const kept = keptIn(ids);
  // The elements holding a kept element, marked once from each kept element upwards (when first needed).
  let holdingKept: Set<DomElement> | undefined;
  const holdsKept = (element: DomElement) => {
    if (holdingKept === undefined) {
      holdingKept = new Set();
      for (const keptElement of [...body.querySelectorAll(`[${ID_ATTRIBUTE}]`)].filter(kept)) {
        for (let node = keptElement.parentElement; node !== null && !holdingKept.has(node); node = node.parentElement) holdingKept.add(node);
      }
    }
    return holdingKept.has(element);
  };
  const found: DomElement[] = [];
  for (const heading of body.querySelectorAll('h2, h3, h4, h5, h6')) {
    const id = heading.getAttribute(ID_ATTRIBUTE);
    if (id === null || ids.has(id)) continue;
    // A linked heading is a card's title (another page's), not the title of a section here.
    const text = normalisedLength(heading);
    if (text === 0 || linkTextLength(heading) > text / 2 || !hasKeptAncestor(heading, ids)) continue;
    let next = heading.nextElementSibling;
    while (next !== null && normalisedLength(next) === 0) next = next.nextElementSibling;
    if (next === null || !(kept(next) || holdsKept(next))) continue;
    if (isInChrome(heading) || isInBoilerplate(heading, Infinity)) continue;
    found.push(heading);
  }
  return found;
}

const INLINE_TAGS = new Set(['a', 'abbr', 'b', 'br', 'cite', 'code', 'em', 'i', 'mark', 'q', 's', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u']);

function hasKeptAncestor(element: DomElement, ids: Set<string>): boolean {
  for (let node = element.parentElement; node !== null; node = node.parentElement) {
    const id = node.getAttribute(ID_ATTRIBUTE);
    if (id !== null && ids.has(id)) return true;
  }
  return false;
}

function isInside(element: DomElement, ancestor: DomElement): boolean {
  for (let node = element.parentElement; node !== null; node = node.parentElement) if (node === ancestor) return true;
  return false;
}

/**
 * Readability replaces some elements with new ones that carry no id: a `<div>` holding only text becomes a new
 * `<p>`, a paragraph broken by `<br><br>` becomes several new paragraphs. Their text would be lost in the
 * original, so an id-less element of the article is matched, by its text, to the unkept child of its parent's
 * original that holds that text, which is kept whole.
 */
function recoverReplacedElements(content: DomElement, elements: DomElement[], ids: Set<string>): void {
  const textOf = new Map<DomElement, string>();
  const cachedText = (element: DomElement) => {
    let text = textOf.get(element);
    if (text === undefined) {
      text = normalisedText(element);
      textOf.set(element, text);
    }
    return text;
  };
  // The text readability put in new elements under each kept parent: a match holding much more than that is a
  // container readability cleaned, not one it replaced.
  const newText = new Map<string, number>();
  for (const element of content.querySelectorAll('*')) {
    const parentId = element.parentElement?.getAttribute(ID_ATTRIBUTE);
    if (element.hasAttribute(ID_ATTRIBUTE) || parentId === null || parentId === undefined) continue;
    newText.set(parentId, (newText.get(parentId) ?? 0) + normalisedLength(element));
  }
  for (const element of content.querySelectorAll('*')) {
    if (element.hasAttribute(ID_ATTRIBUTE)) continue;
    const parentId = element.parentElement?.getAttribute(ID_ATTRIBUTE);
    if (parentId === null || parentId === undefined) continue;
    const text = normalisedText(element);
    // Text readability wrapped in a paragraph of its own stays in the kept parent anyway.
    if (text === '') continue;
    const parent = elements[Number(parentId)];
    if (parent === undefined || ownText(parent).includes(text)) continue;
    for (const candidate of elementChildren(parent)) {
      const id = candidate.getAttribute(ID_ATTRIBUTE);
      if (id === null || ids.has(id) || !cachedText(candidate).includes(text)) continue;
      if (cachedText(candidate).length > (newText.get(parentId) ?? 0) * 1.5 + 10) break;
      ids.add(id);
      for (const inner of candidate.querySelectorAll(`[${ID_ATTRIBUTE}]`)) ids.add(inner.getAttribute(ID_ATTRIBUTE) as string);
      break;
    }
  }
}

/**
 * Text readability took from outside every element it kept: the loose text of the element it chose as the
 * article's root (on an old hand-written page often `<body>`: prose between its headings, lists and floats, not in
 * paragraphs), which it moves into new id-less paragraphs. Pruning to ids would drop it with its unkept parent, so
 * each original text node holding such a text (matched by its text, in page order) is wrapped in a kept `<span>`.
 */
function recoverLooseText(content: DomElement, document: DomDocument, ids: Set<string>): void {
  const wanted = new Map<string, number>();
  const collect = (parent: DomNode) => {
    for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
      if (isText(node)) {
        const text = normalisedText(node);
        if (/[\p{L}\p{N}]/u.test(text)) wanted.set(text, (wanted.get(text) ?? 0) + 1);
      } else if (isElement(node) && !node.hasAttribute(ID_ATTRIBUTE)) {
        collect(node);
      }
    }
  };
  collect(content);
  if (wanted.size === 0) return;
  let count = 0;
  const kept = keptIn(ids);
  const match = (parent: DomNode, insideKept: boolean) => {
    for (let node = parent.firstChild; node !== null && wanted.size > 0; node = node.nextSibling) {
      if (isElement(node)) {
        match(node, insideKept || kept(node));
        continue;
      }
      if (!isText(node)) continue;
      const text = normalisedText(node);
      const left = wanted.get(text);
      if (left === undefined) continue;
      if (left > 1) wanted.set(text, left - 1);
      else wanted.delete(text);
      if (insideKept) continue;
      const span = document.createElement('span');
      const id = `loose-${count++}`;
      span.setAttribute(ID_ATTRIBUTE, id);
      parent.insertBefore(span, node);
      span.appendChild(node);
      ids.add(id);
      node = span;
    }
  };
  match(document.body as DomElement, false);
}

/** The text of an element's own text nodes (not its children's), whitespace collapsed. */
function ownText(element: DomElement): string {
  let text = '';
  for (let node = element.firstChild; node !== null; node = node.nextSibling) if (isText(node)) text += node.textContent ?? '';
  return text.replace(/\s+/g, ' ').trim();
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

/**
 * When readability's article holds less than a fifth of the page's text (it may have latched on to a fragment: one
 * paragraph, a lead), the page's own marked-up container of that article: the smallest `itemprop="articleBody"`,
 * `<article>`, `<main>` or `role="main"` element holding it, never `<body>`. Null when there is none.
 */
function semanticContainer(body: DomElement, ids: Set<string>): { root: DomElement; method: MainContentMethod } | null {
  const kept = [...body.querySelectorAll(`[${ID_ATTRIBUTE}]`)].filter(keptIn(ids));
  const keptSet = new Set(kept);
  const articleText = textLengthOf(kept.filter((element) => element.parentElement === null || !keptSet.has(element.parentElement)));
  // A comment thread beside the article is not page text it is a share of: a short post over a long thread is the
  // whole article all the same.
  const pageText = normalisedLength(body) - textLengthOf(commentSectionsBeside(body, keptIn(ids)));
  // The container must hold the whole article (a category link or a heading readability kept may sit in a small
  // <article> of its own), and more than it.
  const tops = topKept(body, ids).filter((element) => normalisedLength(element) !== 0);
  if (tops.length === 0) return null;
  if (articleText >= pageText * MIN_ARTICLE_SHARE) return ownArticle(body, tops, textLengthOf(tops));
  let best: { root: DomElement; method: MainContentMethod } | null = null;
  let bestLength = Infinity;
  for (const [selector, method] of CONTAINERS) {
    for (const candidate of body.querySelectorAll(selector)) {
      if (!tops.every((element) => element === candidate || isInside(element, candidate))) continue;
      if (normalisedLength(candidate) <= articleText) continue;
      const length = normalisedLength(candidate);
      if (length < bestLength) {
        best = { root: candidate, method };
        bestLength = length;
      }
    }
  }
  return best;
}

/** Below this share of its own `<article>`'s text, readability's article is one section of it. */
const MIN_OWN_ARTICLE_SHARE = 0.5;
/**
 * The container is the article's only when the prose readability left out there is at least this share of the
 * article: a post of several sections, a page built of several text modules; not a short post whose `<article>`
 * holds more author and reviewer cards, share bars and notices than text, nor a `<main>` of menus, teams and
 * buttons around one text.
 */
const MIN_LEFT_OUT_PROSE_SHARE = 0.5;

/**
 * The page's own `<article>` (or `itemprop="articleBody"`, or `<main>`) holding readability's article, when that
 * article is under half of it and what it left out there is prose: readability took one section (a list, a thanks
 * block) of a post whose prose it judged apart, or one of the text modules a page builder lays out in its `<main>`.
 */
function ownArticle(body: DomElement, tops: DomElement[], articleText: number): { root: DomElement; method: MainContentMethod } | null {
  let best: { root: DomElement; method: MainContentMethod } | null = null;
  let bestLength = Infinity;
  for (const [selector, method] of CONTAINERS) {
    for (const candidate of body.querySelectorAll(selector)) {
      if (!tops.every((element) => element === candidate || isInside(element, candidate))) continue;
      const length = normalisedLength(candidate);
      if (length < bestLength) {
        best = { root: candidate, method };
        bestLength = length;
      }
    }
  }
  if (best === null || articleText >= bestLength * MIN_OWN_ARTICLE_SHARE) return null;
  if (leftOutProse(best.root, tops) < articleText * MIN_LEFT_OUT_PROSE_SHARE) return null;
  return best;
}

/**
 * A paragraph left out of readability's article counts as prose from a sentence's length (characters): the other
 * sections of a report may each open with one short sentence, where an author card's lines are a name and a title.
 */
const LEFT_OUT_SENTENCE_MIN = 40;

/** The length of the paragraphs of prose in `container` outside readability's article (`tops`), page chrome and boilerplate. */
function leftOutProse(container: DomElement, tops: DomElement[]): number {
  let length = 0;
  for (const paragraph of container.querySelectorAll('p')) {
    if (tops.some((top) => top === paragraph || isInside(paragraph, top) || isInside(top, paragraph))) continue;
    const text = normalisedText(paragraph);
    if (text.length < LEFT_OUT_SENTENCE_MIN || linkTextLength(paragraph) > text.length * PROSE_MAX_LINK_SHARE) continue;
    if (isInChrome(paragraph) || isInBoilerplate(paragraph, Infinity)) continue;
    length += text.length;
  }
  return length;
}

/**
 * Whether readability's whole article lies inside page chrome (a sidebar widget, a panel in an `<aside>`, a
 * footer) or inside a comment section, a share bar or a related list: it took a side block for the article.
 */
function isMisplaced(body: DomElement, ids: Set<string>): boolean {
  // The title heading kept beside the article says nothing of where the article is.
  const tops = topKept(body, ids).filter((element) => !/^h[1-6]$/.test(tagOf(element)) && normalisedLength(element) !== 0);
  if (tops.length === 0) return false;
  const half = normalisedLength(body) / 2;
  return tops.every((element) => isInChrome(element) || isInBoilerplate(element, half));
}

function isInBoilerplate(element: DomElement, maxLength: number): boolean {
  for (let node: DomElement | null = element; node !== null && tagOf(node) !== 'body'; node = node.parentElement) {
    if (isBoilerplateElement(node) && normalisedLength(node) < maxLength) return true;
  }
  return false;
}

/**
 * The page's own article container outside page chrome and boilerplate (the one with the most text of
 * `itemprop="articleBody"`, `<article>`, `<main>`, `role="main"`), or null.
 */
function containerOutsideChrome(body: DomElement): { root: DomElement; method: MainContentMethod } | null {
  const half = normalisedLength(body) / 2;
  let best: { root: DomElement; method: MainContentMethod } | null = null;
  let bestLength = 0;
  for (const [selector, method] of CONTAINERS) {
    for (const candidate of body.querySelectorAll(selector)) {
      if (isInChrome(candidate) || isInBoilerplate(candidate, half)) continue;
      const length = normalisedLength(candidate);
      if (length > bestLength) {
        best = { root: candidate, method };
        bestLength = length;
      }
    }
  }
  return best;
}

/** The text length of the elements readability kept (outermost ones, so none counts twice). */
function keptTextLength(body: DomElement, ids: Set<string>): number {
  return textLengthOf(topKept(body, ids));
}

/** The outermost elements readability kept. */
function topKept(body: DomElement, ids: Set<string>): DomElement[] {
  const kept = [...body.querySelectorAll(`[${ID_ATTRIBUTE}]`)].filter(keptIn(ids));
  const keptSet = new Set(kept);
  return kept.filter((element) => {
    for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) if (keptSet.has(parent)) return false;
    return true;
  });
}

function isInChrome(element: DomElement): boolean {
  for (let node: DomElement | null = element; node !== null; node = node.parentElement) {
    if (CHROME_SELECTORS.some((selector) => node.matches(selector))) return true;
    const tag = tagOf(node);
    if ((tag === 'header' || tag === 'footer') && node.parentElement?.closest(SECTIONING) === null) return true;
  }
  return false;
}

function fallback(document: DomDocument, articleBody: string | null): MainContentMethod {
  const body = document.body as DomElement;
  const withText = (elements: Iterable<DomElement>) => [...elements].filter((element) => normalisedLength(element) !== 0);
  const largest = (elements: DomElement[]) =>
    elements.reduce<DomElement | null>((best, element) => (best === null || normalisedLength(element) > normalisedLength(best) ? element : best), null);
  const candidates: [MainContentMethod, DomElement | null][] = [
    ['article-body', largest(withText(body.querySelectorAll('[itemprop="articleBody"]')))],
    ['article', largest(withText(body.querySelectorAll('article')))],
    ['main', largest(withText(body.querySelectorAll('main, [role="main"]')))],
  ];
  for (const [method, root] of candidates) {
    if (root === null) continue;
    if (articleBody !== null && normalisedLength(root) < articleBody.length / 2) break;
    body.replaceChildren(root);
    removeChrome(body);
    if (normalisedLength(body) === 0) body.replaceChildren(root);
    return method;
  }
  if (articleBody !== null && normalisedLength(body) < articleBody.length * 2) {
    const paragraphs = articleBody.split(/\n\s*\n|\n/).map((text) => text.trim()).filter((text) => text !== '');
    body.replaceChildren(
      ...paragraphs.map((text) => {
        const paragraph = document.createElement('p');
        paragraph.textContent = text;
        return paragraph;
      }),
    );
    return 'json-ld';
  }
  const before = body.innerHTML;
  removeChrome(body);
  if (normalisedLength(body) === 0) body.innerHTML = before;
  return 'body';
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
