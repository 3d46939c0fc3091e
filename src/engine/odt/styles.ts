/**
 * What the converter needs from ODF styles: character formatting (bold, italic, strike-through, monospace),
 * paragraph roles (Title, Subtitle, Quotations, Preformatted Text, captions, outline levels of heading styles),
 * page breaks forced by a style, and list styles (numbered or bulleted per level, start value).
 *
 * Styles come from the common styles (styles.xml office:styles) and one set of automatic styles (content.xml's
 * for the body, styles.xml's for page headers and footers). Formatting is read where it is cheap and meaningful:
 * a text style's whole parent chain (a "Strong Emphasis" character style is a deliberate choice), but only an
 * automatic paragraph style's own text properties (LibreOffice writes "bold paragraph" there), not those of the
 * common style it derives from ("Heading", "Table Heading" are bold by design, not emphasis).
 */
import { childElements, firstChild, type XmlElement } from './xml-tree.js';
import { odfTextPosition } from '../raised-characters.js';

export interface TextFormat {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  code: boolean;
  /** `style:text-position`: raised, lowered, set back on the line (`0%`), or not said (null: the parent style's). */
  position: 'super' | 'sub' | 'baseline' | null;
}

export type ParagraphRole = 'title' | 'subtitle' | 'quote' | 'pre' | 'caption' | null;

export interface ParagraphStyle {
  format: TextFormat;
  role: ParagraphRole;
  /** style:default-outline-level of a heading style used on a plain paragraph; null otherwise. */
  outlineLevel: number | null;
  breakBefore: boolean;
  breakAfter: boolean;
  /** The list style a paragraph of this style takes when its list names none. */
  listStyle: string | null;
}

export interface ListLevel {
  ordered: boolean;
  start: number;
}

const NO_FORMAT: TextFormat = { bold: false, italic: false, strike: false, code: false, position: null };
const DEFAULT_SIZE = 12;

/** How a style sets its type: bold or not, and its size in points; null where it says nothing. */
export interface TypeLook {
  bold: boolean | null;
  size: number | null;
}

/** A CSS-like length as points (`14pt`, `0.5in`, `5mm`, `12px`), or null. */
function pointSize(value: string | undefined): number | null {
  const match = /^(\d+(?:\.\d+)?)(pt|in|cm|mm|px|pc)$/.exec(value ?? '');
  if (!match) return null;
  const perUnit: Record<string, number> = { pt: 1, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, px: 0.75, pc: 12 };
  return Number(match[1]) * (perUnit[match[2] as string] ?? 1);
}
const MAX_CHAIN = 32;
const MONOSPACE_FONT = /courier|mono|consolas|menlo|lucida console|source code|fixedsys|typewriter/i;

interface StyleEntry {
  element: XmlElement;
  automatic: boolean;
}

export class OdfStyles {
  private readonly styles = new Map<string, StyleEntry>();
  private readonly listStyles = new Map<string, XmlElement>();
  private readonly fonts = new Map<string, string>();
  private readonly paragraphCache = new Map<string, ParagraphStyle>();
  private readonly lookCache = new Map<string, TypeLook>();
  /** The type size (pt) of paragraphs that set none: the default paragraph style's, else LibreOffice's 12. */
  readonly defaultSize: number = DEFAULT_SIZE;
  private readonly textCache = new Map<string, TextFormat>();

  /**
   * @param common office:styles (styles.xml), may be undefined
   * @param automatic office:automatic-styles of the part being converted
   * @param fontDecls office:font-face-decls elements (for monospace fonts)
   */
  constructor(common: XmlElement | undefined, automatic: XmlElement | undefined, fontDecls: readonly (XmlElement | undefined)[] = []) {
    for (const [container, isAutomatic] of [
      [common, false],
      [automatic, true],
    ] as const) {
      if (container === undefined) continue;
      for (const element of childElements(container)) {
        if (element.name === 'default-style' && element.attrs['family'] === 'paragraph') {
          const size = pointSize(firstChild(element, 'text-properties')?.attrs['font-size']);
          if (size !== null) this.defaultSize = size;
        }
        const name = element.attrs['name'];
        if (name === undefined) continue;
        if (element.name === 'style') this.styles.set(`${element.attrs['family'] ?? ''}:${name}`, { element, automatic: isAutomatic });
        else if (element.name === 'list-style') this.listStyles.set(name, element);
      }
    }
    for (const decls of fontDecls) {
      if (decls === undefined) continue;
      for (const face of childElements(decls, 'font-face')) {
        const name = face.attrs['name'];
        if (name !== undefined) this.fonts.set(name, `${name} ${face.attrs['font-family'] ?? ''}`);
      }
    }
  }

