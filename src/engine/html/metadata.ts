/**
 * Page metadata from the document head, shaped like the hosted API's `metadata`:
 *
 * - `title` (`<title>`, else `og:title`), `description` (`<meta name=description>`, else `og:description`),
 *   `keywords`, `language` (`<html lang>` / `xml:lang`, else `http-equiv=content-language`);
 * - every other `<meta name|property=... content=...>`: Open Graph keys camelCased as the hosted API spells them
 *   (`og:title` → `ogTitle`, `og:locale:alternate` → `ogLocaleAlternate`, `og:image:width` → `ogImageWidth`);
 *   every other name is kept exactly as written (`twitter:card`, `viewport`, `generator`, `article:author`), the
 *   way the hosted API passes through "any other metadata extracted from HTML";
 * - a name that occurs more than once becomes an array of its values in document order (`ogLocaleAlternate` is
 *   always an array, as the contract types it);
 * - `author`, `publishedTime` and `siteName` (the contract's "other keys"): `<meta name=author>`,
 *   `article:published_time`, `og:site_name`, else the page's JSON-LD (`author.name`, `datePublished`,
 *   `publisher.name`); `title` and `description` fall back to JSON-LD `headline` and `description` too;
 * - names the engine or the contract own (`contentType`, `numPages`, `sourceURL`, `statusCode`...) are never taken
 *   from the page.
 */
import type { MetadataValue } from '../model.js';
import { jsonLdNodes } from './boilerplate.js';
import { type DomDocument, normalisedText } from './dom.js';

/** Keys a page's own <meta> tags may not set. */
const RESERVED_KEYS = new Set([
  'contentType',
  'numPages',
  'totalPages',
  'sourceURL',
  'url',
  'statusCode',
  'error',
  'concurrencyLimited',
  'concurrencyQueueDurationMs',
  'scrapeId',
]);

/** Keys always given as arrays. */
const ARRAY_KEYS = new Set(['ogLocaleAlternate']);

/** `og:locale:alternate` → `ogLocaleAlternate`; other names unchanged. */
export function metadataKey(name: string): string {
  const trimmed = name.trim();
  if (!/^og:/i.test(trimmed)) return trimmed;
  const parts = trimmed.split(/[:_-]+/).filter(Boolean);
  return parts
    .map((part, index) => (index === 0 ? part.toLowerCase() : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('');
}

export function extractHtmlMetadata(document: DomDocument): Record<string, MetadataValue> {
  const collected = new Map<string, string[]>();
  const add = (key: string, value: string) => {
    const list = collected.get(key);
    if (list === undefined) collected.set(key, [value]);
    else list.push(value);
  };

  for (const meta of document.querySelectorAll('meta')) {
    const name = meta.getAttribute('name') ?? meta.getAttribute('property');
    const content = meta.getAttribute('content');
    if (name === null || content === null) continue;
    const key = metadataKey(name);
    if (key === '' || RESERVED_KEYS.has(key)) continue;
    // The standard names are matched case-insensitively (`<meta name="Description">`).
    const lower = key.toLowerCase();
    const standard = lower === 'description' || lower === 'keywords' || lower === 'title' ? lower : key;
    add(standard, content.trim());
  }

  const metadata: Record<string, MetadataValue> = {};
  for (const [key, values] of collected) {
    const unique = values.filter((value, index) => values.indexOf(value) === index || key.startsWith('og'));
    metadata[key] = ARRAY_KEYS.has(key) || unique.length > 1 ? unique : (unique[0] ?? '');
  }

  const titleElement = document.querySelector('title');
  const title = titleElement === null ? '' : normalisedText(titleElement);
  const ogTitle = first(metadata['ogTitle']);
  const metaTitle = first(metadata['title']);
  if (title !== '') metadata['title'] = title;
  else if (metaTitle !== undefined && metaTitle !== '') metadata['title'] = metaTitle;
  else if (ogTitle !== undefined && ogTitle !== '') metadata['title'] = ogTitle;
  else delete metadata['title'];

  if (metadata['description'] === undefined) {
    const ogDescription = first(metadata['ogDescription']);
    if (ogDescription !== undefined && ogDescription !== '') metadata['description'] = ogDescription;
  }

  addArticleMetadata(document, metadata);

  const root = document.documentElement;
  const lang = root?.getAttribute('lang') ?? root?.getAttribute('xml:lang') ?? null;
  if (lang !== null && lang.trim() !== '') {
    metadata['language'] = lang.trim();
  } else {
    for (const meta of document.querySelectorAll('meta[http-equiv]')) {
      if ((meta.getAttribute('http-equiv') ?? '').toLowerCase() !== 'content-language') continue;
      const content = meta.getAttribute('content')?.trim();
      if (content) metadata['language'] = content;
      break;
    }
  }
  return metadata;
}

/** author, publishedTime, siteName (and title/description when still missing) from meta tags, else JSON-LD. */
function addArticleMetadata(document: DomDocument, metadata: Record<string, MetadataValue>): void {
  const nodes = jsonLdNodes(document);
  const fromJsonLd = (key: string, nested?: string): string | undefined => {
    for (const node of nodes) {
      for (const value of [node[key]].flat()) {
        const text = typeof value === 'string' ? value : nested !== undefined && value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[nested] : undefined;
        if (typeof text === 'string' && text.trim() !== '') return text.trim();
      }
    }
    return undefined;
  };
  const set = (key: string, ...values: (string | undefined)[]) => {
    if (metadata[key] !== undefined) return;
    const value = values.find((candidate) => candidate !== undefined && candidate !== '');
    if (value !== undefined) metadata[key] = value;
  };
  set('title', fromJsonLd('headline'));
  set('description', fromJsonLd('description'));
  set('author', first(metadata['article:author']), fromJsonLd('author', 'name'));
  const author = metadata['author'];
  if (Array.isArray(author) && author.length === 1) metadata['author'] = author[0] ?? '';
  set('publishedTime', first(metadata['article:published_time']), fromJsonLd('datePublished'));
  set('siteName', first(metadata['ogSiteName']), fromJsonLd('publisher', 'name'));
}

function first(value: MetadataValue | undefined): string | undefined {
  if (Array.isArray(value)) return value[0];
  return typeof value === 'string' ? value : undefined;
}
