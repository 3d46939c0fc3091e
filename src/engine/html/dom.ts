/**
 * The slice of the DOM the HTML path uses, typed here because the project compiles without the DOM lib (linkedom's
 * own types resolve to `any` there). linkedom implements all of it.
 */
import { parseHTML } from 'linkedom';
// Before any page is parsed: linkedom's nodes start without a listener table (listenerless-nodes.ts), and its
// selectors are compiled once each (compiled-selectors.ts).
import './listenerless-nodes.js';
import './compiled-selectors.js';
import { isWhitespaceCode } from '../../common/whitespace.js';
import { capDepth } from './depth-cap.js';
import { withinParseDepth } from './tag-depth.js';

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const COMMENT_NODE = 8;
const DOCUMENT_FRAGMENT_NODE = 11;

export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly parentNode: DomNode | null;
  readonly parentElement: DomElement | null;
  readonly childNodes: ArrayLike<DomNode> & Iterable<DomNode>;
  readonly firstChild: DomNode | null;
  readonly lastChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly previousSibling: DomNode | null;
  readonly ownerDocument: DomDocument | null;
  textContent: string | null;
  cloneNode(deep?: boolean): DomNode;
  remove(): void;
  appendChild<T extends DomNode>(node: T): T;
  insertBefore<T extends DomNode>(node: T, before: DomNode | null): T;
  removeChild<T extends DomNode>(node: T): T;
  replaceWith(...nodes: DomNode[]): void;
  /** Joins adjacent text nodes and drops empty ones, below this node. */
  normalize(): void;
}

export interface DomAttribute {
  readonly name: string;
  readonly value: string;
}

export interface DomElement extends DomNode {
  readonly tagName: string;
  readonly localName: string;
  readonly children: ArrayLike<DomElement> & Iterable<DomElement>;
  readonly firstElementChild: DomElement | null;
  readonly nextElementSibling: DomElement | null;
  readonly attributes: ArrayLike<DomAttribute> & Iterable<DomAttribute>;
  innerHTML: string;
  readonly outerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement> & Iterable<DomElement>;
  getElementsByTagName(name: string): ArrayLike<DomElement> & Iterable<DomElement>;
  matches(selector: string): boolean;
  closest(selector: string): DomElement | null;
  append(...nodes: (DomNode | string)[]): void;
  replaceChildren(...nodes: DomNode[]): void;
}

export interface DomDocument extends DomNode {
  readonly documentElement: DomElement | null;
  readonly head: DomElement | null;
  readonly body: DomElement | null;
  title: string;
  createElement(tagName: string): DomElement;
  createTextNode(data: string): DomNode;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement> & Iterable<DomElement>;
  getElementsByTagName(name: string): ArrayLike<DomElement> & Iterable<DomElement>;
  toString(): string;
}

/**
 * Parses markup as an HTML document (XHTML too: HTML parsing keeps tag names upper-case, as turndown expects).
 *
 * linkedom builds the tree as written, without HTML's implied elements: a fragment's first element would become
 * the document element. So markup lacking `<html>` or `<body>` gets them added first, the way a browser would
 * infer them.
 */
