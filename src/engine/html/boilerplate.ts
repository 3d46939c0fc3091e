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
 *   tag clouds, "more stories" lists readability left in);
 * - forms that take input (sign-up, lead and search boxes), with their labels and notes, judged by their fields on
 *   the page as served (readability may keep a lead form's consent note without its fields);
 * - bylines and meta lines (`byline`, `entry-meta`, `author-box`...), buttons, paywall boxes, sidebars, menus,
 *   footers, ads, and chrome readability left inside its article (`nav`, `aside`, hidden elements);
 * - the publisher's legal notes marked up as such (`disclaimer`, `disclosures`): the fund's risks, "views are the
 *   authors' own", a transcript's accuracy note;
 * - "read also" lines (a short paragraph that is a link behind a few words of lead-in), teaser cards (a link
 *   wrapping a heading, a `teaser`/`card` block that is mostly link, a list item headed by a link to another
 *   page with an excerpt, picture or date beside it, a nested `<article>` headed by such a link, a carousel of
 *   cards headed by such links), picture credits and source lines ("Photo:", "Image credit:",
 *   "Source:", "(Image credit: …)", "Courtesy of …", a caption ending in "© name" or "Photo: name" after its
 *   sentence, "Name / Getty Images"), copyright lines, call-to-action boxes (`cta`), and headings left at
 *   the end with nothing under them;
 * - a section of teasers under a heading that announces the site's other pages ("Related articles", "Read next",
 *   "You might also like", "More from …"): the heading and the rest of its block, when that links elsewhere; so
 *   is the author's biography under its heading ("About the author", "Written by …"), whose box author-bio.ts
 *   finds only by the names the page's metadata gives;
 * - a page builder's copies of a long block beside the first (one per screen size, all but one hidden by CSS), and
 *   a template's "Lorem ipsum" filler.
 * Spared: a link list the article's own sentence announces mid-article (list-intro.ts), a list item's paragraph of
 * links, a line giving a web address written out ("Website: https://…"), a margin figure set in an `<aside>`.
 * When the rules together would leave less than a fifth of the text, nothing is removed (never an empty page).
 * Headings, tables, code, figures and the article's prose never match the link-density rule (they are not link
 * lists); the class rules match whole class words only (`share`, not `shareholder`).
 */
import { type DomDocument, type DomElement, type DomNode, elementChildren, isElement, isText, isWordsOfASentence, linkTextLength, normalisedLength, normalisedText, tagOf, textLengthOf } from './dom.js';
import { introducingSentence } from './list-intro.js';

/** Comment sections marked up as such (by id or schema.org). */
const COMMENT_SELECTORS = ['#comments', '#respond', '#disqus_thread', '[itemtype*="schema.org/Comment" i]', '[itemprop="comment"]', '[itemprop="comments"]'];

const BOILERPLATE_SELECTORS = [
  ...COMMENT_SELECTORS,
  // Posts embedded from social networks and other sites: quoted from elsewhere, not the article's text.
  'blockquote.twitter-tweet',
  'blockquote.instagram-media',
  'blockquote.tiktok-embed',
  'blockquote.wp-embedded-content',
  '.fb-post',
];

/**
 * Class/id words of boilerplate, matched as whole words (split on -, _ and spaces); a footer, sidebar or navbar also
 * with a word glued before it (`superfooter`, `leftsidebar`; not `withSidebar`, a setting).
 */
const BOILERPLATE_WORDS =
  /(?:^|[\s_-])(comments?|commentlist|comment-?list|disqus|respond|share|sharing|sharebar|shariff|social|socials|follow|related|read-?more|readmore|recommended|recommendations|more-?stories|newsletter|news-letter|subscribe|subscription|signup|sign-?up|outbrain|taboola|breadcrumbs?|pagination|tags|tag-?list|byline-?share|bylines?|author[-_]?(?:details?[-_]?)?(?:box|bio|info|card|profile|description)|about[-_]?(?:the[-_]?)?author|authorbox|postmetadata|post-?meta|entry-?meta|article-?meta|meta|timestamp|buttons?|btn|most-?popular|most-?read|popular-?posts|trending|copyright|credits?|photo-?credit|image-?credit|paywall|(?!(?:has|with|without|no)(?:sidebar|navbar|footer))[a-z]*(?:sidebar|navbar|footer)|navigation|menu|submenu|banner|toolbar|ads?|advert|adverts|advertisement|sponsored|promo|cta|call-?to-?action|disclaimers?|disclosures?)(?:$|[\s_-])/i;

