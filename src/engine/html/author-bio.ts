/**
 * The author's box under an article: the author's name, picture, links and a short biography. The biography is
 * not the article's text, yet readability keeps it (it is a paragraph of prose next to the article). The page
 * itself says which text is the biography: the `description` of a schema.org `Person` in its JSON-LD, or an
 * element marked up as a `Person` (microdata) or an `h-card`/`vcard` holding a description. Without such markup, a
 * box is recognised by its shape: a headshot and the author's name, then a paragraph that starts with that name
 * and says who the person is ("Jane Doe is a travel writer..."), in the last third of the content. A page that names
 * its author (`<meta name=author>`, `article:author`, JSON-LD `author.name`) needs no picture: a paragraph near the
 * end that opens with that name and says who the person is ("Jane Doe is a senior editor...", "Jane Doe, CFP, has
 * covered...") is the author's biography.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { type DomElement, isElement, normalisedLength, normalisedText, tagOf } from './dom.js';

/** A biography is at least this long (characters): a shorter description (a job title) says too little to match. */
const BIO_MIN = 40;
/** The start of a biography matched in the page (characters): pages cut long biographies or add "Read more". */
const BIO_PREFIX = 60;
/** Around the biography, the box holds at most this much more text (name, job, links), in characters. */
const BOX_EXTRA = 400;
/** An author box holds less than this share of the content's text (an author's own page is all biography). */
const MAX_SHARE = 0.5;
const KEEP_TAGS = new Set(['body', 'main', 'article']);

/** The biographies of the page's JSON-LD `Person` nodes (`nodes` from jsonLdNodes, read before scripts are removed). */
export function authorBiographies(nodes: readonly Record<string, unknown>[]): string[] {
  const bios: string[] = [];
  for (const node of nodes) {
    const type = node['@type'];
    const types = Array.isArray(type) ? type : [type];
    if (!types.includes('Person')) continue;
    const description = node['description'];
    if (typeof description !== 'string') continue;
    const text = description.replace(/\s+/g, ' ').trim();
    if (text.length >= BIO_MIN) bios.push(text);
  }
  return bios;
}

/**
 * The page's author names from its metadata (`author`: a string or a list), those that read as a person's name:
 * two to four words, no address or handle ("https://…", "@desk") and no "By" left before it.
 */
export function authorNames(author: unknown): string[] {
  const names: string[] = [];
  for (const value of Array.isArray(author) ? author : [author]) {
    if (typeof value !== 'string') continue;
    const name = value.replace(/\s+/g, ' ').trim().replace(/^by\s+/i, '');
    if (PERSON_NAME.test(name)) names.push(name);
  }
  return names;
}

/** A person's name: two to four words of letters (initials, hyphens and apostrophes inside). */
const PERSON_NAME = /^\p{L}[\p{L}.'’-]*(?:\s+\p{L}[\p{L}.'’-]*){1,3}$/u;

/** Removes author boxes from `root` (in place): the elements holding a biography, with the box around them. */
export function removeAuthorBoxes(root: DomElement, biographies: string[], authors: readonly string[] = []): void {
  const total = normalisedLength(root);
  if (total === 0) return;
  const prefixes = biographies.map((bio) => bio.slice(0, BIO_PREFIX).toLowerCase());
  const marked = [...root.querySelectorAll('[itemtype*="schema.org/Person" i] [itemprop="description"], .h-card .p-note, .vcard .note')];
  const found = new Set<DomElement>(marked);
  if (prefixes.length > 0) {
    for (const element of root.querySelectorAll('p, div')) {
      const text = normalisedText(element).toLowerCase();
      if (text.length > BIO_PREFIX * 20 || !prefixes.some((prefix) => text.includes(prefix))) continue;
      // The smallest element holding it.
      if ([...element.querySelectorAll('p, div')].some((inner) => prefixes.some((prefix) => normalisedText(inner).toLowerCase().includes(prefix)))) continue;
      found.add(element);
    }
  }
  const starts = textStarts(root);
  const paragraphs = leafParagraphs(root, starts);
  for (const bio of withoutPeopleSections(unmarkedBiographies(paragraphs, total), root, starts)) found.add(bio);
  for (const bio of namedBiographies(paragraphs, total, authors)) found.add(bio);
  for (const bio of found) {
    if (bio.parentNode === null) continue;
    const bioLength = normalisedLength(bio);
    let box = bio;
    for (let parent = bio.parentElement; parent !== null && parent !== root && !KEEP_TAGS.has(tagOf(parent)); parent = parent.parentElement) {
      if (normalisedLength(parent) > bioLength + BOX_EXTRA) break;
      box = parent;
    }
    if (normalisedLength(box) < total * MAX_SHARE) box.remove();
  }
}

