/**
 * Reading the parts of a Word package that mammoth does not turn into HTML: core properties (metadata), page
 * headers and footers, and the main document XML (for equations). Parts are inflated one by one with fflate, with
 * a cap on their declared size; the package is never inflated whole unless it must be rewritten (equations).
 *
 * Transitional and Strict OOXML differ only in namespace URIs, so relationship types are matched by their last
 * path segment (`.../header`), and XML is read with namespace prefixes removed.
 */
import { strFromU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { XMLParser } from 'fast-xml-parser';
import type { MetadataValue } from '../model.js';
import type { ZipEntryInfo } from '../sniff.js';

/** The most a single part may inflate to (declared size). */
export const MAX_PART_BYTES = 64 * 1024 * 1024;
/** The most the whole package may inflate to (declared sizes). */
export const MAX_PACKAGE_BYTES = 256 * 1024 * 1024;

export class PackageTooLargeError extends Error {}

const xml = new XMLParser({
  ignoreAttributes: false,
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: () => false,
});

const orderedXml = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: false,
});

/** Inflates the named parts (those present), refusing any whose declared size is over the cap. */
export function readParts(bytes: Uint8Array, names: readonly string[]): Map<string, string> {
  const wanted = new Set(names);
  const files = unzipSync(bytes, {
    filter: (file) => {
      if (!wanted.has(file.name)) return false;
      if (file.originalSize > MAX_PART_BYTES) throw new PackageTooLargeError(`${file.name} inflates to ${file.originalSize} bytes`);
      return true;
    },
  });
  const parts = new Map<string, string>();
  for (const [name, data] of Object.entries(files)) parts.set(name, strFromU8(data));
  return parts;
}

/** Rewrites some parts of the package (the others are copied as they are) and returns the new zip. */
export function rewritePackage(bytes: Uint8Array, replacements: Map<string, string>): Uint8Array {
  const files = unzipSync(bytes, {
    filter: (file) => {
      if (file.originalSize > MAX_PART_BYTES) throw new PackageTooLargeError(`${file.name} inflates to ${file.originalSize} bytes`);
      return true;
    },
  });
  const zippable: Zippable = {};
  for (const [name, data] of Object.entries(files)) {
    const replacement = replacements.get(name);
    zippable[name] = replacement === undefined ? data : new TextEncoder().encode(replacement);
  }
  return zipSync(zippable, { level: 1 });
}

export function declaredSize(entries: readonly ZipEntryInfo[]): number {
  return entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
}

export interface Relationship {
  id: string;
  /** Last segment of the relationship type URI: officeDocument, header, footer, footnotes... */
  kind: string;
  /** Resolved part name inside the package (no leading slash). */
  target: string;
  external: boolean;
}

/** Relationships of a part, targets resolved against the part's folder. */
export function parseRelationships(relsXml: string | undefined, sourcePart: string): Relationship[] {
  if (relsXml === undefined) return [];
  const parsed = xml.parse(relsXml) as { Relationships?: { Relationship?: unknown } };
  const raw = parsed.Relationships?.Relationship;
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]) as Record<string, string>[];
  const folder = sourcePart.includes('/') ? sourcePart.slice(0, sourcePart.lastIndexOf('/') + 1) : '';
  return list.map((relationship) => {
    const type = relationship['@_Type'] ?? '';
    const target = relationship['@_Target'] ?? '';
    const external = (relationship['@_TargetMode'] ?? '').toLowerCase() === 'external';
    return {
      id: relationship['@_Id'] ?? '',
      kind: type.slice(type.lastIndexOf('/') + 1),
      target: external ? target : resolvePartName(folder, target),
      external,
    };
  });
}

function resolvePartName(folder: string, target: string): string {
  const segments = (target.startsWith('/') ? target.slice(1) : folder + target).split('/');
  const resolved: string[] = [];
  for (const segment of segments) {
    if (segment === '..') resolved.pop();
    else if (segment !== '.' && segment !== '') resolved.push(segment);
  }
  return resolved.join('/');
}

/** The main document part named by the package relationships (word/document.xml in practice). */
export function mainDocumentPart(packageRels: string | undefined): string {
  const main = parseRelationships(packageRels, '').find((relationship) => relationship.kind === 'officeDocument');
  return main?.target ?? 'word/document.xml';
}

/**
 * Metadata from docProps/core.xml: title, author (dc:creator), subject, description, keywords, language,
 * lastModifiedBy, created, modified. Empty properties are left out.
 */
export function coreMetadata(coreXml: string | undefined): Record<string, MetadataValue> {
  if (coreXml === undefined) return {};
  let parsed: Record<string, unknown>;
  try {
    parsed = xml.parse(coreXml) as Record<string, unknown>;
  } catch {
    return {};
  }
  const properties = (parsed['coreProperties'] ?? {}) as Record<string, unknown>;
  const read = (name: string): string | undefined => {
    const value = properties[name];
    const text = typeof value === 'string' ? value : typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['#text'] : undefined;
    return typeof text === 'string' && text.trim() !== '' ? text.trim() : undefined;
  };
  const metadata: Record<string, MetadataValue> = {};
  const mapping: [key: string, property: string][] = [
    ['title', 'title'],
    ['author', 'creator'],
    ['subject', 'subject'],
    ['description', 'description'],
    ['keywords', 'keywords'],
    ['language', 'language'],
    ['lastModifiedBy', 'lastModifiedBy'],
    ['created', 'created'],
    ['modified', 'modified'],
  ];
  for (const [key, property] of mapping) {
    const value = read(property);
    if (value !== undefined) metadata[key] = value;
  }
  return metadata;
}

/**
 * The text of a header or footer part: its paragraphs (tabs as spaces, breaks as new lines), field instructions
 * left out. Empty when the part has no text.
 */
export function headerFooterText(partXml: string): string {
  let parsed: unknown;
  try {
    parsed = orderedXml.parse(partXml);
  } catch {
    return '';
  }
  const paragraphs: string[] = [];
  let current = '';
  const walk = (nodes: unknown) => {
    if (!Array.isArray(nodes)) return;
    for (const node of nodes as Record<string, unknown>[]) {
      const name = Object.keys(node).find((key) => key !== ':@') ?? '';
      const children = node[name];
      switch (name) {
        case 't':
          current += textContent(children);
          break;
        case 'tab':
          current += ' ';
          break;
        case 'br':
        case 'cr':
          current += '\n';
          break;
        case 'instrText':
        case 'delText':
          break;
        case 'p':
          walk(children);
          paragraphs.push(current);
          current = '';
          break;
        default:
          if (!name.endsWith('Pr')) walk(children);
      }
    }
  };
  walk(parsed);
  if (current !== '') paragraphs.push(current);
  return paragraphs
    .map((paragraph) => paragraph.replace(/[ \t]+/g, ' ').trim())
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

function textContent(children: unknown): string {
  if (!Array.isArray(children)) return '';
  return (children as Record<string, unknown>[]).map((child) => (typeof child['#text'] === 'string' ? child['#text'] : '')).join('');
}

/** Header and footer relationship ids in the order the section properties reference them. */
export function referencedHeaderFooterIds(documentXml: string): { headers: string[]; footers: string[] } {
  const headers: string[] = [];
  const footers: string[] = [];
  for (const match of documentXml.matchAll(/<(?:\w+:)?(header|footer)Reference\b[^>]*?\b(?:\w+:)?id="([^"]+)"/g)) {
    const list = match[1] === 'header' ? headers : footers;
    const id = match[2] as string;
    if (!list.includes(id)) list.push(id);
  }
  return { headers, footers };
}
