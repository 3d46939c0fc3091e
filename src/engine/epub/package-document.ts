/**
 * The package document of an EPUB book (the OPF named by META-INF/container.xml): metadata, manifest and spine,
 * with every href resolved to a path inside the zip (relative to the OPF's folder, percent-decoded).
 */
import { resolveEntryPath } from '../bytes/zip.js';
import type { MetadataValue } from '../model.js';
import { packageXmlParser } from '../package-xml.js';

export interface ManifestItem {
  id: string;
  /** Path inside the zip. */
  path: string;
  mediaType: string;
  properties: string[];
}

export interface SpineItem {
  item: ManifestItem;
  linear: boolean;
}

export interface PackageDocument {
  metadata: Record<string, MetadataValue>;
  manifest: Map<string, ManifestItem>;
  /** In reading order; itemrefs naming no manifest item are left out (see `missing`). */
  spine: SpineItem[];
  /** idrefs of the spine that name no manifest item. */
  missing: string[];
  /** Whether the OPF has a spine element at all. */
  hasSpine: boolean;
  /** The EPUB 2 NCX named by the spine's toc attribute, when there is one. */
  ncx: ManifestItem | undefined;
}

const xml = packageXmlParser({
  trimValues: true,
  htmlEntities: true,
  isArray: (name) => ['rootfile', 'item', 'itemref', 'title', 'creator', 'language', 'subject', 'description', 'publisher', 'date'].includes(name),
});

/** The OPF path from container.xml (the first rootfile of the OPF media type, else the first rootfile). */
export function rootfilePath(containerXml: string): string | null {
  const parsed = xml.parse(containerXml) as { container?: { rootfiles?: { rootfile?: Record<string, string>[] } } };
  const rootfiles = parsed.container?.rootfiles?.rootfile ?? [];
  const rootfile = rootfiles.find((candidate) => candidate['@_media-type'] === 'application/oebps-package+xml') ?? rootfiles[0];
  const path = rootfile?.['@_full-path'];
  return path === undefined || path.trim() === '' ? null : decodePath(path.trim().replace(/^\/+/, ''));
}

export function parsePackageDocument(opfXml: string, opfPath: string): PackageDocument {
  const parsed = xml.parse(opfXml) as { package?: Record<string, unknown> };
  const root = parsed.package ?? {};
  const folder = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';

  const manifest = new Map<string, ManifestItem>();
  const manifestElement = root['manifest'] as { item?: Record<string, string>[] } | undefined;
  for (const raw of manifestElement?.item ?? []) {
    const id = raw['@_id'];
    const href = raw['@_href'];
    if (id === undefined || href === undefined) continue;
    manifest.set(id, {
      id,
      path: resolvePath(folder, href),
      mediaType: (raw['@_media-type'] ?? '').trim().toLowerCase(),
      properties: (raw['@_properties'] ?? '').split(/\s+/).filter(Boolean),
    });
  }

  const spineElement = root['spine'] as ({ itemref?: Record<string, string>[] } & Record<string, unknown>) | string | undefined;
  const hasSpine = spineElement !== undefined;
  const spine: SpineItem[] = [];
  const missing: string[] = [];
  let ncx: ManifestItem | undefined;
  if (typeof spineElement === 'object') {
    for (const itemref of spineElement.itemref ?? []) {
      const idref = itemref['@_idref'] ?? '';
      const item = manifest.get(idref);
      if (item === undefined) missing.push(idref);
      else spine.push({ item, linear: (itemref['@_linear'] ?? 'yes').trim().toLowerCase() !== 'no' });
    }
    const tocId = spineElement['@_toc'];
    if (typeof tocId === 'string') ncx = manifest.get(tocId);
  }
  ncx ??= [...manifest.values()].find((item) => item.mediaType === 'application/x-dtbncx+xml');

  return { metadata: bookMetadata(root['metadata']), manifest, spine, missing, hasSpine, ncx };
}

/** title (the first dc:title), author (dc:creator: a string, or an array when there are several), language... */
function bookMetadata(raw: unknown): Record<string, MetadataValue> {
  const metadata: Record<string, MetadataValue> = {};
  if (typeof raw !== 'object' || raw === null) return metadata;
  const element = raw as Record<string, unknown>;
  const values = (name: string): string[] =>
    ((element[name] as unknown[] | undefined) ?? [])
      .map((value) => (typeof value === 'string' ? value : typeof value === 'object' && value !== null ? String((value as Record<string, unknown>)['#text'] ?? '') : ''))
      .map((value) => value.replace(/\s+/g, ' ').trim())
      .filter((value) => value !== '');
  const title = values('title')[0];
  if (title !== undefined) metadata['title'] = title;
  const creators = [...new Set(values('creator'))];
  if (creators.length === 1) metadata['author'] = creators[0] as string;
  else if (creators.length > 1) metadata['author'] = creators;
  const language = values('language')[0];
  if (language !== undefined) metadata['language'] = language;
  const description = values('description')[0];
  if (description !== undefined) metadata['description'] = description.replace(/<[^>]*>/g, '').trim();
  const publisher = values('publisher')[0];
  if (publisher !== undefined) metadata['publisher'] = publisher;
  const subjects = values('subject');
  if (subjects.length > 0) metadata['keywords'] = subjects.join(', ');
  return metadata;
}

/** A manifest href as a path in the zip: percent-decoded, fragment dropped, relative to `folder`. */
export function resolvePath(folder: string, href: string): string {
  const withoutFragment = href.split('#')[0] ?? '';
  return resolveEntryPath(folder, decodePath(withoutFragment.trim()));
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