/** Class words of teaser cards (links to other pages with their picture and lead). */
const TEASER_WORDS = /(?:^|[\s_-])(teasers?|cards?|post-?teaser|related-?post)(?:$|[\s_-])/i;
/** Class words of carousels and sliders (their slides scroll sideways, one screen at a time). */
const CAROUSEL_WORDS = /(?:^|[\s_-])(carousel|slider|swiper|slick|splide|glide|owl)(?:$|[\s_-])/i;
/** Whole class names that hide an element from readers (CSS frameworks' and screen-reader-only classes). */
const HIDDEN_CLASSES = new Set(['hidden', 'hide', 'is-hidden', 'd-none', 'visually-hidden', 'sr-only', 'screen-reader-text', 'invisible']);

/** A comment section marked up as such is kept only when it holds more than this share of the content's text. */
const MARKED_UP_MAX_SHARE = 0.75;

/** A dialog the page hides until a reader opens it: `display: none` on it, or a `<dialog>` without `open`. */
function isClosedDialog(element: DomElement): boolean {
  const dialog = tagOf(element) === 'dialog' || ['dialog', 'alertdialog'].includes(element.getAttribute('role') ?? '') || element.getAttribute('aria-modal') === 'true';
  if (!dialog) return false;
  if (tagOf(element) === 'dialog' && !element.hasAttribute('open')) return true;
  return /(?:^|;)\s*display\s*:\s*none\b/i.test(element.getAttribute('style') ?? '');
}

/** The text of a link that takes a keyboard reader past the page's chrome. */
const SKIP_LINK = /^skip (?:to|navigation|over|past)\b/i;

