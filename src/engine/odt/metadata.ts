/**
 * Metadata of an OpenDocument file from office:meta (meta.xml, or the flat document's own office:meta): title,
 * author (meta:initial-creator, the person who created the document; dc:creator, who saved it last, when there is
 * none), lastModifiedBy (dc:creator), subject, description, keywords (meta:keyword, joined), language (dc:language,
 * else the default paragraph style's fo:language / fo:country), created, modified. Empty values are left out.
 */
import type { MetadataValue } from '../model.js';
import { childElements, firstChild, textOf, type XmlElement } from './xml-tree.js';

export function odfMetadata(meta: XmlElement | undefined, commonStyles: XmlElement | undefined): Record<string, MetadataValue> {
  const metadata: Record<string, MetadataValue> = {};
  const read = (name: string): string | undefined => {
    const element = firstChild(meta, name);
    const value = element === undefined ? '' : textOf(element).replace(/\s+/g, ' ').trim();
    return value === '' ? undefined : value;
  };
  const set = (key: string, value: string | undefined) => {
    if (value !== undefined) metadata[key] = value;
  };
  set('title', read('title'));
  set('author', read('initial-creator') ?? read('creator'));
  set('lastModifiedBy', read('creator'));
  set('subject', read('subject'));
  set('description', read('description'));
  if (meta !== undefined) {
    const keywords = childElements(meta, 'keyword')
      .map((keyword) => textOf(keyword).trim())
      .filter((keyword) => keyword !== '');
    if (keywords.length > 0) metadata['keywords'] = keywords.join(', ');
  }
  set('language', read('language') ?? defaultLanguage(commonStyles));
  set('created', read('creation-date'));
  set('modified', read('date'));
  return metadata;
}

function defaultLanguage(commonStyles: XmlElement | undefined): string | undefined {
  if (commonStyles === undefined) return undefined;
  for (const style of childElements(commonStyles, 'default-style')) {
    if (style.attrs['family'] !== 'paragraph') continue;
    const properties = firstChild(style, 'text-properties');
    const language = properties?.attrs['language'];
    if (language === undefined || language === 'none' || language === '') return undefined;
    const country = properties?.attrs['country'];
    return country !== undefined && country !== 'none' && country !== '' ? `${language}-${country}` : language;
  }
  return undefined;
}