/** A biography opens with a name of two to four capitalised words, then says who the person is. */
const BIO_OPENING = /^((?:\p{Lu}[\p{L}.'’-]*\s+){1,3}\p{Lu}[\p{L}.'’-]*),?\s+(?:is|was|has been|serves as|works as|joined)\s/u;
/** What a biography says next to the author's name: who the person is, was or has been. */
const BIO_VERB = String.raw`(?:is|was|has|serves|works|joined|writes|covers|studied|holds|leads|specializes|specialises)`;
/** A biography is at most this long (characters). */
const BIO_MAX = 1200;
/** Unmarked boxes are looked for in the last part of the content only, from this share of its text on. */
const BIO_START_SHARE = 2 / 3;
/** More paragraphs of this shape than this are the article's own (a list of people), not author boxes. */
const MAX_UNMARKED = 3;

/** A box of an author's shape (wherever it is in the content), and the name its biography opens with. */
interface NamedBox {
  box: DomElement;
  name: string;
  /** In the last third of the content, where an author's box is looked for. */
  late: boolean;
}

/** A paragraph holding no block of its own, where its text starts in the content's (white space collapsed), and its text. */
interface LeafParagraph {
  element: DomElement;
  start: number;
  text: string;
}

/** Where each element's text starts in the content's text (white space collapsed). */
function textStarts(root: DomElement): Map<DomElement, number> {
  let offset = 0;
  const starts = new Map<DomElement, number>();
  const walk = (element: DomElement) => {
    starts.set(element, offset);
    for (let child = element.firstChild; child !== null; child = child.nextSibling) {
      if (isElement(child)) walk(child);
      else offset += (child.textContent ?? '').replace(/\s+/g, ' ').length;
    }
  };
  walk(root);
  return starts;
}

/** The content's leaf paragraphs (`p`, `div`) in page order, read once for both kinds of biography below. */
function leafParagraphs(root: DomElement, starts: ReadonlyMap<DomElement, number>): LeafParagraph[] {
  const paragraphs: LeafParagraph[] = [];
  for (const element of root.querySelectorAll('p, div')) {
    if (element.querySelector('p, div, ul, ol, table, h1, h2, h3, h4, h5, h6') !== null) continue;
    paragraphs.push({ element, start: starts.get(element) ?? 0, text: normalisedText(element) });
  }
  return paragraphs;
}

/**
 * Paragraphs of biography in author boxes without markup: a paragraph opening with "<Name> is ...", in the last
 * third of the content, whose box (a small ancestor, or the element just before it) holds a picture and the same
 * name before it (the picture's alt text, a heading, a link), and no section heading. More than three paragraphs
 * opening so in the whole content are a list of people or companies, the article's own.
 */
function unmarkedBiographies(paragraphs: readonly LeafParagraph[], total: number): NamedBox[] {
  const found: NamedBox[] = [];
  // Every paragraph of that shape is counted, wherever it is: a list of people or companies has many.
  let shaped = 0;
  for (const { element, start, text } of paragraphs) {
    if (text.length < BIO_MIN || text.length > BIO_MAX) continue;
    const name = BIO_OPENING.exec(text)?.[1];
    if (name === undefined) continue;
    shaped++;
    const box = bioBox(element, name, text.length);
    if (box === null) continue;
    found.push({ box, name, late: start >= total * BIO_START_SHARE });
  }
  return shaped <= MAX_UNMARKED ? found : [];
}

/**
 * Words of a heading over the author's own box: "About the author", "Written by", "Our contributors". Broader than
 * boilerplate.ts's AUTHOR_HEADING, which removes the section under it: here, boxes under such a heading are still
 * taken for the author's.
 */
const SPEAKS_OF_AUTHOR = /\b(?:authors?|writers?|written|contributors?|editors?|bio|biography|about (?:me|us|the))\b/i;
/** Text allowed between a heading and the boxes it introduces (white space, a stray label), in characters. */
const HEADING_GAP = 40;

/**
 * The boxes found by their shape in the content's last third, less those a heading of the article introduces: a
 * team, the speakers of an event, a landing page's advisors ("Meet our training advisors", then a headshot, a name
 * and "Jane Doe is a marathoner…" for each) are the page's own text. Such a heading comes right before the first box
 * (nothing but boxes of that shape between it and each of them), and neither speaks of the author nor names the
 * person.
 */
function withoutPeopleSections(boxes: readonly NamedBox[], root: DomElement, starts: ReadonlyMap<DomElement, number>): DomElement[] {
  if (boxes.length === 0) return [];
  const headings = [...root.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((heading) => {
    const text = normalisedText(heading);
    return { text, end: (starts.get(heading) ?? 0) + text.length };
  });
  const spans = boxes.map(({ box, name, late }) => ({ box, name, late, start: starts.get(box) ?? 0, length: normalisedLength(box) }));
  return spans
    .filter(({ name, late, start }) => {
      if (!late) return false;
      const heading = headings.filter(({ end }) => end <= start).at(-1);
      if (heading === undefined || SPEAKS_OF_AUTHOR.test(heading.text) || heading.text.toLowerCase().includes(name.toLowerCase())) return true;
      const between = spans.filter((other) => other.start >= heading.end && other.start + other.length <= start).reduce((sum, other) => sum + other.length, 0);
      return start - heading.end - between > HEADING_GAP;
    })
    .map(({ box }) => box);
}

/**
 * Paragraphs in the last third of the content that open with the page's author's name (after an "About the
 * author" label) and say who the person is: the author's biography, with or without a box around it.
 */
function namedBiographies(paragraphs: readonly LeafParagraph[], total: number, authors: readonly string[]): DomElement[] {
  if (authors.length === 0) return [];
  const openings = authors.map((name) => new RegExp(`^(?:about the author:?\\s*)?${escapeRegExp(name)}(?:(?:,[^,.]{1,60}){1,2},)?\\s+${BIO_VERB}\\s`, 'iu'));
  return paragraphs
    .filter(({ start, text }) => start >= total * BIO_START_SHARE && text.length >= BIO_MIN && text.length <= BIO_MAX && openings.some((opening) => opening.test(text)))
    .map(({ element }) => element);
}

const namedBefore = (container: DomElement, bio: DomElement, name: string): boolean => {
  const lower = name.toLowerCase();
  for (const candidate of container.querySelectorAll('img, a, span, div, h4, h5, h6, strong, b')) {
    if (candidate === bio || isWithin(candidate, bio) || isWithin(bio, candidate)) continue;
    const label = tagOf(candidate) === 'img' ? candidate.getAttribute('alt') ?? '' : normalisedText(candidate);
    if (label.length <= name.length * 3 && label.toLowerCase().includes(lower)) return true;
  }
  return false;
};

/** The author box around a biography paragraph, or null when it has no picture and name of its own. */
function bioBox(bio: DomElement, name: string, bioLength: number): DomElement | null {
  const previous = previousElement(bio);
  const headshot = previous?.querySelector('img') ?? null;
  if (previous !== null && headshot !== null && normalisedLength(previous) === 0 && (headshot.getAttribute('alt') ?? '').toLowerCase().includes(name.toLowerCase())) {
    // The picture in a paragraph of its own just before the biography: the biography goes, and the picture
    // (a headshot) is no text.
    return bio;
  }
  for (let parent = bio.parentElement, level = 0; parent !== null && level < 4 && !KEEP_TAGS.has(tagOf(parent)); parent = parent.parentElement, level++) {
    if (normalisedLength(parent) > bioLength + BOX_EXTRA) break;
    if (parent.querySelector('h1, h2, h3') !== null) break;
    if (parent.querySelector('img') !== null && namedBefore(parent, bio, name)) return parent;
  }
  return null;
}

function previousElement(element: DomElement): DomElement | null {
  for (let node = element.previousSibling; node !== null; node = node.previousSibling) {
    if (isElement(node)) return node;
    if ((node.textContent ?? '').trim() !== '') return null;
  }
  return null;
}

function isWithin(element: DomElement, ancestor: DomElement): boolean {
  for (let node = element.parentElement; node !== null; node = node.parentElement) if (node === ancestor) return true;
  return false;
}
