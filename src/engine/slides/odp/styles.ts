/**
 * The OpenDocument styles a presentation's text depends on, from content.xml's automatic styles and styles.xml:
 * bold/italic of text and paragraph styles, list styles (bullet, number or none per level), drawing-page styles
 * (hidden slides, whether header, footer, date and page number show), master pages and their page layouts (slide
 * size), and the footer/date-time declarations pages refer to.
 */
import { attr, child, descendants, elements, type XmlElement } from '../xml.js';
import { lengthInCentimetres } from './units.js';
import { odfTextPosition } from '../../raised-characters.js';

export interface RunStyle {
  bold?: boolean;
  italic?: boolean;
  /** `style:text-position`: raised, lowered, or set back on the line. */
  position?: 'super' | 'sub' | 'baseline';
}

export type ListLevelKind = 'bullet' | 'number' | 'none';

export interface ListLevel {
  kind: ListLevelKind;
  startAt: number;
}

export interface PageStyle {
  hidden: boolean;
  /** Whether the master page's header frame shows on the page; the next three likewise for its other running frames. */
  displayHeader: boolean;
  displayFooter: boolean;
  displayPageNumber: boolean;
  displayDateTime: boolean;
  /** Whether the master page's own shapes show on the page. */
  displayBackgroundObjects: boolean;
}

/**
 * A page that states nothing (no drawing-page style, or one without these attributes) shows what LibreOffice shows
 * then (sd's HeaderFooterSettings): its master's header, footer and date-time, not the slide number, and the
 * master's own shapes.
 */
export const DEFAULT_PAGE_STYLE: PageStyle = {
  hidden: false,
  displayHeader: true,
  displayFooter: true,
  displayPageNumber: false,
  displayDateTime: true,
  displayBackgroundObjects: true,
};

export interface OdpStyles {
  runStyles: Map<string, RunStyle>;
  listStyles: Map<string, ListLevel[]>;
  pageStyles: Map<string, PageStyle>;
  /** Master page name → its element and slide size in centimetres. */
  masterPages: Map<string, { element: XmlElement; width: number | null; height: number | null }>;
}

export function readStyles(content: XmlElement, styles: XmlElement | undefined): OdpStyles {
  const result: OdpStyles = { runStyles: new Map(), listStyles: new Map(), pageStyles: new Map(), masterPages: new Map() };
  const containers = [
    child(styles, 'styles'),
    child(styles, 'automatic-styles'),
    child(content, 'automatic-styles'),
  ];
  const pageLayouts = new Map<string, { width: number | null; height: number | null }>();
  for (const container of containers) {
    for (const style of elements(container)) {
      const name = attr(style, 'style:name');
      if (name === undefined) continue;
      if (style.name === 'style') {
        const text = child(style, 'text-properties');
        if (text !== undefined) {
          const run: RunStyle = {};
          const weight = attr(text, 'fo:font-weight');
          if (weight === 'bold' || Number(weight) >= 600) run.bold = true;
          if (attr(text, 'fo:font-style') === 'italic' || attr(text, 'fo:font-style') === 'oblique') run.italic = true;
          const position = odfTextPosition(attr(text, 'style:text-position'));
          if (position !== null) run.position = position;
          result.runStyles.set(name, run);
        }
        const page = child(style, 'drawing-page-properties');
        if (page !== undefined) {
          const flag = (attribute: string, fallback: boolean) => {
            const value = attr(page, `presentation:${attribute}`);
            return value === undefined ? fallback : value === 'true';
          };
          result.pageStyles.set(name, {
            hidden: attr(page, 'presentation:visibility') === 'hidden',
            displayHeader: flag('display-header', DEFAULT_PAGE_STYLE.displayHeader),
            displayFooter: flag('display-footer', DEFAULT_PAGE_STYLE.displayFooter),
            displayPageNumber: flag('display-page-number', DEFAULT_PAGE_STYLE.displayPageNumber),
            displayDateTime: flag('display-date-time', DEFAULT_PAGE_STYLE.displayDateTime),
            displayBackgroundObjects: flag('background-objects-visible', DEFAULT_PAGE_STYLE.displayBackgroundObjects),
          });
        }
      } else if (style.name === 'list-style') {
        result.listStyles.set(name, listLevels(style));
      } else if (style.name === 'page-layout') {
        const properties = child(style, 'page-layout-properties');
        pageLayouts.set(name, {
          width: lengthInCentimetres(attr(properties, 'fo:page-width')),
          height: lengthInCentimetres(attr(properties, 'fo:page-height')),
        });
      }
    }
  }
  for (const master of elements(child(styles, 'master-styles'), 'master-page')) {
    const name = attr(master, 'style:name');
    if (name === undefined) continue;
    const layout = pageLayouts.get(attr(master, 'style:page-layout-name') ?? '');
    result.masterPages.set(name, { element: master, width: layout?.width ?? null, height: layout?.height ?? null });
  }
  return result;
}

function listLevels(style: XmlElement): ListLevel[] {
  const levels: ListLevel[] = [];
  for (const level of elements(style)) {
    const index = Number(attr(level, 'text:level') ?? '0') - 1;
    if (!Number.isInteger(index) || index < 0 || index > 9) continue;
    let kind: ListLevelKind = 'bullet';
    if (level.name === 'list-level-style-number') kind = (attr(level, 'style:num-format') ?? '') === '' ? 'none' : 'number';
    const start = Number(attr(level, 'text:start-value') ?? '1');
    levels[index] = { kind, startAt: Number.isInteger(start) && start > 0 ? start : 1 };
  }
  return levels;
}

/** Footer and date-time declarations (`presentation:footer-decl`, `presentation:date-time-decl`) by name. */
export function declarations(content: XmlElement): { footers: Map<string, string>; dates: Map<string, string> } {
  const presentation = descendants(child(content, 'body'), 'presentation')[0];
  const footers = new Map<string, string>();
  const dates = new Map<string, string>();
  for (const declaration of elements(presentation, 'footer-decl', 'date-time-decl')) {
    const name = attr(declaration, 'presentation:name');
    if (name === undefined) continue;
    // A date declared as "current date" has no fixed text: nothing to keep.
    if (declaration.name === 'date-time-decl' && attr(declaration, 'presentation:source') === 'current-date') continue;
    const text = declaration.children.map((node) => (typeof node === 'string' ? node : '')).join('').trim();
    if (text !== '') (declaration.name === 'footer-decl' ? footers : dates).set(name, text);
  }
  return { footers, dates };
}
