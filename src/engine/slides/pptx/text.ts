/**
 * DrawingML text bodies (`p:txBody`, `a:txBody`) → paragraphs with runs and list markers.
 *
 * Whether a paragraph is a bullet or numbered item is inherited: the paragraph's own `a:pPr`, then the level's
 * `a:lvlNpPr` in the shape's list style, its layout and master placeholders' list styles, and the master's text
 * style for that kind of shape (body placeholders have bullets there, titles and text boxes usually not). The first
 * of these that says `buNone`, `buAutoNum` or `buChar`/`buBlip` decides.
 */
import type { Relationship } from '../../docx/package.js';
import type { ListMarker, Paragraph, TextRun } from '../slide-model.js';
import { attr, child, elements, path, type XmlElement } from '../xml.js';
import { raisedCharacters } from '../../raised-characters.js';

export interface TextContext {
  /** Where list styles are inherited from, nearest first: `a:lstStyle`-like elements holding `a:lvlNpPr`. */
  listStyles: readonly (XmlElement | undefined)[];
  /** The part's relationships, for hyperlinks. */
  relationships: readonly Relationship[];
  slideNumber: number;
}

export function textBodyParagraphs(body: XmlElement | undefined, context: TextContext): Paragraph[] {
  if (body === undefined) return [];
  const chain = [child(body, 'lstStyle'), ...context.listStyles];
  return elements(body, 'p').map((paragraph) => readParagraph(paragraph, chain, context));
}

function readParagraph(paragraph: XmlElement, chain: readonly (XmlElement | undefined)[], context: TextContext): Paragraph {
  const properties = child(paragraph, 'pPr');
  const level = clampLevel(Number(attr(properties, 'lvl') ?? '0'));
  const runs: TextRun[] = [];
  collectRuns(paragraph, runs, context);
  return { runs, list: listMarker(properties, level, chain) };
}

function collectRuns(container: XmlElement, runs: TextRun[], context: TextContext): void {
  for (const node of elements(container)) {
    switch (node.name) {
      case 'r':
      case 'fld': {
        const text = (child(node, 't') ? textOf(child(node, 't')) : '').replace(/\v/g, '\n');
        const fieldType = node.name === 'fld' ? (attr(node, 'type') ?? '') : '';
        const runText = fieldType === 'slidenum' ? String(context.slideNumber) : text;
        if (runText === '') break;
        const properties = child(node, 'rPr');
        // A run set raised or lowered (`baseline`, in thousandths of a percent): its digits as x² or H₂O.
        const baseline = Number(attr(properties, 'baseline') ?? '0');
        const raised = !Number.isFinite(baseline) || baseline === 0 ? null : raisedCharacters(runText, baseline > 0 ? 'super' : 'sub');
        const run: TextRun = { text: raised ?? runText };
        if (isOn(attr(properties, 'b'))) run.bold = true;
        if (isOn(attr(properties, 'i'))) run.italic = true;
        // `sz`: hundredths of a point.
        const size = Number(attr(properties, 'sz') ?? '');
        if (size > 0) run.size = size / 100;
        const linkId = attr(child(properties, 'hlinkClick'), 'r:id');
        const target = linkId === undefined ? undefined : context.relationships.find((relationship) => relationship.id === linkId);
        if (target?.external) run.href = target.target;
        runs.push(run);
        break;
      }
      case 'br':
        runs.push({ text: '\n' });
        break;
      case 'AlternateContent': {
        // Equations and newer features: the fallback holds runs every reader understands.
        const fallback = child(node, 'Fallback') ?? child(node, 'Choice');
        if (fallback !== undefined) collectRuns(fallback, runs, context);
        break;
      }
      default:
        break;
    }
  }
}

function textOf(element: XmlElement | undefined): string {
  if (element === undefined) return '';
  return element.children.map((node) => (typeof node === 'string' ? node : '')).join('');
}

function listMarker(own: XmlElement | undefined, level: number, chain: readonly (XmlElement | undefined)[]): ListMarker | null {
  const sources = [own, ...chain.map((style) => child(style, `lvl${level + 1}pPr`))];
  for (const source of sources) {
    if (source === undefined) continue;
    if (child(source, 'buNone') !== undefined) return null;
    const autoNumber = child(source, 'buAutoNum');
    if (autoNumber !== undefined) {
      const start = Number(attr(autoNumber, 'startAt') ?? '1');
      return { ordered: true, level, startAt: Number.isFinite(start) && start > 0 ? Math.floor(start) : 1 };
    }
    if (child(source, 'buChar') !== undefined || child(source, 'buBlip') !== undefined) return { ordered: false, level };
  }
  return null;
}

function clampLevel(value: number): number {
  return Number.isFinite(value) ? Math.max(0, Math.min(8, Math.floor(value))) : 0;
}

function isOn(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

/** A shape's text body, wherever the element keeps it (`p:txBody` in shapes, `a:txBody` in table cells). */
export function textBodyOf(shape: XmlElement): XmlElement | undefined {
  return child(shape, 'txBody') ?? path(shape, 'txSp', 'txBody');
}