/** Elements the link-density rule looks at: lists and generic containers. */
const LINK_LIST_TAGS = new Set(['ul', 'ol', 'div', 'section', 'p', 'dl', 'menu']);
const KEEP_TAGS = new Set(['body', 'main', 'article', 'table', 'pre', 'code', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Below this share of the content's text left, the removal took the content for boilerplate: it is undone. */
const MIN_KEPT_SHARE = 0.2;

/**
 * Removes boilerplate inside `root` (in place). Each rule spares an element holding half the content or more; when
 * the rules together would leave less than a fifth of the text (a page that is a list of teasers, a short post
 * under a long comment section readability took whole), nothing is removed.
 */
export function removeBoilerplate(root: DomElement, isPost: (element: DomElement) => boolean = () => false, inputForms: ReadonlySet<DomElement> = new Set()): void {
  const before = normalisedLength(root);
  const backup = root.cloneNode(true) as DomElement;
  removeBoilerplateRules(root, isPost, inputForms);
  if (before > 0 && normalisedLength(root) < before * MIN_KEPT_SHARE) root.replaceChildren(...backup.childNodes);
  else removeTeaserArticles(root, isPost);
}

/**
 * The comment sections marked up as such inside `root` that hold nothing `keeps` (readability's article), outermost
 * only: a page's comment thread beside its article.
 */
export function commentSectionsBeside(root: DomElement, keeps: (element: DomElement) => boolean): DomElement[] {
  const sections: DomElement[] = [];
  for (const element of root.querySelectorAll(COMMENT_SELECTORS.join(', '))) {
    if (sections.some((section) => section === element || isInside(element, section))) continue;
    if (keeps(element) || [...element.querySelectorAll('*')].some(keeps)) continue;
    if (element.closest('pre, code') !== null) continue;
    sections.push(element);
  }
  return sections;
}

/**
 * Whether a form takes input: a sign-up, lead or search box, not a form that only wraps the page (a framework's
 * one form around everything) or a button.
 */
export function takesInput(form: DomElement): boolean {
  return form.querySelector('input:not([type="hidden"]), textarea, select') !== null;
}

/**
 * `isPost`: the posts of a thread (main-content.ts), which no rule removes for being marked up as comments.
 * `inputForms`: the forms that took input on the page as served (main-content.ts), before the cleaning that may have
 * left a form's labels and notes without its fields.
 */
function removeBoilerplateRules(root: DomElement, isPost: (element: DomElement) => boolean, inputForms: ReadonlySet<DomElement>): void {
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
  // Inside code, class names are a highlighter's (`hljs-comment`, `token comment`): never boilerplate.
  const inCode = (element: DomElement) => element.closest('pre, code') !== null;
  const removable = (element: DomElement, maxShare = 0.5) =>
    !KEEP_TAGS.has(tagOf(element)) && (textLength.get(element) ?? 0) < total * maxShare && !inCode(element) && !isPost(element);

  // A section marked up as comments (by id or schema.org) goes unless it is nearly all the content: beside a
  // short post, the comment form often holds more text than the post.
  for (const selector of BOILERPLATE_SELECTORS) {
    for (const element of root.querySelectorAll(selector)) if (removable(element, MARKED_UP_MAX_SHARE)) element.remove();
  }
  for (const element of root.querySelectorAll('[class], [id]')) {
    if (!BOILERPLATE_WORDS.test(roleNames(element))) continue;
    if (removable(element)) element.remove();
  }
  // Forms that take input (sign-up, lead and search boxes): their labels and notes are not the article's text.
  for (const form of root.querySelectorAll('form')) {
    if ((inputForms.has(form) || takesInput(form)) && removable(form)) form.remove();
  }
  // Page chrome readability left inside its article: menus, side boxes, dialogs (a republish box, a sign-up
  // prompt: shown over the page on request), elements hidden from readers.
  for (const element of root.querySelectorAll('nav, aside, [role="navigation"], [role="complementary"], [role="dialog"], [role="alertdialog"], [aria-modal="true"], dialog, [hidden], [aria-hidden="true"]')) {
    if (isMarginFigure(element)) continue;
    // A dialog not shown until asked for is never the page's text, however long (a republish box holds a copy
    // of the article and its licence).
    if (isClosedDialog(element) ? !inCode(element) && !isPost(element) : removable(element)) element.remove();
  }
  for (const element of root.querySelectorAll('[class]')) {
    const classes = (element.getAttribute('class') ?? '').split(/\s+/);
    if (classes.some((name) => HIDDEN_CLASSES.has(name)) && removable(element)) element.remove();
  }
  // Skip links ("Skip to main content", "Skip navigation"): keyboard readers' way past the chrome, shown only on
  // focus; they point into the page.
  for (const link of root.querySelectorAll('a[href^="#"]')) {
    if (SKIP_LINK.test(normalisedText(link))) link.remove();
  }
  // Teaser cards of other pages: a link wrapping a heading, or a block named a teaser or card that is mostly link.
  const anchors = anchorsOf(root);
  /** A heading that is all but wholly a link to another page: a teaser's or a card's title. */
  const titlesAnotherPage = (heading: DomElement): boolean => {
    const text = textLength.get(heading) ?? 0;
    return text > 0 && (linkLength.get(heading) ?? 0) >= text * 0.9 && linksElsewhere(heading, anchors);
  };
  for (const element of root.querySelectorAll('a')) {
    if (element.parentNode === null || pointsIntoPage(element.getAttribute('href'), anchors)) continue;
    if (element.querySelector('h1, h2, h3, h4, h5, h6') !== null && removable(element)) element.remove();
  }
  // A list of other articles: items headed by a link to another page (its title), with an excerpt or picture.
  for (const heading of root.querySelectorAll('li h1, li h2, li h3, li h4, li h5, li h6')) {
    if (heading.parentNode === null || !titlesAnotherPage(heading)) continue;
    const item = outermostListItem(heading, root);
    // An item that is its linked heading alone names a thing the article points to (a product it recommends, with
    // the shop's address): a teaser has more than its title, an excerpt, a picture or a date.
    if (item === null || isBareLinkedHeading(item, heading, textLength)) continue;
    if (removable(item)) item.remove();
  }
  // A carousel of other pages' cards ("more stories" slides): two or more headings linked elsewhere in a slider,
  // after the article's prose. One before prose of the content is the page's own (a service's offers in slides).
  for (const element of root.querySelectorAll('[class]')) {
    if (element.parentNode === null || !CAROUSEL_WORDS.test(element.getAttribute('class') ?? '')) continue;
    if (proseFollows(element, root, textLength)) continue;
    const cardTitles = [...element.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter(titlesAnotherPage);
    if (cardTitles.length >= 2 && removable(element)) element.remove();
  }
  for (const element of root.querySelectorAll('[class]')) {
    if (element.parentNode === null || !TEASER_WORDS.test(element.getAttribute('class') ?? '') || isWordsOfASentence(element)) continue;
    const text = textLength.get(element) ?? 0;
    if (text > 0 && (linkLength.get(element) ?? 0) / text >= 0.5 && removable(element)) element.remove();
  }
  for (const element of [...root.querySelectorAll('ul, ol, div, section, p, dl, menu')].reverse()) {
    if (!LINK_LIST_TAGS.has(tagOf(element)) || !removable(element)) continue;
    const text = textLength.get(element) ?? 0;
    if (text === 0 || (linkLength.get(element) ?? 0) / text < 0.8) continue;
    if (element.querySelectorAll('a').length < 3) continue;
    if (element.querySelector('table, pre, figure, img, h1, h2, h3, h4, h5, h6') !== null) continue;
    // A list the article's own sentence announces is the article's (pull requests, courses, sources).
    if (introducingSentence(element, root) !== null) continue;
    element.remove();
  }
  // A "read also" line: a short paragraph that is a link to another page behind a few words of lead-in.
  for (const element of root.querySelectorAll('p')) {
    const text = textLength.get(element) ?? 0;
    const links = linkLength.get(element) ?? 0;
    if (text === 0 || text > READ_ALSO_MAX || links / text < 0.5 || text - links > READ_ALSO_LEAD_IN) continue;
    // A paragraph inside a list item is the item's text: the list rule above judged the list as a whole.
    if (element.parentElement !== null && tagOf(element.parentElement) === 'li') continue;
    if (!linksElsewhere(element, anchors)) continue;
    // "Website: https://…": an address written out is a reference the article gives, not a link to another story.
    if ([...element.querySelectorAll('a')].some((link) => WRITTEN_ADDRESS.test((link.textContent ?? '').trim()))) continue;
    if (removable(element)) element.remove();
  }
  // Photo credits and source lines: who took the picture, where the text came from; not the article's text.
  for (const element of root.querySelectorAll('figcaption small, .caption small, .wp-caption-text small')) element.remove();
  for (const element of root.querySelectorAll('p, figcaption, small, span, div, em')) {
    if (element.parentNode === null || (textLength.get(element) ?? 0) > CREDIT_MAX) continue;
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    if ((CREDIT_LINE.test(text) || CREDITED_CAPTION.test(text) || AGENCY_CREDIT.test(text) || CREDITED_AGENCY.test(text)) && removable(element)) element.remove();
  }
  removeCaptionCredits(root);
  removeSiblingCopies(root, textLength);
  for (const block of placeholderBlocks(root)) if (block.parentNode !== null && removable(block)) block.remove();
  removeOtherPagesSections(root, total, anchors);
  removeTrailingHeadings(root);
}

/** The filler text of templates and mock-ups ("Lorem ipsum dolor sit amet..."), never written for a reader. */
const PLACEHOLDER = /^lorem ipsum\b/i;
const PLACEHOLDER_BLOCKS = 'p, li, blockquote, figcaption, dd, td, th, div, span';

/** The blocks whose text is a template's filler left on the page: the smallest block each filler text starts. */
function placeholderBlocks(root: DomElement): DomElement[] {
  const blocks: DomElement[] = [];
  // One look at the whole text spares a page without filler the walk over its blocks.
  if (!/lorem ipsum/i.test(root.textContent ?? '')) return blocks;
  for (const element of root.querySelectorAll(PLACEHOLDER_BLOCKS)) {
    if (!PLACEHOLDER.test(normalisedText(element))) continue;
    if ([...element.querySelectorAll(PLACEHOLDER_BLOCKS)].some((inner) => PLACEHOLDER.test(normalisedText(inner)))) continue;
    blocks.push(element);
  }
  return blocks;
}

/**
 * A block repeated beside itself is a copy when at least this long (characters): a page builder's copy of a whole
 * section, not a short line an author repeats (a legend under each table, a pull quote).
 */
const COPY_MIN = 500;
/** Repeated rows, cells, items and code lines are the content's own. */
const OWN_REPEAT_TAGS = new Set(['tr', 'td', 'th', 'li', 'pre', 'code']);

/**
 * Copies of one block side by side: a page builder renders a section once per screen size and lets CSS show one,
 * which an extraction cannot see; the first copy stays. `textLength` gives each element's text length.
 */
function removeSiblingCopies(root: DomElement, textLength: Map<DomNode, number>): void {
  for (const parent of [root, ...root.querySelectorAll('*')]) {
    const long = [...elementChildren(parent)].filter((child) => (textLength.get(child) ?? 0) >= COPY_MIN && !OWN_REPEAT_TAGS.has(tagOf(child)));
    if (long.length < 2) continue;
    const seen = new Set<string>();
    for (const child of long) {
      const text = normalisedText(child);
      if (seen.has(text)) child.remove();
      else seen.add(text);
    }
  }
}

/**
 * Teaser cards marked up as articles of their own: a nested `<article>` headed by a link to another page, with
 * little more than a date, a tag or a line of excerpt beside it. Run on what the other rules left, and only beside
 * an article: when the cards are half the content or more, the page is a listing and they are what it lists.
 */
function removeTeaserArticles(root: DomElement, isPost: (element: DomElement) => boolean): void {
  const cards = new Set<DomElement>();
  const anchors = anchorsOf(root);
  for (const heading of root.querySelectorAll('article h1, article h2, article h3, article h4, article h5, article h6')) {
    const text = normalisedLength(heading);
    if (text === 0 || linkTextLength(heading) < text * 0.9) continue;
    if (!linksElsewhere(heading, anchors)) continue;
    const card = heading.closest('article');
    if (card === null || card === root || !isInside(card, root) || isPost(card)) continue;
    const cardText = normalisedLength(card);
    if (cardText - text <= TEASER_CARD_EXTRA) cards.add(card);
  }
  const cardsText = textLengthOf(cards);
  if (cardsText < normalisedLength(root) * 0.5) for (const card of cards) card.remove();
}

/**
 * Whether `element` holds a link to another page. An `<a>` without an address is a named anchor or a script's
 * handle, no link to anywhere.
 */
function linksElsewhere(element: DomElement, anchors: () => Set<string>): boolean {
  return [...element.querySelectorAll('a[href]')].some((link) => !pointsIntoPage(link.getAttribute('href'), anchors));
}

/**
 * Whether a link's address points into the page itself: a bare fragment (`#section`), or an address ending in the
 * fragment of an element of `root` (a jump link written with the page's own address, `/guide#section`, which
 * wraps a section heading as often as a bare one does). `anchors` gives the ids in `root`, read on first use.
 */
function pointsIntoPage(href: string | null, anchors: () => Set<string>): boolean {
  const address = (href ?? '').trim();
  if (address.startsWith('#')) return true;
  const hash = address.indexOf('#');
  return hash > 0 && anchors().has(address.slice(hash + 1));
}

/** The ids of the elements in `root`, computed once when first asked for. */
function anchorsOf(root: DomElement): () => Set<string> {
  let ids: Set<string> | undefined;
  return () => (ids ??= new Set([...root.querySelectorAll('[id]')].map((element) => element.getAttribute('id') ?? '')));
}

/** Link text that is a web address written out. */
const WRITTEN_ADDRESS = /^(?:https?:\/\/|www\.)\S+$/i;

/**
 * An `<aside>` inside the article that holds only a figure with its caption: a margin figure of the article (the
 * layout puts it beside the text), not a side box.
 */
export function isMarginFigure(element: DomElement): boolean {
  if (tagOf(element) !== 'aside') return false;
  const figures = [...element.querySelectorAll('figure')];
  if (figures.length === 0 || figures.some((figure) => figure.querySelector('figcaption') === null)) return false;
  const text = normalisedLength(element);
  return text > 0 && textLengthOf(figures) >= text * 0.9;
}

/** A teaser card holds at most this much text (characters) besides its linked heading. */
const TEASER_CARD_EXTRA = 300;
/** The longest "read also" line, in characters; at most this much of it is not link text. */
const READ_ALSO_MAX = 200;
const READ_ALSO_LEAD_IN = 30;
/** A credit or source line is short and starts with the word for it (the languages of the pages seen most). */
const CREDIT_MAX = 200;
// In brackets too: "(Image credit: Studio)" under a picture. "Courtesy of …" alone names who lent the picture.
const CREDIT_LINE = /^[([]?(?:©|\(c\)\s|copyright\s+(?:©|\(c\)|\d{4})|courtesy(?:\s+of)?\s|(?:photo(?:graph)?s?|pictures?|images?)\s+(?:by|courtesy(?:\s+of)?|used under licen[cs]e)\s|(?:fotos?|foto ?credits?|photos?|photo ?credits?|photographers?|bild(?:er)?|bildquelle|images?|image ?credits?|image ?sources?|credits?|crédits?(?: photos?)?|quelle|source|fuente|fonte)\s*:)/i;

/** A picture agency's credit line: "Getty Images / Photographer", "Alamy Stock Photo / Name". */
const AGENCY_CREDIT = /^\p{Lu}[\p{L}&.' -]{1,30}\s(?:images|photos?|pictures|stock photo)\s*\/\s*[^/]{1,60}$/iu;
/** The same the other way round: "Photographer / Getty Images", "Name via Getty Images", "Studio | Stock Photos". */
const CREDITED_AGENCY = /^[^|.!?]{1,60}?\s*(?:\/|\||\bvia\b)\s*(?:\p{Lu}[\p{L}&.'-]*\s){1,3}(?:[Ii]mages|[Pp]hotos|[Pp]ictures|[Ss]tock [Pp]hotos?)\.?$/u;
/** The credit a caption ends with after a bar: "The bakery in May. | Photo by Name". */
const TRAILING_CREDIT = /\s*\|\s*(?:photo(?:graph)?s?|pictures?|images?)\s+(?:by|courtesy(?:\s+of)?)\s[^|]{1,60}$/i;
/** The credit a caption ends with after its sentence or a dash: "The bakery in May. Photo: Name/Agency", "… – Photo credit: Name". */
const SENTENCE_CREDIT = /(?:(?<=[.!?)])\s+|\s+[-–—]\s+)(?:photo(?:graph)?s?|pictures?|images?|fotos?|bild)(?:\s+credits?)?\s*:\s*[^|:.!?]{1,60}\.?\s*$/i;

/**
 * A caption's credit inside the caption's own text: a line after a `<br>` ("Photo Credit: …"), the end after a
 * bar ("| Photo by …") or after the caption's sentence ("… in May. Photo: Name"). The caption stays; its credit goes.
 */
function removeCaptionCredits(root: DomElement): void {
  // A caption's text is often set in a paragraph of its own inside it.
  for (const caption of root.querySelectorAll('figcaption, [class*="caption" i], [class*="credits" i], figcaption > p, [class*="caption" i] > p')) {
    for (let node = caption.firstChild; node !== null; ) {
      const next = node.nextSibling;
      if (isText(node)) {
        const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
        const previous = node.previousSibling;
        if (previous !== null && isElement(previous) && tagOf(previous) === 'br' && CREDIT_LINE.test(text)) node.remove();
        else if (TRAILING_CREDIT.test(node.textContent ?? '')) node.textContent = (node.textContent ?? '').replace(TRAILING_CREDIT, '');
        else if (SENTENCE_CREDIT.test(node.textContent ?? '')) node.textContent = (node.textContent ?? '').replace(SENTENCE_CREDIT, '');
      }
      node = next;
    }
  }
}

/** A picture's caption ending in its credit: "The new plant in May. © Photographer". */
const CREDITED_CAPTION = /^[^©]{0,150}©[^©.!?]{1,40}$/;

/**
 * A heading that announces other pages of the site, nothing of the article: "Related articles", "Read next",
 * "Recommended reading", "You might also like", "More from <site>". Its own words only: "More posts related to
 * Tokyo" or "Related resources" may head the article's own list of sources.
 */
const OTHER_PAGES_HEADING =
  /^(?:related (?:articles?|posts?|stories|reads?|reading|news|publications)\b|read next\b|recommended (?:reading|articles|posts|stories|for you)\b|(?:(?:more )?(?:articles|posts|stories) )?you (?:may|might|could) (?:also )?(?:like|enjoy|be interested in)\b|more (?:articles|stories|news)\b|more from\b|keep reading\b|popular (?:posts|articles|stories)\b)/i;
/**
 * A heading over the author's biography at the end of a post ("About the author", "Written by Jane Doe", "Meet the
 * testers"): the site's card of its writer, not the article.
 */
const AUTHOR_HEADING = /^(?:about the (?:author|writer)s?|written by\s+\S|meet the (?:authors?|writers?|testers?)$)/i;
/** The section under such a heading is removed when it holds less than this share of the content's text. */
const OTHER_PAGES_MAX_SHARE = 0.25;

/**
 * The sections headed by a heading that announces other pages (`OTHER_PAGES_HEADING`): the heading and what follows
 * it in its block (`sectionAfter`), when that is teasers (it links to other pages, or it is empty once the cards'
 * own markup was removed) and a small share of the content. The cards under such a heading are
 * often marked up as nothing but blocks with a picture link beside their title and excerpt.
 */
function removeOtherPagesSections(root: DomElement, total: number, anchors: () => Set<string>): void {
  for (const heading of [...root.querySelectorAll('h1, h2, h3, h4, h5, h6')]) {
    if (heading.parentNode === null) continue;
    const title = normalisedText(heading);
    const aboutAuthor = AUTHOR_HEADING.test(title);
    if (!aboutAuthor && !OTHER_PAGES_HEADING.test(title)) continue;
    const section = sectionAfter(root, heading);
    const text = textLengthOf(section);
    if (text >= total * OTHER_PAGES_MAX_SHARE) continue;
    // A biography is prose: only teasers are known by their links.
    if (!aboutAuthor && text > 0 && !section.some((element) => linksElsewhere(element, anchors) || (tagOf(element) === 'a' && !pointsIntoPage(element.getAttribute('href'), anchors)))) continue;
    for (const element of section) element.remove();
    heading.remove();
  }
}

/**
 * What follows `heading` in its own block: its next siblings up to one that is or holds a heading of its rank or
 * above; when it has none with text (a heading set alone in a column of its own), those of the block around it,
 * unless text comes before it there. Never past the end of that block: content after the teasers is the article's.
 */
function sectionAfter(root: DomElement, heading: DomElement): DomElement[] {
  const rank = Number(tagOf(heading).slice(1));
  const opensSection = (element: DomElement) =>
    [element, ...element.querySelectorAll('h1, h2, h3, h4, h5, h6')].some((inner) => /^h[1-6]$/.test(tagOf(inner)) && Number(tagOf(inner).slice(1)) <= rank);
  for (let node: DomElement = heading; node !== root; ) {
    const section: DomElement[] = [];
    for (let sibling = node.nextElementSibling; sibling !== null && !opensSection(sibling); sibling = sibling.nextElementSibling) section.push(sibling);
    if (textLengthOf(section) > 0) return section;
    const parent = node.parentElement;
    if (parent === null || parent === root) return [];
    for (let before = node.previousSibling; before !== null; before = before.previousSibling) if (normalisedLength(before) !== 0) return [];
    node = parent;
  }
  return [];
}

/**
 * Headings left with nothing after them once the list or box they introduced is gone ("More stories", "Also
 * read"): a heading at the end of the content introduces nothing.
 */
function removeTrailingHeadings(root: DomElement): void {
  for (let round = 0; round < 3; round++) {
    let last: DomNode | null = null;
    const visit = (node: DomNode) => {
      for (let child = node.firstChild; child !== null; child = child.nextSibling) {
        if (isElement(child)) visit(child);
        else if (isText(child) && (child.textContent ?? '').trim() !== '') last = child;
      }
    };
    visit(root);
    const heading = (last as DomNode | null)?.parentElement?.closest('h1, h2, h3, h4, h5, h6') ?? null;
    if (heading === null || heading === root || !isInside(heading, root)) return;
    // The only heading of a content with no other text stays: it is all there is.
    if (normalisedLength(root) <= normalisedLength(heading) * 2) return;
    heading.remove();
  }
}

/** A paragraph of prose is at least this long (characters). */
const PROSE_MIN = 80;

/** Whether a paragraph of prose of `root` comes after `element` (outside it). */
function proseFollows(element: DomElement, root: DomElement, textLength: Map<DomNode, number>): boolean {
  let passed = false;
  for (const node of root.querySelectorAll('*')) {
    if (node === element) passed = true;
    else if (passed && tagOf(node) === 'p' && !isInside(node, element) && (textLength.get(node) ?? 0) >= PROSE_MIN) return true;
  }
  return false;
}

/**
 * Whether a list item holds nothing but its linked heading (whitespace aside): no excerpt, picture or date that
 * would make it a teaser of the page it links to.
 */
function isBareLinkedHeading(item: DomElement, heading: DomElement, textLength: Map<DomNode, number>): boolean {
  const extra = (textLength.get(item) ?? 0) - (textLength.get(heading) ?? 0);
  return extra <= BARE_ITEM_SLACK && item.querySelector('img, picture, time') === null;
}

/** The whitespace runs around a heading in its list item (each counted as one character). */
const BARE_ITEM_SLACK = 3;

function outermostListItem(element: DomElement, root: DomElement): DomElement | null {
  let item: DomElement | null = null;
  for (let node = element.parentElement; node !== null && node !== root; node = node.parentElement) if (tagOf(node) === 'li') item = node;
  return item;
}

function isInside(element: DomElement, root: DomElement): boolean {
  for (let node = element.parentElement; node !== null; node = node.parentElement) if (node === root) return true;
  return false;
}

/** Whether an element is, by its markup, a comment section, a share bar, a related list or the like. */
export function isBoilerplateElement(element: DomElement): boolean {
  if (BOILERPLATE_SELECTORS.some((selector) => element.matches(selector))) return true;
  const names = roleNames(element);
  return names.trim() !== '' && BOILERPLATE_WORDS.test(names);
}

/** An id of this many words or more is an anchor written from a heading or a title, not a name of a role. */
const ANCHOR_ID_WORDS = 4;

/**
 * A class name that says what a container has or how it is set, not what it is: `has-sidebar`, `no-comments`,
 * `sidebar-enabled--false` on the article's own wrapper; `sidebar-layout`, a layout with a sidebar.
 */
const STATE_CLASS = /^(?:has|with|without|no|show|hide)-|-(?:enabled|disabled|active|inactive|open|closed|visible|on|off)(?:--|$)|^sidebar-layout$/i;

/**
 * The names that say what an element is for: its class names (those stating a state left out) and its id, unless
 * the id is an anchor spelled from its heading (`menu-innovation-strategies-for-caterers` names a section of the
 * article, not a menu).
 */
function roleNames(element: DomElement): string {
  const id = element.getAttribute('id') ?? '';
  const anchor = id.split(/[-_\s]+/).filter((word) => word !== '').length >= ANCHOR_ID_WORDS;
  const classes = (element.getAttribute('class') ?? '').split(/\s+/).filter((name) => name !== '' && !STATE_CLASS.test(name) && !(name === 'sidebar-content' && besideSidebar(element)));
  return `${anchor ? '' : id} ${classes.join(' ')}`;
}

/**
 * The element stands beside a sibling named `sidebar`: its own `sidebar-content` then names the content part of a
 * layout with a sidebar, where elsewhere (beside the `main-content`) it is the sidebar's.
 */
function besideSidebar(element: DomElement): boolean {
  const parent = element.parentElement;
  if (parent === null) return false;
  return [...parent.children].some((sibling) => sibling !== element && (sibling.getAttribute('class') ?? '').split(/\s+/).includes('sidebar'));
}

/** The text of the page's JSON-LD `articleBody` (the longest one), or null; `nodes` from jsonLdNodes. */
export function jsonLdArticleBody(nodes: readonly Record<string, unknown>[]): string | null {
  let best: string | null = null;
  for (const node of nodes) {
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
    const parsed = parseJsonLd(script.textContent ?? '');
    if (parsed !== undefined) visit(parsed);
  }
  return nodes;
}

/**
 * A JSON-LD script's value, or undefined when it is malformed beyond the common slip: line breaks and tabs typed
 * raw inside its strings (an answer or an article body pasted in), which JSON forbids.
 */
function parseJsonLd(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    try {
      return JSON.parse(text.replace(/[\r\n\t]+/g, ' ')) as unknown;
    } catch {
      return undefined;
    }
  }
}
