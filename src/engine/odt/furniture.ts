/**
 * Page headers and footers of an OpenDocument text: the style:header / style:footer of the master pages the
 * document uses (named by a style's style:master-page-name, and "Standard", the default page style). Shown ones
 * only (style:display="false" is a switched-off header); left-page and first-page variants are not read. Each
 * distinct text becomes one furniture block, a lone page number typed `page_number`.
 */
import type { ModelBlock } from '../model.js';
import { plainText } from './body-html.js';
import { childElements, type XmlElement } from './xml-tree.js';
import { escapeTextLines } from '../markdown-text.js';

const PAGE_NUMBER = /^(?:page\s+)?\d+(?:\s*(?:of|\/)\s*\d+)?$/i;

export interface Furniture {
  headers: ModelBlock[];
  footers: ModelBlock[];
}

/**
 * @param masterStyles office:master-styles
 * @param styleContainers office:styles / office:automatic-styles elements whose styles may name master pages
 */
export function pageFurniture(masterStyles: XmlElement | undefined, styleContainers: readonly (XmlElement | undefined)[]): Furniture {
  const furniture: Furniture = { headers: [], footers: [] };
  if (masterStyles === undefined) return furniture;
  const used = new Set<string>(['Standard']);
  for (const container of styleContainers) {
    if (container === undefined) continue;
    for (const style of childElements(container, 'style')) {
      const master = style.attrs['master-page-name'];
      if (master) used.add(master);
    }
  }
  const seen = new Set<string>();
  for (const master of childElements(masterStyles, 'master-page')) {
    if (!used.has(master.attrs['name'] ?? '')) continue;
    for (const part of childElements(master)) {
      const kind = part.name === 'header' ? 'header' : part.name === 'footer' ? 'footer' : null;
      if (kind === null || part.attrs['display'] === 'false') continue;
      const text = regionText(part);
      if (text === '' || seen.has(`${kind}:${text}`)) continue;
      seen.add(`${kind}:${text}`);
      (kind === 'header' ? furniture.headers : furniture.footers).push({
        type: PAGE_NUMBER.test(text) ? 'page_number' : kind === 'header' ? 'page_header' : 'page_footer',
        label: null,
        markdown: escapeTextLines(text),
        bbox: null,
        source: 'odt',
        furniture: true,
      });
    }
  }
  return furniture;
}

/** The paragraphs of a header or footer (its left / centre / right regions in order), one per line. */
function regionText(region: XmlElement): string {
  const paragraphs: string[] = [];
  const walk = (element: XmlElement, depth: number) => {
    if (depth > 32) return;
    for (const child of childElements(element)) {
      if (child.name === 'p' || child.name === 'h') paragraphs.push(plainText(child).replace(/[ \t]+/g, ' ').trim());
      else walk(child, depth + 1);
    }
  };
  walk(region, 0);
  return paragraphs.filter((paragraph) => paragraph !== '').join('\n');
}