export function parseDocument(markup: string): DomDocument {
  const html = withinParseDepth(withoutStrayCdata(markup));
  const parsed = tryParse(withDocumentSkeleton(html));
  if (parsed !== null) return parsed;
  // Last resort: the markup as the body of an empty document.
  return tryParse(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`) ?? (tryParse('<html><head></head><body></body></html>') as DomDocument);
}

/**
 * A `<![CDATA[` section is markup only in SVG and MathML; in HTML a browser ends it at the next `>` as a bogus
 * comment. linkedom's parser reads it to its `]]>`, so one stray opener left by a template before the page's
 * markup turns the whole body into a comment. An opener whose section holds markup (a `<` before its `]]>`, or no
 * `]]>` at all) is dropped; a closed section of text (an SVG label, a style sheet) is left to the parser.
 */
function withoutStrayCdata(html: string): string {
  return html.includes('<![CDATA[') ? html.replace(/<!\[CDATA\[(?![^<]*\]\]>)/g, '') : html;
}

function tryParse(html: string): DomDocument | null {
  try {
    const document = (parseHTML(html) as unknown as { document: DomDocument }).document;
    const root = document.documentElement;
    if (root === null || root.localName.toLowerCase() !== 'html' || document.body === null) return null;
    gatherStrayBodyContent(document);
    capDepth(document, html);
    unwrapNestedDocuments(document.body as DomElement);
    return document;
  } catch {
    return null;
  }
}

/**
 * linkedom keeps what follows `</body>` (content after a stray `</body>`, a second `<body>`) as siblings of the
 * body, and what follows `</html>` (a template that closed the page early and went on) as siblings of the root,
 * where a browser puts both inside the body: it is moved into the body, a second body's children with it.
 */
function gatherStrayBodyContent(document: DomDocument): void {
  const body = document.body as DomElement;
  const root = document.documentElement as DomElement;
  const stray: DomNode[] = [];
  for (let node = body.nextSibling; node !== null; node = node.nextSibling) stray.push(node);
  for (let node = root.nextSibling; node !== null; node = node.nextSibling) stray.push(node);
  for (const node of stray) {
    const tag = isElement(node) ? node.localName.toLowerCase() : '';
    if (tag === 'body' || tag === 'html') {
      // A second page's head adds nothing to the body; its body's children (or its own) join it.
      const from = tag === 'html' ? ([...elementChildren(node as DomElement)].find((child) => tagOf(child) === 'body') ?? node) : node;
      const children: DomNode[] = [];
      for (let child = from.firstChild; child !== null; child = child.nextSibling) {
        if (!(isElement(child) && tagOf(child) === 'head')) children.push(child);
      }
      body.append(...children);
      node.remove();
    } else {
      body.append(node);
    }
  }
}

/**
 * A page whose blocks were pasted in as whole documents (a CMS block holding `<html><head>…</head><body>…`): a
 * browser ignores the inner `<html>`, `<head>` and `<body>` tags and reads their content as part of the body where
 * it stands; linkedom keeps them as elements, and readability then weighs each block as a page of its own and keeps
 * one. They are unwrapped in place, their children staying where they are.
 */
function unwrapNestedDocuments(body: DomElement): void {
  if (!body.querySelector('html, head, body')) return;
  for (const element of [...body.querySelectorAll('html, head, body')]) {
    const parent = element.parentNode;
    if (parent === null) continue;
    while (element.firstChild !== null) parent.insertBefore(element.firstChild, element);
    element.remove();
  }
}

const PROLOG = /^(?:\uFEFF)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!doctype[^>]*>\s*)?/i;

function withDocumentSkeleton(html: string): string {
  const hasHtml = /<html[\s>]/i.test(html);
  const hasBody = /<body[\s>]/i.test(html);
  if (hasHtml && hasBody) return html;
  if (!hasHtml) {
    const prolog = PROLOG.exec(html)?.[0] ?? '';
    const content = html.slice(prolog.length);
    if (hasBody) return `${prolog}<html>${content}</html>`;
    // Head elements written before the content stay in the head.
    const head = /^(?:\s*(?:<(?:title)\b[\s\S]*?<\/title>|<(?:meta|link|base)\b[^>]*>|<head\b[^>]*>[\s\S]*?<\/head>))*/i.exec(content)?.[0] ?? '';
    const headContent = head.replace(/<\/?head\b[^>]*>/gi, '');
    return `${prolog}<html><head>${headContent}</head><body>${content.slice(head.length)}</body></html>`;
  }
  // <html> without <body>: open it after the head (or the html tag), close it before </html>.
  const headEnd = /<\/head\s*>/i.exec(html);
  const htmlOpen = /<html\b[^>]*>/i.exec(html) as RegExpExecArray;
  const insertAt = headEnd !== null ? headEnd.index + headEnd[0].length : htmlOpen.index + htmlOpen[0].length;
  const closing = html.search(/<\/html\s*>/i);
  const bodyEnd = closing >= insertAt ? closing : html.length;
  return `${html.slice(0, insertAt)}<body>${html.slice(insertAt, bodyEnd)}</body>${html.slice(bodyEnd)}`;
}

export function isElement(node: DomNode | null | undefined): node is DomElement {
  return node !== null && node !== undefined && node.nodeType === ELEMENT_NODE;
}

export function isText(node: DomNode | null | undefined): boolean {
  return node !== null && node !== undefined && node.nodeType === TEXT_NODE;
}

/** Lower-case tag name of an element. */
export function tagOf(element: DomElement): string {
  return element.localName.toLowerCase();
}

/** Element children, in order, walking siblings (cheap on linkedom, where `children` builds an array). */
export function* elementChildren(parent: DomNode): Generator<DomElement> {
  for (let node = parent.firstChild; node !== null; ) {
    const next = node.nextSibling;
    if (isElement(node)) yield node;
    node = next;
  }
}

/** Every node under `root` in document order (root excluded); safe against removal of the node just yielded. */
export function* descendants(root: DomNode): Generator<DomNode> {
  const stack: DomNode[] = [];
  for (let child = root.lastChild; child !== null; child = child.previousSibling) stack.push(child);
  while (stack.length > 0) {
    const node = stack.pop() as DomNode;
    yield node;
    for (let child = node.lastChild; child !== null; child = child.previousSibling) stack.push(child);
  }
}

/**
 * A deep copy of a document, for code that rewrites the tree it is given (readability). Cloning the nodes costs a
 * fraction of serialising and parsing the document again; the copies are then made to belong to the new document,
 * as a parsed copy's would (linkedom's clone leaves them with the original's).
 */
export function copyDocument(document: DomDocument): DomDocument {
  const copy = document.cloneNode(true) as DomDocument;
  for (const node of descendants(copy)) (node as { ownerDocument: DomDocument | null }).ownerDocument = copy;
  return copy;
}

/** Text with runs of whitespace collapsed and trimmed. */
export function normalisedText(node: DomNode): string {
  return (node.textContent ?? '').replace(/\s+/g, ' ').trim();
}

const CDATA_SECTION_NODE = 4;

/**
 * `normalisedText(node).length`, without making the text: main-content extraction weighs the body and its large
 * containers by their text many times, and a page of megabytes then made and dropped copies of it each time (most
 * of such a page's time went to collecting them).
 */
export function normalisedLength(node: DomNode): number {
  let length = 0;
  let started = false;
  let space = false;
  const count = (data: string): void => {
    for (let i = 0; i < data.length; i++) {
      if (isWhitespaceCode(data.charCodeAt(i))) {
        space = started;
      } else {
        length += space ? 2 : 1;
        started = true;
        space = false;
      }
    }
  };
  // An element's (a fragment's) text is its text nodes' (CDATA's too), as linkedom's textContent joins them.
  if (node.nodeType !== ELEMENT_NODE && node.nodeType !== DOCUMENT_FRAGMENT_NODE) count(node.textContent ?? '');
  else for (const inner of descendants(node)) if (inner.nodeType === TEXT_NODE || inner.nodeType === CDATA_SECTION_NODE) count(inner.textContent ?? '');
  return length;
}

/** The length of the nodes' normalised texts together. */
export function textLengthOf(nodes: Iterable<DomNode>): number {
  let length = 0;
  for (const node of nodes) length += normalisedLength(node);
  return length;
}

/** The length of the text of the links inside an element. */
export function linkTextLength(element: DomElement): number {
  return textLengthOf(element.querySelectorAll('a'));
}

/** querySelectorAll that reports an invalid selector instead of throwing. */
export function selectAll(root: DomElement | DomDocument, selector: string): DomElement[] | Error {
  try {
    return [...root.querySelectorAll(selector)];
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Inline elements: set in a line of text, not blocks of their own. */
const INLINE_TAGS = new Set(['a', 'span', 'em', 'strong', 'b', 'i', 'u', 'small', 'abbr', 'cite', 'mark', 'time', 'sup', 'sub']);
/** A sentence around an inline element holds at least this much text of its parent's own (characters). */
const SENTENCE_AROUND_MIN = 30;

/**
 * Whether an inline element is words of a sentence of its paragraph (a link, an emphasis inside the text): what
 * it says or what its class names is part of the sentence, not a block of the page's own.
 */
export function isWordsOfASentence(element: DomElement): boolean {
  const parent = element.parentElement;
  if (!INLINE_TAGS.has(tagOf(element)) || parent === null) return false;
  // The sentence around it: the parent's text outside links (a share bar's other links are no sentence), whether
  // set loose or in spans and emphases of its own.
  let around = '';
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node === element) continue;
    if (isText(node)) around += node.textContent ?? '';
    else if (isElement(node) && INLINE_TAGS.has(tagOf(node)) && tagOf(node) !== 'a' && node.querySelector('a') === null) around += node.textContent ?? '';
  }
  return around.replace(/\s+/g, ' ').trim().length >= SENTENCE_AROUND_MIN;
}