  /** Formatting of a text (character) style, through its parent chain. */
  textFormat(name: string | undefined): TextFormat {
    if (name === undefined) return NO_FORMAT;
    const cached = this.textCache.get(name);
    if (cached !== undefined) return cached;
    const format = { ...NO_FORMAT };
    for (const entry of this.chain('text', name)) {
      mergeFormat(format, this.ownFormat(entry.element));
      if (/^(source[ _]text|source_20_text)$/i.test(entry.element.attrs['name'] ?? '')) format.code = true;
    }
    this.textCache.set(name, format);
    return format;
  }

  paragraph(name: string | undefined): ParagraphStyle {
    const key = name ?? '';
    const cached = this.paragraphCache.get(key);
    if (cached !== undefined) return cached;
    const result: ParagraphStyle = { format: { ...NO_FORMAT }, role: null, outlineLevel: null, breakBefore: false, breakAfter: false, listStyle: null };
    const chain = name === undefined ? [] : this.chain('paragraph', name);
    chain.forEach((entry, index) => {
      const element = entry.element;
      if (index === 0 && entry.automatic) result.format = this.ownFormat(element);
      result.role ??= roleOf(element);
      const level = Number.parseInt(element.attrs['default-outline-level'] ?? '', 10);
      if (result.outlineLevel === null && Number.isFinite(level) && level > 0) result.outlineLevel = level;
      result.listStyle ??= element.attrs['list-style-name'] || null;
      const properties = firstChild(element, 'paragraph-properties');
      // The first style in the chain that says anything about breaks decides.
      if (index === 0 || (!result.breakBefore && !result.breakAfter)) {
        if (properties?.attrs['break-before'] === 'page') result.breakBefore = true;
        if (properties?.attrs['break-after'] === 'page') result.breakAfter = true;
      }
      // An automatic style naming a master page starts a page with that page style.
      if (index === 0 && entry.automatic && (element.attrs['master-page-name'] ?? '') !== '') result.breakBefore = true;
    });
    // A built-in "Heading N" style that lost its outline level (LibreOffice's import of a web page's <h1>) still
    // names its level, as Word's heading styles do.
    if (result.outlineLevel === null) result.outlineLevel = namedHeadingLevel(chain.map((entry) => entry.element));
    // A Title or Subtitle style whose heading level says otherwise is still a title.
    if (result.role === 'title' || result.role === 'subtitle') result.outlineLevel = null;
    this.paragraphCache.set(key, result);
    return result;
  }

  /**
   * The weight and size (pt) a paragraph or text style sets its type in, through its whole parent chain (a common
   * style's bold counts here: this is how the text looks, not emphasis); a size in percent scales its parent's.
   * Null parts: the style and its parents say nothing (the text takes its paragraph's, or the default).
   */
  look(family: 'paragraph' | 'text', name: string | undefined): TypeLook {
    const key = `${family}:${name ?? ''}`;
    const cached = this.lookCache.get(key);
    if (cached !== undefined) return cached;
    let bold: boolean | null = null;
    let size: number | null = null;
    let scale = 1;
    for (const entry of name === undefined ? [] : this.chain(family, name)) {
      const properties = firstChild(entry.element, 'text-properties');
      if (properties === undefined) continue;
      const weight = properties.attrs['font-weight'];
      if (bold === null && weight !== undefined) bold = weight === 'bold' || Number.parseInt(weight, 10) >= 600;
      const fontSize = properties.attrs['font-size'];
      if (size === null && fontSize !== undefined) {
        const percent = /^(\d+(?:\.\d+)?)%$/.exec(fontSize);
        if (percent) scale *= Number(percent[1]) / 100;
        else size = pointSize(fontSize);
      }
    }
    const look = { bold, size: size === null ? (scale === 1 ? null : scale * this.defaultSize) : size * scale };
    this.lookCache.set(key, look);
    return look;
  }

