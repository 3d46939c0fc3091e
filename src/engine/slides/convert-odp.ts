/**
 * OpenDocument presentations (.odp) → DocumentModel, one page per `draw:page` in document order (which is the
 * presentation order).
 *
 * On each page: the frame with `presentation:class="title"` is the title; text boxes and text in shapes, tables
 * (`table:table`), pictures (a figure with the frame's `svg:title`/`svg:desc`) and charts (embedded chart objects:
 * their title and their data table) are the content, groups (`draw:g`) are walked (their members have slide
 * coordinates already); footers, date-time and page-number frames (on the page, or on its master page when the
 * page shows them) and text the master page itself carries are furniture. `presentation:notes` gives the speaker
 * notes, `officeooo:annotation` the comments (with `dc:creator`).
 *
 * The master page's text reaches a slide as LibreOffice shows it there (sd's SdPage::checkVisibility): its own
 * shapes (text boxes, shapes with text, in groups too) unless the page hides background objects; its header,
 * footer, date-time and page-number frames as the page's style says, and when the page states nothing, the header,
 * footer and date-time but not the number (DEFAULT_PAGE_STYLE). Its title, outline, subtitle and notes placeholders
 * never show on a slide: they hold the master's prompts ("Click to edit Master title style" in the corpus deck
 * converted from PowerPoint), not slide text.
 *
 * A page whose style says
 * `presentation:visibility="hidden"` is kept and marked hidden (render-slide.ts). Sizes come from the master page's
 * page layout; rectangles are in centimetres. Metadata: meta.xml (title, author = dc:creator or the initial
 * creator, subject, description, keywords, language, created, modified) and numPages.
 *
 * Errors: what the sniffer says of the package (package.ts): a package whose manifest lists
 * `manifest:encryption-data` is ENCRYPTED_DOCUMENT; a zip cut short or without content.xml, or no document at all,
 * is CORRUPT_DOCUMENT; another document type (an OpenDocument text, a PowerPoint package...) is UNSUPPORTED_FILE.
 * Content without an office:presentation body is CORRUPT_DOCUMENT; no pages is EMPTY_DOCUMENT.
 */
import { EngineError } from '../engine-error.js';
import { packageImageUri } from '../package-images.js';
import type { ConvertInput, Converter, DocumentModel, MetadataValue, ModelPage } from '../model.js';
import { declarations, DEFAULT_PAGE_STYLE, readStyles, type OdpStyles, type PageStyle } from './odp/styles.js';
import { readChart } from './odp/chart.js';
import { odfTableRows } from './odp/table.js';
import { odfParagraphs, type OdpTextContext } from './odp/text.js';
import { lengthInCentimetres, transformTranslation } from './odp/units.js';
import { DeckBudget, MAX_SHAPES_PER_SLIDE, MAX_SLIDES, openDeck, readDeckParts, tooComplex } from './package.js';
import { plainText } from './paragraphs.js';
import { hiddenSlidesWarning, renderSlide, textlessDeckWarning } from './render-slide.js';
import { type FurnitureKind, markGroup, type Paragraph, type Rect, type Slide, type SlideComment } from './slide-model.js';
import { enterStage } from '../stage.js';
import { attr, child, descendants, elements, MAX_XML_DEPTH, parseXml, textContent, type XmlElement } from './xml.js';

const POINTS_PER_CENTIMETRE = 72 / 2.54;
const FURNITURE_CLASSES: Record<string, FurnitureKind> = {
  footer: 'page_footer',
  'date-time': 'page_footer',
  'page-number': 'page_number',
  header: 'page_header',
};

export const convertOdp: Converter = async (input) => convert(input);

