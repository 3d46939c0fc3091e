/**
 * A PresentationML shape tree (`p:spTree` of a slide) → the slide's title and items.
 *
 * - Placeholders (`p:ph`) inherit what the slide leaves out from the layout placeholder with the same `idx` (or
 *   type) and the master placeholder of the same type: their position, and their list styles (text.ts).
 * - `title`/`ctrTitle` placeholders give the title; `ftr`, `dt`, `sldNum` (and `hdr`) are furniture; a slide
 *   number field is replaced by the slide's number.
 * - Groups (`p:grpSp`) are flattened: each member's offset and size are mapped through the group's transform
 *   (`a:off`/`a:ext` against `a:chOff`/`a:chExt`), nested groups included, so members sort by their place on the
 *   slide; each member is marked with its groups, which are read as one (reading-order.ts).
 * - `p:graphicFrame` holds tables (`a:tbl`), charts (`c:chart`, read from their part) and SmartArt (its text as a
 *   nested list, diagram.ts); `p:pic` pictures give a
 *   figure with their alt text (`p:cNvPr` descr, else title). Shapes marked hidden are left out.
 * - `mc:AlternateContent`: the first choice, or the fallback when the choice gives nothing.
 */
import type { Relationship } from '../../docx/package.js';
import { type DeckBudget, MAX_SHAPES_PER_SLIDE, tooComplex } from '../package.js';
import { plainText } from '../paragraphs.js';
import { type FurnitureKind, markGroup, type Rect, type SlideItem } from '../slide-model.js';
import { attr, child, elements, MAX_XML_DEPTH, path, type XmlElement } from '../xml.js';
import { type ChartData } from './chart.js';
import { diagramParagraphs } from './diagram.js';
import { tableRows } from './table.js';
import { type TextContext, textBodyOf, textBodyParagraphs } from './text.js';

export interface ShapeSources {
  slideNumber: number;
  relationships: readonly Relationship[];
  layout: XmlElement | undefined;
  master: XmlElement | undefined;
  /** The chart a relationship id points to, read from its part; null when missing or unreadable. */
  chart: (relationshipId: string) => ChartData | null;
  /** The data model (`dgm:dataModel`) of a SmartArt diagram a relationship id points to. */
  diagram: (relationshipId: string) => XmlElement | undefined;
  /** The picture a relationship id points to as a data: URI; null when pictures are not kept, or it cannot be read. */
  image: (relationshipId: string) => string | null;
  budget: DeckBudget;
}

export interface SlideShapes {
  title: { text: string; rect: Rect | null } | null;
  items: SlideItem[];
}

/** Per-axis affine map from a group's child coordinates to slide coordinates. */
interface Transform {
  scaleX: number;
  scaleY: number;
  offsetX: number;
  offsetY: number;
}

const IDENTITY: Transform = { scaleX: 1, scaleY: 1, offsetX: 0, offsetY: 0 };

interface Placeholder {
  type: string;
  idx: string | undefined;
  shape: XmlElement;
}

const FURNITURE: Record<string, FurnitureKind> = { ftr: 'page_footer', dt: 'page_footer', sldNum: 'page_number', hdr: 'page_header' };
const TITLE_TYPES = new Set(['title', 'ctrTitle']);