  /** Whether a table style forces a page break before or after the table. */
  tableBreaks(name: string | undefined): { before: boolean; after: boolean } {
    if (name === undefined) return { before: false, after: false };
    const entry = this.styles.get(`table:${name}`);
    const properties = entry === undefined ? undefined : firstChild(entry.element, 'table-properties');
    return {
      before: properties?.attrs['break-before'] === 'page' || (entry?.automatic === true && (entry.element.attrs['master-page-name'] ?? '') !== ''),
      after: properties?.attrs['break-after'] === 'page',
    };
  }

  /** Numbering of one level (1-based) of a list style; a bullet list when the style is unknown. */
  listLevel(name: string | null | undefined, level: number): ListLevel {
    const style = name ? this.listStyles.get(name) : undefined;
    if (style === undefined) return { ordered: false, start: 1 };
    let best: XmlElement | undefined;
    for (const candidate of childElements(style)) {
      const candidateLevel = Number.parseInt(candidate.attrs['level'] ?? '', 10);
      if (candidateLevel === level) {
        best = candidate;
        break;
      }
    }
    if (best === undefined || best.name !== 'list-level-style-number') return { ordered: false, start: 1 };
    // An empty number format is a numbered level that shows no number.
    if ((best.attrs['num-format'] ?? '1') === '') return { ordered: false, start: 1 };
    const start = Number.parseInt(best.attrs['start-value'] ?? '1', 10);
    return { ordered: true, start: Number.isFinite(start) && start >= 0 ? start : 1 };
  }

  private chain(family: string, name: string): StyleEntry[] {
    const chain: StyleEntry[] = [];
    const seen = new Set<string>();
    let current: string | undefined = name;
    while (current !== undefined && current !== '' && !seen.has(current) && chain.length < MAX_CHAIN) {
      seen.add(current);
      const entry = this.styles.get(`${family}:${current}`);
      if (entry === undefined) break;
      chain.push(entry);
      current = entry.element.attrs['parent-style-name'];
    }
    return chain;
  }

  private ownFormat(style: XmlElement): TextFormat {
    const properties = firstChild(style, 'text-properties');
    if (properties === undefined) return { ...NO_FORMAT };
    const weight = properties.attrs['font-weight'] ?? '';
    const numericWeight = Number.parseInt(weight, 10);
    const fontName = properties.attrs['font-name'];
    const font = (fontName !== undefined ? this.fonts.get(fontName) ?? fontName : '') + ` ${properties.attrs['font-family'] ?? ''}`;
    const lineThrough = properties.attrs['text-line-through-style'];
    return {
      bold: weight === 'bold' || (Number.isFinite(numericWeight) && numericWeight >= 600),
      italic: properties.attrs['font-style'] === 'italic' || properties.attrs['font-style'] === 'oblique',
      strike: lineThrough !== undefined && lineThrough !== 'none',
      code: MONOSPACE_FONT.test(font),
      position: odfTextPosition(properties.attrs['text-position']),
    };
  }
}

function mergeFormat(target: TextFormat, source: TextFormat): void {
  target.bold ||= source.bold;
  target.italic ||= source.italic;
  target.strike ||= source.strike;
  target.code ||= source.code;
  // The nearest style that says where its text stands wins (the chain runs from the style to its parents).
  target.position ??= source.position;
}

/** The role a common paragraph style gives (matched on its name or display name, LibreOffice's and Word's). */
function roleOf(style: XmlElement): ParagraphRole {
  const names = [style.attrs['name'] ?? '', style.attrs['display-name'] ?? ''].map((value) =>
    value.replace(/_20_/g, ' ').trim().toLowerCase(),
  );
  const has = (...candidates: string[]) => names.some((value) => candidates.includes(value));
  if (has('title')) return 'title';
  if (has('subtitle')) return 'subtitle';
  if (has('quotations', 'quote', 'intense quote', 'block text')) return 'quote';
  if (has('preformatted text', 'html preformatted', 'source code', 'code')) return 'pre';
  if (has('caption')) return 'caption';
  return null;
}

/** The level a chain's built-in heading style names (`Heading 2`, written `Heading_20_2`), or null. */
function namedHeadingLevel(chain: readonly XmlElement[]): number | null {
  for (const element of chain) {
    const match = /^Heading[ _](?:20_)?([1-9])$/.exec(element.attrs['display-name'] ?? element.attrs['name'] ?? '');
    if (match) return Number(match[1]);
  }
  return null;
}