function convert(input: ConvertInput): DocumentModel {
  const deck = openDeck(input, 'odp');
  const parts = readDeckParts(deck, (name) => ['content.xml', 'styles.xml', 'meta.xml'].includes(name) || /^Object [^/]+\/content\.xml$/.test(name));
  const content = parseXml(parts.get('content.xml') ?? '');
  if (content === null) throw new EngineError('CORRUPT_DOCUMENT', 'the presentation content (content.xml) is not readable XML');
  const presentation = descendants(child(content, 'body'), 'presentation')[0];
  if (presentation === undefined) throw new EngineError('CORRUPT_DOCUMENT', 'the presentation content has no office:presentation body');
  const styles = readStyles(content, parseXml(parts.get('styles.xml') ?? '') ?? undefined);
  const declared = declarations(content);

  const pageElements = elements(presentation, 'page');
  if (pageElements.length === 0) throw new EngineError('EMPTY_DOCUMENT', 'the presentation has no slides');
  if (pageElements.length > MAX_SLIDES) throw tooComplex(`it has ${pageElements.length.toLocaleString('en-US')} slides (at most ${MAX_SLIDES.toLocaleString('en-US')})`);

  const pages: ModelPage[] = [];
  const budget = new DeckBudget();
  const hidden: number[] = [];
  let firstTitle: string | undefined;
  const charts = (href: string) => {
    const name = `${href.replace(/^\.\//, '').replace(/\/$/, '')}/content.xml`;
    const text = parts.get(name);
    return text === undefined ? null : parseXml(text);
  };
  const keepImages = input.options.removeBase64Images === false;
  const image = (href: string): string | null => {
    const name = href.trim().replace(/^\.\//, '');
    if (!keepImages || name === '' || /^[a-z][a-z0-9+.-]*:/i.test(name)) return null;
    return packageImageUri(deck, name);
  };
  pageElements.forEach((page, index) => {
    enterStage(`reading slide ${index + 1}`);
    const slide = readPage(page, index + 1, { styles, declared, charts, image, budget });
    if (slide.hidden) hidden.push(slide.number);
    firstTitle ??= slide.title?.text;
    pages.push(renderSlide(slide, { source: 'odp', pointsPerUnit: POINTS_PER_CENTIMETRE }));
  });

  const warnings: string[] = [];
  if (hidden.length > 0) warnings.push(hiddenSlidesWarning(hidden));
  const textless = textlessDeckWarning(pages);
  if (textless !== undefined) warnings.push(textless);
  const metadata: Record<string, MetadataValue> = { ...odfMetadata(parseXml(parts.get('meta.xml') ?? '') ?? undefined) };
  if (metadata['title'] === undefined && firstTitle !== undefined) metadata['title'] = firstTitle;
  metadata['numPages'] = pageElements.length;
  const model: DocumentModel = { pages, metadata };
  if (warnings.length > 0) model.warnings = warnings;
  return model;
}

interface DeckFacts {
  styles: OdpStyles;
  declared: ReturnType<typeof declarations>;
  /** The parsed content of an embedded object (`./Object 1`), or null. */
  charts: (href: string) => XmlElement | null;
  /** A picture of the package (`Pictures/...`) as a data: URI; null when pictures are not kept or it cannot be read. */
  image: (href: string) => string | null;
  budget: DeckBudget;
}

function readPage(page: XmlElement, number: number, deck: DeckFacts): Slide {
  const pageStyle = deck.styles.pageStyles.get(attr(page, 'draw:style-name') ?? '');
  const master = deck.styles.masterPages.get(attr(page, 'draw:master-page-name') ?? '');
  const context: OdpTextContext = {
    styles: deck.styles,
    slideNumber: number,
    footerText: deck.declared.footers.get(attr(page, 'presentation:use-footer-name') ?? ''),
    dateTimeText: deck.declared.dates.get(attr(page, 'presentation:use-date-time-name') ?? ''),
  };
  const slide: Slide = {
    number,
    hidden: pageStyle?.hidden === true || attr(page, 'presentation:visibility') === 'hidden',
    width: master?.width ?? null,
    height: master?.height ?? null,
    title: null,
    items: [],
    notes: [],
    comments: [],
  };
  let shapes = 0;
  let groups = 0;

  const walk = (container: XmlElement, depth: number, onMaster: boolean): void => {
    if (depth > MAX_XML_DEPTH) return;
    for (const shape of elements(container)) {
      switch (shape.name) {
        case 'g': {
          // A group is read as one (reading-order.ts); its id is unique on the slide.
          groups += 1;
          const id = groups;
          const from = slide.items.length;
          walk(shape, depth + 1, onMaster);
          markGroup(slide.items, from, id);
          continue;
        }
        case 'a':
          walk(shape, depth + 1, onMaster);
          continue;
        case 'notes':
          if (!onMaster) slide.notes.push(...notesParagraphs(shape, context));
          continue;
        case 'annotation':
          deck.budget.spend();
          if (!onMaster) slide.comments.push(annotation(shape, context));
          continue;
        case 'page-thumbnail':
        case 'control':
          continue;
        default:
          break;
      }
      if (!['frame', 'custom-shape', 'rect', 'ellipse', 'circle', 'polygon', 'polyline', 'regular-polygon', 'path', 'line', 'connector', 'caption', 'measure'].includes(shape.name)) continue;
      shapes += 1;
      deck.budget.spend();
      if (shapes > MAX_SHAPES_PER_SLIDE) throw tooComplex(`slide ${number} has more than ${MAX_SHAPES_PER_SLIDE.toLocaleString('en-US')} shapes`);
      readShape(shape, onMaster);
    }
  };

  const readShape = (shape: XmlElement, onMaster: boolean) => {
    const rect = shapeRect(shape);
    const presentationClass = attr(shape, 'presentation:class');
    const furniture = presentationClass === undefined ? undefined : FURNITURE_CLASSES[presentationClass];
    if (onMaster) {
      // The master's own text shows on every slide; its running frames as the page says; its other placeholders never.
      if (furniture !== undefined && !showsOnPage(presentationClass ?? '', pageStyle ?? DEFAULT_PAGE_STYLE)) return;
      if (furniture === undefined && presentationClass !== undefined) return;
    }
    if (onMaster && shape.name === 'frame' && child(shape, 'text-box') === undefined) return;
    if (shape.name === 'frame') {
      const textBox = child(shape, 'text-box');
      const table = child(shape, 'table');
      const object = child(shape, 'object');
      if (table !== undefined) {
        slide.items.push({ kind: 'table', rows: odfTableRows(table, context), rect });
        return;
      }
      if (object !== undefined) {
        const chart = readChart(deck.charts(attr(object, 'xlink:href') ?? ''), context);
        if (chart !== null) {
          slide.items.push({ ...chart, rect });
          return;
        }
      }
      if (textBox === undefined) {
        if (child(shape, 'image') !== undefined || child(shape, 'object-ole') !== undefined || object !== undefined) {
          const description = [textContent(child(shape, 'title')), textContent(child(shape, 'desc'))]
            .map((text) => text.replace(/\s+/g, ' ').trim())
            .filter((text) => text !== '');
          const picture = child(shape, 'image');
          const image = picture === undefined ? null : deck.image(attr(picture, 'xlink:href') ?? '');
          slide.items.push({ kind: 'figure', description: [...new Set(description)].join(' — '), rect, ...(image === null ? {} : { image }) });
        }
        return;
      }
      addText(odfParagraphs(textBox, context), rect, presentationClass, furniture, onMaster);
      return;
    }
    addText(odfParagraphs(shape, context), rect, presentationClass, furniture, onMaster);
  };

  const addText = (paragraphs: Paragraph[], rect: Rect | null, presentationClass: string | undefined, furniture: FurnitureKind | undefined, onMaster: boolean) => {
    if (paragraphs.length === 0) return;
    if (presentationClass === 'title' && slide.title === null && !onMaster) {
      const text = plainText(paragraphs, ' ');
      if (text !== '') {
        slide.title = { text, rect };
        return;
      }
    }
    const kind = furniture ?? (onMaster ? (rect !== null && slide.height !== null && rect.y + rect.height / 2 < slide.height / 2 ? 'page_header' : 'page_footer') : undefined);
    slide.items.push(kind === undefined ? { kind: 'text', paragraphs, rect } : { kind: 'text', paragraphs, rect, furniture: kind });
  };

  walk(page, 0, false);
  if (slide.title === null && master !== undefined) inferTitle(slide, master.element);
  if (master !== undefined && pageStyle?.displayBackgroundObjects !== false) walk(master.element, 0, true);
  return slide;
}

/**
 * A page without a title frame whose text shape sits where the master page has its title placeholder (shapes
 * converted from other formats lose their class): that shape's single line is the title.
 */
function inferTitle(slide: Slide, master: XmlElement): void {
  const placeholder = elements(master, 'frame').find((frame) => attr(frame, 'presentation:class') === 'title');
  const area = placeholder === undefined ? null : shapeRect(placeholder);
  if (area === null) return;
  const index = slide.items.findIndex((item) => {
    if (item.kind !== 'text' || item.furniture !== undefined || item.rect === null) return false;
    const centreX = item.rect.x + item.rect.width / 2;
    const centreY = item.rect.y + item.rect.height / 2;
    return (
      centreX >= area.x && centreX <= area.x + area.width && centreY >= area.y && centreY <= area.y + area.height &&
      item.rect.height <= area.height * 2
    );
  });
  const item = slide.items[index];
  if (item === undefined || item.kind !== 'text') return;
  const lines = item.paragraphs.filter((paragraph) => plainText([paragraph]) !== '');
  if (lines.length !== 1) return;
  slide.title = { text: plainText(lines, ' '), rect: item.rect };
  slide.items.splice(index, 1);
}

function showsOnPage(presentationClass: string, style: PageStyle): boolean {
  if (presentationClass === 'header') return style.displayHeader;
  if (presentationClass === 'footer') return style.displayFooter;
  if (presentationClass === 'page-number') return style.displayPageNumber;
  if (presentationClass === 'date-time') return style.displayDateTime;
  return false;
}

function notesParagraphs(notes: XmlElement, context: OdpTextContext): Paragraph[] {
  return elements(notes, 'frame')
    .filter((frame) => attr(frame, 'presentation:class') === 'notes')
    .flatMap((frame) => odfParagraphs(child(frame, 'text-box'), context));
}

function annotation(element: XmlElement, context: OdpTextContext): SlideComment {
  const author = textContent(child(element, 'creator')).trim();
  return { author: author === '' ? null : author, text: plainText(odfParagraphs(element, context), ' '), replies: [] };
}

function shapeRect(shape: XmlElement): Rect | null {
  const width = lengthInCentimetres(attr(shape, 'svg:width'));
  const height = lengthInCentimetres(attr(shape, 'svg:height'));
  let x = lengthInCentimetres(attr(shape, 'svg:x'));
  let y = lengthInCentimetres(attr(shape, 'svg:y'));
  if (x === null || y === null) {
    const translation = transformTranslation(attr(shape, 'draw:transform'));
    if (translation !== null) ({ x, y } = translation);
  }
  if (x !== null && y !== null && width !== null && height !== null) return { x, y, width: Math.max(0, width), height: Math.max(0, height) };
  const x1 = lengthInCentimetres(attr(shape, 'svg:x1'));
  const y1 = lengthInCentimetres(attr(shape, 'svg:y1'));
  const x2 = lengthInCentimetres(attr(shape, 'svg:x2'));
  const y2 = lengthInCentimetres(attr(shape, 'svg:y2'));
  if (x1 === null || y1 === null || x2 === null || y2 === null) return null;
  return { x: Math.min(x1, x2), y: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) };
}

/** meta.xml → title, author, subject, description, keywords, language, created, modified. */
function odfMetadata(meta: XmlElement | undefined): Record<string, MetadataValue> {
  const properties = child(meta, 'meta');
  const metadata: Record<string, MetadataValue> = {};
  const read = (name: string) => textContent(child(properties, name)).trim();
  const mapping: [key: string, value: string][] = [
    ['title', read('title')],
    ['author', read('creator') || read('initial-creator')],
    ['subject', read('subject')],
    ['description', read('description')],
    ['language', read('language')],
    ['created', read('creation-date')],
    ['modified', read('date')],
  ];
  for (const [key, value] of mapping) if (value !== '') metadata[key] = value;
  const keywords = elements(properties, 'keyword').map((keyword) => textContent(keyword).trim()).filter((keyword) => keyword !== '');
  if (keywords.length > 0) metadata['keywords'] = keywords.join(', ');
  return metadata;
}