export function readSlideShapes(slide: XmlElement, sources: ShapeSources): SlideShapes {
  const result: SlideShapes = { title: null, items: [] };
  const layoutPlaceholders = placeholdersOf(sources.layout);
  const masterPlaceholders = placeholdersOf(sources.master);
  const masterStyles = path(sources.master, 'txStyles');
  let shapes = 0;

  const inherited = (ph: XmlElement | undefined): { layout?: XmlElement; master?: XmlElement } => {
    if (ph === undefined) return {};
    const type = attr(ph, 'type') ?? 'body';
    const idx = attr(ph, 'idx');
    const layout = matchPlaceholder(layoutPlaceholders, type, idx);
    const master = matchPlaceholder(masterPlaceholders, type, undefined);
    return { layout: layout?.shape, master: master?.shape };
  };

  const textContext = (ph: XmlElement | undefined): TextContext => {
    const { layout, master } = inherited(ph);
    const type = ph === undefined ? null : (attr(ph, 'type') ?? 'body');
    const family = type === null ? null : placeholderFamily(type);
    const styleName = family === 'title' ? 'titleStyle' : family === 'body' ? 'bodyStyle' : 'otherStyle';
    return {
      listStyles: [
        layout === undefined ? undefined : child(textBodyOf(layout), 'lstStyle'),
        master === undefined ? undefined : child(textBodyOf(master), 'lstStyle'),
        // Text boxes take no bullets from the master: otherStyle is for the master's own decoration.
        family === null ? undefined : child(masterStyles, styleName),
      ],
      relationships: sources.relationships,
      slideNumber: sources.slideNumber,
    };
  };

  const rectOf = (shape: XmlElement, ph: XmlElement | undefined, transform: Transform): Rect | null => {
    let xfrm = child(child(shape, 'spPr') ?? child(shape, 'grpSpPr'), 'xfrm') ?? child(shape, 'xfrm');
    if (xfrm === undefined && ph !== undefined) {
      const { layout, master } = inherited(ph);
      xfrm = path(layout, 'spPr', 'xfrm') ?? path(master, 'spPr', 'xfrm');
    }
    const rect = xfrmRect(xfrm);
    return rect === null ? null : applyTransform(rect, transform);
  };

  const walk = (container: XmlElement, transform: Transform, depth: number): void => {
    if (depth > MAX_XML_DEPTH) return;
    for (const shape of elements(container)) {
      if (shape.name === 'AlternateContent') {
        const before = result.items.length;
        const titleBefore = result.title;
        const choice = child(shape, 'Choice');
        if (choice !== undefined) walk(choice, transform, depth + 1);
        if (result.items.length === before && result.title === titleBefore) {
          const fallback = child(shape, 'Fallback');
          if (fallback !== undefined) walk(fallback, transform, depth + 1);
        }
        continue;
      }
      if (!['sp', 'grpSp', 'graphicFrame', 'pic', 'cxnSp'].includes(shape.name)) continue;
      shapes += 1;
      sources.budget.spend();
      if (shapes > MAX_SHAPES_PER_SLIDE) throw tooComplex(`slide ${sources.slideNumber} has more than ${MAX_SHAPES_PER_SLIDE.toLocaleString('en-US')} shapes`);
      const properties = nonVisualProperties(shape);
      if (isHidden(properties.cNvPr)) continue;
      const ph = child(properties.nvPr, 'ph');
      switch (shape.name) {
        case 'grpSp': {
          const id = shapes;
          const from = result.items.length;
          walk(shape, groupTransform(shape, transform), depth + 1);
          markGroup(result.items, from, id);
          break;
        }
        case 'sp':
        case 'cxnSp':
          readTextShape(shape, ph, transform);
          break;
        case 'graphicFrame':
          readGraphicFrame(shape, ph, transform);
          break;
        case 'pic': {
          const description = attr(properties.cNvPr, 'descr') || attr(properties.cNvPr, 'title') || '';
          const embed = attr(path(shape, 'blipFill', 'blip'), 'r:embed');
          const image = embed === undefined ? null : sources.image(embed);
          result.items.push({ kind: 'figure', description, rect: rectOf(shape, ph, transform), ...(image === null ? {} : { image }) });
          break;
        }
      }
    }
  };

  const readTextShape = (shape: XmlElement, ph: XmlElement | undefined, transform: Transform) => {
    const type = ph === undefined ? null : (attr(ph, 'type') ?? 'body');
    if (type === 'sldImg') return;
    const paragraphs = textBodyParagraphs(textBodyOf(shape), textContext(ph));
    const rect = rectOf(shape, ph, transform);
    if (type !== null && TITLE_TYPES.has(type) && result.title === null) {
      const text = plainText(paragraphs, ' ');
      if (text !== '') {
        result.title = { text, rect };
        return;
      }
    }
    if (paragraphs.length === 0) return;
    const furniture = type === null ? undefined : FURNITURE[type];
    result.items.push(furniture === undefined ? { kind: 'text', paragraphs, rect } : { kind: 'text', paragraphs, rect, furniture });
  };

  const readGraphicFrame = (frame: XmlElement, ph: XmlElement | undefined, transform: Transform) => {
    const data = path(frame, 'graphic', 'graphicData');
    const rect = rectOf(frame, ph, transform);
    const table = child(data, 'tbl');
    if (table !== undefined) {
      result.items.push({ kind: 'table', rows: tableRows(table, textContext(undefined)), rect });
      return;
    }
    const chartReference = child(data, 'chart');
    const chartId = attr(chartReference, 'r:id');
    if (chartId !== undefined) {
      const chart = sources.chart(chartId);
      if (chart !== null) result.items.push({ kind: 'chart', title: chart.title, rows: chart.rows, rect });
      return;
    }
    const diagramId = attr(child(data, 'relIds'), 'r:dm');
    if (diagramId !== undefined) {
      const model = sources.diagram(diagramId);
      const paragraphs = model === undefined ? [] : diagramParagraphs(model, textContext(undefined));
      if (paragraphs.length > 0) result.items.push({ kind: 'text', paragraphs, rect });
      return;
    }
    const properties = nonVisualProperties(frame);
    const description = attr(properties.cNvPr, 'descr') || attr(properties.cNvPr, 'title') || '';
    if (description !== '') result.items.push({ kind: 'figure', description, rect });
  };

  const tree = path(slide, 'cSld', 'spTree');
  if (tree !== undefined) walk(tree, IDENTITY, 0);
  return result;
}

