/**
 * A small element tree over fast-xml-parser's ordered output, for the slide converters: documents are read in
 * order (runs in a paragraph, shapes in a tree), elements are matched by local name (OOXML Transitional and Strict,
 * and odd generators, differ in prefixes), attributes are kept with their qualified names (ODF reuses local names
 * across namespaces: `draw:style-name`, `presentation:style-name`) and looked up either way.
 *
 * A document nested deeper than MAX_XML_DEPTH does not parse (null): a hostile file cannot make a walk recurse
 * without bound. Entities are decoded here, not by the parser (the five XML ones and numeric references; a
 * DOCTYPE's own entities are never expanded), which also makes parsing about three times faster.
 */
import { XMLParser } from 'fast-xml-parser';

export const MAX_XML_DEPTH = 256;

export interface XmlElement {
  /** Local name, prefix removed: `sp`, `frame`. */
  name: string;
  /** Qualified name as written: `p:sp`, `draw:frame`. */
  qname: string;
  /** By qualified name. */
  attributes: Readonly<Record<string, string>>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_XML_DEPTH,
  // Callbacks get the path matcher rather than a path string built for every value.
  jPath: false,
});

type OrderedNode = Record<string, unknown>;

/** The document element of an XML text, or null when the text is not well-formed enough to read. */
export function parseXml(text: string): XmlElement | null {
  let parsed: unknown;
  try {
    parsed = parser.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  for (const node of parsed as OrderedNode[]) {
    const element = toElement(node, 0);
    if (typeof element !== 'string' && element !== null) return element;
  }
  return null;
}

function toElement(node: OrderedNode, depth: number): XmlNode | null {
  const qname = Object.keys(node).find((key) => key !== ':@');
  if (qname === undefined) return null;
  const value = node[qname];
  if (qname === '#text') return decodeEntities(typeof value === 'string' ? value : String(value ?? ''));
  if (qname.startsWith('?') || qname === '#comment') return null;
  const rawAttributes = (node[':@'] ?? {}) as Record<string, unknown>;
  const attributes: Record<string, string> = {};
  for (const [key, attribute] of Object.entries(rawAttributes)) attributes[key] = decodeEntities(String(attribute));
  const children: XmlNode[] = [];
  if (Array.isArray(value) && depth < MAX_XML_DEPTH) {
    for (const child of value as OrderedNode[]) {
      const converted = toElement(child, depth + 1);
      if (converted !== null) children.push(converted);
    }
  }
  return { name: localName(qname), qname, attributes, children };
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:#x([0-9a-f]{1,6})|#(\d{1,7})|(lt|gt|amp|quot|apos));/gi, (match, hex: string | undefined, decimal: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? match;
    const code = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

export function localName(qname: string): string {
  const colon = qname.indexOf(':');
  return colon < 0 ? qname : qname.slice(colon + 1);
}

/** Child elements, optionally only those with the given local name(s). */
export function elements(parent: XmlElement | undefined | null, ...names: string[]): XmlElement[] {
  if (!parent) return [];
  const result: XmlElement[] = [];
  for (const child of parent.children) {
    if (typeof child !== 'string' && (names.length === 0 || names.includes(child.name))) result.push(child);
  }
  return result;
}

/** The first child element with the given local name. */
export function child(parent: XmlElement | undefined | null, name: string): XmlElement | undefined {
  if (!parent) return undefined;
  for (const node of parent.children) if (typeof node !== 'string' && node.name === name) return node;
  return undefined;
}

/** Follows a path of local names through first children: `path(sp, 'nvSpPr', 'nvPr', 'ph')`. */
export function path(parent: XmlElement | undefined | null, ...names: string[]): XmlElement | undefined {
  let current: XmlElement | undefined = parent ?? undefined;
  for (const name of names) {
    current = child(current, name);
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * An attribute by qualified name (`svg:x`) or, when no exact match exists, by local name (`x`, whatever the prefix).
 */
export function attr(element: XmlElement | undefined | null, name: string): string | undefined {
  if (!element) return undefined;
  const exact = element.attributes[name];
  if (exact !== undefined) return exact;
  const local = localName(name);
  for (const [key, value] of Object.entries(element.attributes)) if (localName(key) === local) return value;
  return undefined;
}

/** Depth-first descendants with one of the local names (not descending into a match), up to the depth cap. */
export function descendants(parent: XmlElement | undefined | null, ...names: string[]): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (element: XmlElement, depth: number) => {
    if (depth > MAX_XML_DEPTH) return;
    for (const node of element.children) {
      if (typeof node === 'string') continue;
      if (names.includes(node.name)) found.push(node);
      else walk(node, depth + 1);
    }
  };
  if (parent) walk(parent, 0);
  return found;
}

/** All the text under an element, in order. */
export function textContent(element: XmlElement | undefined | null): string {
  if (!element) return '';
  let text = '';
  const walk = (node: XmlElement, depth: number) => {
    if (depth > MAX_XML_DEPTH) return;
    for (const item of node.children) {
      if (typeof item === 'string') text += item;
      else walk(item, depth + 1);
    }
  };
  walk(element, 0);
  return text;
}
