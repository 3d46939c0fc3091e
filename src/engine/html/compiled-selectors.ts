/**
 * linkedom compiles a CSS selector (css-select: parse, then a closure per compound) on every querySelector,
 * querySelectorAll and closest call, and the HTML path asks the same few dozen selectors of every page: compiling
 * them was a tenth of the engine's time on small pages (1,000 pages of 2 KB, 6.6 % less CPU with each compiled once).
 * So those three methods keep what they compiled, by selector and by the document's case rule, and walk the tree
 * as linkedom does. A selector with `:scope` is compiled against its element, as before. The change is made once,
 * at load, and only when linkedom is built the way it was read here (the version is pinned, its tree's links found
 * on a node of a parsed page); otherwise nothing changes.
 */
import { compile } from 'css-select';
import { parseHTML } from 'linkedom';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** A node as linkedom builds it: its tree is a linked list, each element's end marked by a node of its own. */
interface LinkedNode {
  [link: symbol]: LinkedNode;
  nodeType: number;
  localName: string;
  parentNode: LinkedNode | null;
  parentElement: LinkedNode | null;
  childNodes: LinkedNode[];
  ownerDocument: LinkedNode;
  data?: string;
  getAttribute(name: string): string | null;
  getAttributeNode(name: string): { value: string } | null;
  hasAttribute(name: string): boolean;
}

type Matcher = (element: LinkedNode) => boolean;

/** css-select's view of linkedom's nodes, as linkedom's own (shared/matches.js) gives it. */
function adapterFor(ignoresCase: (element: LinkedNode) => boolean) {
  const isTag = (node: LinkedNode): node is LinkedNode => node.nodeType === ELEMENT_NODE;
  const getChildren = (node: LinkedNode) => node.childNodes;
  const existsOne = (test: Matcher, elements: LinkedNode[]): boolean => elements.some((element) => isTag(element) && (test(element) || existsOne(test, getChildren(element))));
  const getText = (node: LinkedNode | LinkedNode[]): string => {
    if (Array.isArray(node)) return node.map(getText).join('');
    if (node.nodeType === ELEMENT_NODE) return getText(getChildren(node));
    return node.nodeType === TEXT_NODE ? (node.data ?? '') : '';
  };
  const findAll = (test: Matcher, nodes: LinkedNode[]): LinkedNode[] => {
    const found: LinkedNode[] = [];
    for (const node of nodes) {
      if (!isTag(node)) continue;
      if (test(node)) found.push(node);
      found.push(...findAll(test, getChildren(node)));
    }
    return found;
  };
  const findOne = (test: Matcher, nodes: LinkedNode[]): LinkedNode | null => {
    for (const node of nodes) {
      if (test(node)) return node;
      const inner = findOne(test, getChildren(node));
      if (inner) return inner;
    }
    return null;
  };
  const removeSubsets = (nodes: LinkedNode[]) => {
    let { length } = nodes;
    while (length--) {
      const node = nodes[length]!;
      if (length && nodes.lastIndexOf(node, length - 1) > -1) {
        nodes.splice(length, 1);
        continue;
      }
      for (let { parentNode } = node; parentNode; parentNode = parentNode.parentNode) {
        if (nodes.includes(parentNode)) {
          nodes.splice(length, 1);
          break;
        }
      }
    }
    return nodes;
  };
  return {
    isTag,
    existsOne,
    // css-select tests values against null loosely: a missing attribute is undefined here, null in linkedom's.
    getAttributeValue: (element: LinkedNode, name: string) => (name === 'class' ? element.getAttributeNode('class')?.value : element.getAttribute(name)) ?? undefined,
    getChildren,
    getName: (element: LinkedNode) => (ignoresCase(element) ? element.localName.toLowerCase() : element.localName),
    getParent: (node: LinkedNode) => node.parentNode,
    getSiblings: (node: LinkedNode) => (node.parentNode ? getChildren(node.parentNode) : [node]),
    getText,
    hasAttrib: (element: LinkedNode, name: string) => element.hasAttribute(name),
    removeSubsets,
    findAll,
    findOne,
  };
}

/** A symbol a node of a parsed page owns, by its description. */
function ownSymbol(node: object, description: string): symbol | undefined {
  return Object.getOwnPropertySymbols(node).find((symbol) => symbol.description === description);
}

/** The prototype up `object`'s chain that defines `name` itself. */
function owner(object: object, name: string): Record<string, unknown> | undefined {
  for (let at: object | null = object; at; at = Object.getPrototypeOf(at) as object | null) {
    if (Object.prototype.hasOwnProperty.call(at, name)) return at as Record<string, unknown>;
  }
  return undefined;
}

function install(): boolean {
  const { document } = parseHTML('<html><body><p></p></body></html>') as unknown as { document: LinkedNode & { querySelector(s: string): LinkedNode; querySelectorAll(s: string): unknown } };
  const element = document.querySelector('p');
  const NEXT = ownSymbol(element, 'next');
  const END = ownSymbol(element, 'end');
  const MIME = ownSymbol(document, 'mime');
  const parentNode = owner(element, 'querySelectorAll');
  const elementClass = owner(element, 'closest');
  // A document's own methods walk from its first node through ParentNode's (interface/document.js).
  const documentQuery = owner(document, 'querySelectorAll')?.querySelectorAll;
  const delegates = documentQuery === parentNode?.querySelectorAll || String(documentQuery).includes('super.querySelectorAll');
  if (!NEXT || !END || !MIME || !parentNode || !elementClass || !delegates) return false;
  const NodeList = (document.querySelectorAll('p') as object).constructor as new () => LinkedNode[];
  const ignoresCase = (node: LinkedNode) => (node.ownerDocument as unknown as Record<symbol, { ignoreCase: boolean }>)[MIME]!.ignoreCase;
  const adapter = adapterFor(ignoresCase);
  const compiled = new Map<string, Matcher>();
  const matcherFor = (context: LinkedNode, selectors: string): Matcher => {
    const xmlMode = !ignoresCase(context);
    if (selectors.includes(':scope')) return compile(selectors, { context, xmlMode, adapter }) as Matcher;
    const key = `${xmlMode ? 'x' : 'h'}${selectors}`;
    let matcher = compiled.get(key);
    if (!matcher) compiled.set(key, (matcher = compile(selectors, { xmlMode, adapter }) as Matcher));
    return matcher;
  };
  // linkedom's walk: the nodes after `root` up to its end, a template's content skipped.
  const following = (node: LinkedNode) => (node.nodeType === ELEMENT_NODE && node.localName === 'template' ? node[END]! : node[NEXT]!);
  parentNode.querySelector = function querySelector(this: LinkedNode, selectors: string) {
    const matches = matcherFor(this, selectors);
    const end = this[END];
    for (let next = this[NEXT]!; next !== end; next = following(next)) if (next.nodeType === ELEMENT_NODE && matches(next)) return next;
    return null;
  };
  parentNode.querySelectorAll = function querySelectorAll(this: LinkedNode, selectors: string) {
    const matches = matcherFor(this, selectors);
    const elements = new NodeList();
    const end = this[END];
    for (let next = this[NEXT]!; next !== end; next = following(next)) if (next.nodeType === ELEMENT_NODE && matches(next)) elements.push(next);
    return elements;
  };
  elementClass.closest = function closest(this: LinkedNode, selectors: string) {
    const matches = matcherFor(this, selectors);
    if (matches(this)) return this;
    let at = this.parentElement;
    while (at && !matches(at)) at = at.parentElement;
    return at;
  };
  return true;
}

install();