/**
 * Text of the layout's and master's own shapes, which PowerPoint draws on every slide that shows master shapes:
 * logos' captions, confidentiality lines, in groups too (members placed through the group's transform). Furniture,
 * as a header or footer by position. Placeholders are not read: a layout's or master's placeholder is drawn only
 * through a slide's own, and its text is the prompt ("Click to edit Master title style"), never slide text. Hidden
 * shapes are left out, as on the slides.
 */
export function decorationItems(part: XmlElement | undefined, slideHeight: number | null, context: TextContext, budget: DeckBudget): SlideItem[] {
  const tree = path(part, 'cSld', 'spTree');
  if (tree === undefined) return [];
  const items: SlideItem[] = [];
  const walk = (container: XmlElement, transform: Transform, depth: number): void => {
    if (depth > MAX_XML_DEPTH) return;
    for (const shape of elements(container)) {
      if (shape.name === 'AlternateContent') {
        const before = items.length;
        const choice = child(shape, 'Choice');
        if (choice !== undefined) walk(choice, transform, depth + 1);
        const fallback = child(shape, 'Fallback');
        if (items.length === before && fallback !== undefined) walk(fallback, transform, depth + 1);
        continue;
      }
      if (shape.name !== 'sp' && shape.name !== 'grpSp') continue;
      budget.spend();
      const properties = nonVisualProperties(shape);
      if (isHidden(properties.cNvPr)) continue;
      if (shape.name === 'grpSp') {
        walk(shape, groupTransform(shape, transform), depth + 1);
        continue;
      }
      if (child(properties.nvPr, 'ph') !== undefined) continue;
      const paragraphs = textBodyParagraphs(textBodyOf(shape), context);
      if (plainText(paragraphs) === '') continue;
      const local = xfrmRect(path(shape, 'spPr', 'xfrm'));
      const rect = local === null ? null : applyTransform(local, transform);
      const top = rect !== null && slideHeight !== null && rect.y + rect.height / 2 < slideHeight / 2;
      items.push({ kind: 'text', paragraphs, rect, furniture: top ? 'page_header' : 'page_footer' });
    }
  };
  walk(tree, IDENTITY, 0);
  return items;
}

/** The body text of a notes slide (its `body` placeholders). */
export function notesParagraphs(notes: XmlElement | undefined, context: TextContext, budget: DeckBudget): ReturnType<typeof textBodyParagraphs> {
  const tree = path(notes, 'cSld', 'spTree');
  if (tree === undefined) return [];
  return elements(tree, 'sp').flatMap((shape) => {
    budget.spend();
    const ph = child(nonVisualProperties(shape).nvPr, 'ph');
    if (ph === undefined || (attr(ph, 'type') ?? 'body') !== 'body') return [];
    return textBodyParagraphs(textBodyOf(shape), context);
  });
}

