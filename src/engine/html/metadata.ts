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
 * - names the engine or the contract own (`contentType`, `numPages`, `sourceURL`, `statusCode`...) are never taken
 *   from the page.
 */
import type { MetadataValue } from '../model.js';
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

function first(value: MetadataValue | undefined): string | undefined {
  if (Array.isArray(value)) return value[0];
  return typeof value === 'string' ? value : undefined;
}
