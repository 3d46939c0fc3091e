/**
 * Reading the parts of a Word package that mammoth does not turn into HTML: relationships, core properties
 * (metadata), page headers and footers. The parts themselves come from the engine's zip reader (bytes/zip.ts).
 *
 * Transitional and Strict OOXML differ only in namespace URIs, so relationship types are matched by their last
 * path segment (`.../header`), and XML is read with namespace prefixes removed.
 */
import { resolveEntryPath } from '../bytes/zip.js';
import type { MetadataValue } from '../model.js';
import { packageXmlParser } from '../package-xml.js';

const xml = packageXmlParser({ trimValues: true, isArray: () => false });

const orderedXml = packageXmlParser({ preserveOrder: true, trimValues: false });

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
      target: external ? target : resolveEntryPath(folder, target),
      external,
    };
  });
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
 * The text of a header or footer part: its paragraphs (tabs, positional ones too, as spaces; breaks as new
 * lines), field instructions left out. Empty when the part has no text.
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
        case 'ptab':
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