function isHidden(cNvPr: XmlElement | undefined): boolean {
  return attr(cNvPr, 'hidden') === '1' || attr(cNvPr, 'hidden') === 'true';
}

function nonVisualProperties(shape: XmlElement): { cNvPr: XmlElement | undefined; nvPr: XmlElement | undefined } {
  const container = elements(shape).find((element) => element.name.startsWith('nv') && element.name.endsWith('Pr'));
  return { cNvPr: child(container, 'cNvPr'), nvPr: child(container, 'nvPr') };
}

function placeholdersOf(part: XmlElement | undefined): Placeholder[] {
  const tree = path(part, 'cSld', 'spTree');
  const found: Placeholder[] = [];
  for (const shape of elements(tree)) {
    const ph = child(nonVisualProperties(shape).nvPr, 'ph');
    if (ph !== undefined) found.push({ type: attr(ph, 'type') ?? 'body', idx: attr(ph, 'idx'), shape });
  }
  return found;
}

/** Titles match titles, body-like placeholders (body, obj, subTitle...) match body; the rest match their type. */
function placeholderFamily(type: string): string {
  if (TITLE_TYPES.has(type)) return 'title';
  if (['body', 'obj', 'subTitle', 'tbl', 'chart', 'dgm', 'media', 'clipArt', 'pic'].includes(type)) return 'body';
  return type;
}

function matchPlaceholder(placeholders: readonly Placeholder[], type: string, idx: string | undefined): Placeholder | undefined {
  if (idx !== undefined) {
    const byIndex = placeholders.find((placeholder) => placeholder.idx === idx);
    if (byIndex !== undefined) return byIndex;
  }
  const family = placeholderFamily(type);
  return (
    placeholders.find((placeholder) => placeholder.type === type) ??
    placeholders.find((placeholder) => placeholderFamily(placeholder.type) === family)
  );
}

function xfrmRect(xfrm: XmlElement | undefined): Rect | null {
  const offset = child(xfrm, 'off');
  const extent = child(xfrm, 'ext');
  if (offset === undefined || extent === undefined) return null;
  const values = [attr(offset, 'x'), attr(offset, 'y'), attr(extent, 'cx'), attr(extent, 'cy')].map((value) => Number(value ?? 'NaN'));
  if (values.some((value) => !Number.isFinite(value))) return null;
  const [x = 0, y = 0, width = 0, height = 0] = values;
  return { x, y, width: Math.max(0, width), height: Math.max(0, height) };
}

function groupTransform(group: XmlElement, outer: Transform): Transform {
  const xfrm = path(group, 'grpSpPr', 'xfrm');
  const offset = xfrmRect(xfrm);
  const childOffset = child(xfrm, 'chOff');
  const childExtent = child(xfrm, 'chExt');
  if (offset === null || childOffset === undefined || childExtent === undefined) return outer;
  const childX = Number(attr(childOffset, 'x') ?? 0);
  const childY = Number(attr(childOffset, 'y') ?? 0);
  const childWidth = Number(attr(childExtent, 'cx') ?? 0);
  const childHeight = Number(attr(childExtent, 'cy') ?? 0);
  const scaleX = childWidth > 0 ? offset.width / childWidth : 1;
  const scaleY = childHeight > 0 ? offset.height / childHeight : 1;
  if (![childX, childY, scaleX, scaleY].every(Number.isFinite)) return outer;
  // Local map: v ↦ off + (v - chOff) * scale; then the outer map.
  const localOffsetX = offset.x - childX * scaleX;
  const localOffsetY = offset.y - childY * scaleY;
  return {
    scaleX: outer.scaleX * scaleX,
    scaleY: outer.scaleY * scaleY,
    offsetX: outer.scaleX * localOffsetX + outer.offsetX,
    offsetY: outer.scaleY * localOffsetY + outer.offsetY,
  };
}

function applyTransform(rect: Rect, transform: Transform): Rect {
  return {
    x: rect.x * transform.scaleX + transform.offsetX,
    y: rect.y * transform.scaleY + transform.offsetY,
    width: rect.width * transform.scaleX,
    height: rect.height * transform.scaleY,
  };
}
