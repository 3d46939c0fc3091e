/**
 * A page nested thousands of elements deep (a legacy page's unclosed `<font>` or `<b>` tags, one per line; a
 * generator that never closes its `<div>`s) is read flatter, as browsers read it: Chromium's parser puts an element
 * deeper than 512 beside its ancestors rather than inside (docmill's cap, `MAX_DEPTH`, is lower). linkedom builds
 * the tree as written, and the converter's walks over it are recursive and measure each element's text: 30,000
 * unclosed tags overflowed the stack, or took past the request's timeout.
 *
 * Here an element at the cap keeps its content in reading order but not its nesting: everything inside it becomes
 * its direct children (text, and elements that hold nothing such as images and line breaks), and each block that
 * was unwrapped leaves a line break where it began and ended, so its lines stay apart. Words and their order are
 * kept; the formatting of text nested past the cap is not.
 */
import type { DomDocument, DomElement, DomNode } from './dom.js';

const ELEMENT_NODE = 1;

function isElement(node: DomNode): node is DomElement {
  return node.nodeType === ELEMENT_NODE;
}

function tagOf(element: DomElement): string {
  return element.localName.toLowerCase();
}

/**
 * Four times the depth past which Lighthouse calls a page's DOM excessive (32), below Chromium's 512: the
 * converter's walks cost the depth times the content, and 30,000 unclosed tags at 512 still took 13 s (4.6 at 128).
 */
export const MAX_DEPTH = 128;

/** Elements whose content starts a line of its own: unwrapped, they leave a line break on each side. */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure',
  'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section',
  'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
]);

/** Documents that `capDepth` flattened, for the converter's warning. */
const flattened = new WeakSet<DomDocument>();

/** The warning a flattened document's result carries. */
export const FLATTENED_WARNING = `elements nested deeper than ${MAX_DEPTH} levels were read as text of their enclosing element`;

/** Whether `capDepth` flattened part of `document`. */
export function wasFlattened(document: DomDocument): boolean {
  return flattened.has(document);
}

/**
 * Whether markup holds more than `count` tags, so that it may nest `count` deep: a count of `<`, so that most pages
 * are never walked for their depth.
 */
function hasMoreTagsThan(markup: string, count: number): boolean {
  let tags = 0;
  for (let at = markup.indexOf('<'); at !== -1; at = markup.indexOf('<', at + 1)) if (++tags > count) return true;
  return false;
}

/** The content of `element`'s subtree in reading order, with a `<br>` where an unwrapped block began and ended. */
function flattenedContent(element: DomElement, document: DomDocument): DomNode[] {
  const content: DomNode[] = [];
  const lineBreak = (): void => {
    const last = content[content.length - 1];
    if (last === undefined || (isElement(last) && tagOf(last) === 'br')) return;
    content.push(document.createElement('br'));
  };
  // Nodes to visit, and the blocks whose end comes once their children are done (marked by `end`).
  const stack: ({ node: DomNode; end: false } | { node: DomElement; end: true })[] = [];
  for (let child = element.lastChild; child !== null; child = child.previousSibling) stack.push({ node: child, end: false });
  while (stack.length > 0) {
    const { node, end } = stack.pop() as (typeof stack)[number];
    if (end) {
      lineBreak();
      continue;
    }
    if (!isElement(node) || node.firstChild === null) {
      content.push(node);
      continue;
    }
    const block = BLOCK_TAGS.has(tagOf(node));
    if (block) {
      lineBreak();
      stack.push({ node, end: true });
    }
    for (let child = node.lastChild; child !== null; child = child.previousSibling) stack.push({ node: child, end: false });
  }
  return content;
}

/**
 * Flattens every element at depth `MAX_DEPTH` (the document's root at depth 1) that has elements inside it, in
 * place. `markup` is what the document was parsed from: short of `MAX_DEPTH` tags, the tree is not walked.
 */
export function capDepth(document: DomDocument, markup: string): void {
  const root = document.documentElement;
  if (root === null || !hasMoreTagsThan(markup, MAX_DEPTH)) return;
  const stack: { element: DomElement; depth: number }[] = [{ element: root, depth: 1 }];
  while (stack.length > 0) {
    const { element, depth } = stack.pop() as (typeof stack)[number];
    if (depth === MAX_DEPTH) {
      let nested = false;
      for (let child = element.firstChild; child !== null && !nested; child = child.nextSibling) nested = isElement(child) && child.firstChild !== null;
      if (nested) {
        const content = flattenedContent(element, document);
        // One by one: as the arguments of one call, a page's hundred thousand nodes overflow the stack.
        element.replaceChildren();
        for (const node of content) element.appendChild(node);
        flattened.add(document);
      }
      continue;
    }
    for (let child = element.lastChild; child !== null; child = child.previousSibling) {
      if (isElement(child)) stack.push({ element: child, depth: depth + 1 });
    }
  }
}
