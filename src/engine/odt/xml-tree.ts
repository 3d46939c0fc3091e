/**
 * OpenDocument XML as a small ordered tree (elements and text in document order), namespace prefixes removed
 * (`text:p` → `p`, `table:number-columns-spanned` → `number-columns-spanned`): ODF element and attribute local
 * names do not collide where this converter reads them, and producers are free to choose other prefixes.
 *
 * Nesting deeper than MAX_XML_DEPTH is refused by the parser, which bounds every recursive walk over the tree.
 */
import { XMLParser } from 'fast-xml-parser';

export const MAX_XML_DEPTH = 256;

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Character references (&#233;) are decoded only with this on.
  htmlEntities: true,
  maxNestedTags: MAX_XML_DEPTH,
});

export class XmlTooDeepError extends Error {}

/** The root element of an XML document (null when there is none). Throws on malformed XML. */
export function parseXml(xml: string): XmlElement | null {
  let parsed: unknown;
  try {
    parsed = parser.parse(xml);
  } catch (error) {
    if (error instanceof Error && /nested tags/i.test(error.message)) throw new XmlTooDeepError(`XML nested deeper than ${MAX_XML_DEPTH} levels`);
    throw error;
  }
  for (const node of toNodes(parsed)) if (typeof node !== 'string') return node;
  return null;
}

function toNodes(raw: unknown): XmlNode[] {
  if (!Array.isArray(raw)) return [];
  const nodes: XmlNode[] = [];
  for (const entry of raw as Record<string, unknown>[]) {
    let name: string | undefined;
    for (const key of Object.keys(entry)) if (key !== ':@') name = key;
    if (name === undefined || name.startsWith('?')) continue;
    if (name === '#text') {
      const text = entry['#text'];
      if (typeof text === 'string' && text !== '') nodes.push(text);
      else if (typeof text === 'number') nodes.push(String(text));
      continue;
    }
    const attrs: Record<string, string> = {};
    const rawAttrs = entry[':@'];
    if (typeof rawAttrs === 'object' && rawAttrs !== null) {
      for (const [key, value] of Object.entries(rawAttrs as Record<string, unknown>)) {
        if (key.startsWith('@_')) attrs[key.slice(2)] = String(value);
      }
    }
    nodes.push({ name, attrs, children: toNodes(entry[name]) });
  }
  return nodes;
}

export function isElement(node: XmlNode | undefined): node is XmlElement {
  return typeof node === 'object';
}

/** Child elements, optionally only those with the given local name. */
export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter((child): child is XmlElement => isElement(child) && (name === undefined || child.name === name));
}

export function firstChild(element: XmlElement | undefined, name: string): XmlElement | undefined {
  if (element === undefined) return undefined;
  for (const child of element.children) if (isElement(child) && child.name === name) return child;
  return undefined;
}

/** First element on a path of child names (`['body', 'text']`). */
export function childPath(element: XmlElement | undefined, path: readonly string[]): XmlElement | undefined {
  let current = element;
  for (const name of path) current = firstChild(current, name);
  return current;
}

/** All text below an element, in order (no separators). */
export function textOf(node: XmlNode): string {
  if (typeof node === 'string') return node;
  let text = '';
  for (const child of node.children) text += textOf(child);
  return text;
}
