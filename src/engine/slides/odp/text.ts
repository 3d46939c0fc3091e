/**
 * OpenDocument text (`text:p`, `text:h`, `text:list`) inside a text box, shape, table cell, note or annotation →
 * paragraphs with runs and list markers.
 *
 * A list's level is its nesting depth; its kind comes from the list style in force (a nested list without its own
 * `text:style-name` uses the outer list's): `list-level-style-bullet`/`-image` are bullets, `-number` is numbering,
 * except a number format left empty, which LibreOffice writes for paragraphs shown without a marker (plain
 * paragraphs then). A list without a known style is a bullet list. Later paragraphs of one list item continue it.
 *
 * ODF white space: runs of spaces and line ends in the XML are one space; `text:s`, `text:tab` and
 * `text:line-break` are the explicit ones. `text:page-number` fields show the slide's number.
 */
import type { ListMarker, Paragraph, TextRun } from '../slide-model.js';
import { attr, elements, MAX_XML_DEPTH, type XmlElement } from '../xml.js';
import type { OdpStyles, RunStyle } from './styles.js';
import { raisedCharacters } from '../../raised-characters.js';

export interface OdpTextContext {
  styles: OdpStyles;
  slideNumber: number;
  /** Text for `presentation:footer` / `presentation:date-time` fields (master pages), when declared. */
  footerText?: string;
  dateTimeText?: string;
}

/** Paragraphs of the text elements directly inside `container` (lists walked). */
export function odfParagraphs(container: XmlElement | undefined, context: OdpTextContext): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  if (container === undefined) return paragraphs;
  walkBlocks(container, context, paragraphs, null, 0);
  return paragraphs;
}

function walkBlocks(container: XmlElement, context: OdpTextContext, out: Paragraph[], list: ListState | null, depth: number): void {
  if (depth > MAX_XML_DEPTH) return;
  for (const element of elements(container)) {
    switch (element.name) {
      case 'p':
      case 'h':
        out.push({ runs: paragraphRuns(element, context), list: null });
        break;
      case 'list': {
        const styleName = attr(element, 'text:style-name') ?? list?.styleName;
        const level = list === null ? 0 : list.level + 1;
        walkList(element, context, out, { styleName, level }, depth + 1);
        break;
      }
      case 'section':
      case 'soft-page-break':
        if (element.name === 'section') walkBlocks(element, context, out, list, depth + 1);
        break;
      default:
        break;
    }
  }
}

interface ListState {
  styleName: string | undefined;
  level: number;
}

function walkList(list: XmlElement, context: OdpTextContext, out: Paragraph[], state: ListState, depth: number): void {
  if (depth > MAX_XML_DEPTH) return;
  const levelStyle = state.styleName === undefined ? undefined : context.styles.listStyles.get(state.styleName)?.[Math.min(state.level, 9)];
  const kind = levelStyle?.kind ?? 'bullet';
  for (const item of elements(list, 'list-item', 'list-header')) {
    let itemParagraph: Paragraph | null = null;
    for (const element of elements(item)) {
      if (element.name === 'p' || element.name === 'h') {
        const runs = paragraphRuns(element, context);
        if (itemParagraph !== null) {
          itemParagraph.runs.push({ text: ' ' }, ...runs);
          continue;
        }
        const startValue = Number(attr(item, 'text:start-value') ?? 'NaN');
        const marker: ListMarker | null =
          item.name === 'list-header' || kind === 'none'
            ? null
            : kind === 'number'
              ? { ordered: true, level: state.level, startAt: Number.isInteger(startValue) && startValue > 0 ? startValue : (levelStyle?.startAt ?? 1) }
              : { ordered: false, level: state.level };
        itemParagraph = { runs, list: marker };
        out.push(itemParagraph);
      } else if (element.name === 'list') {
        const styleName = attr(element, 'text:style-name') ?? state.styleName;
        walkList(element, context, out, { styleName, level: state.level + 1 }, depth + 1);
        itemParagraph = null;
      }
    }
  }
}

/** The runs of one paragraph, with bold/italic from span and paragraph styles and links from `text:a`. */
export function paragraphRuns(paragraph: XmlElement, context: OdpTextContext): TextRun[] {
  const runs: TextRun[] = [];
  const base = context.styles.runStyles.get(attr(paragraph, 'text:style-name') ?? '') ?? {};
  collect(paragraph, base, undefined, 0);
  return runs;

  function push(text: string, style: RunStyle, href: string | undefined) {
    if (text === '') return;
    // Raised or lowered digits as x² or H₂O.
    const raised = style.position === 'super' || style.position === 'sub' ? raisedCharacters(text, style.position) : null;
    const run: TextRun = { text: raised ?? text };
    if (style.bold) run.bold = true;
    if (style.italic) run.italic = true;
    if (href !== undefined) run.href = href;
    runs.push(run);
  }

  function collect(element: XmlElement, style: RunStyle, href: string | undefined, depth: number): void {
    if (depth > MAX_XML_DEPTH) return;
    for (const node of element.children) {
      if (typeof node === 'string') {
        push(node.replace(/\s+/g, ' '), style, href);
        continue;
      }
      switch (node.name) {
        case 'span': {
          const own = context.styles.runStyles.get(attr(node, 'text:style-name') ?? '');
          const position = own?.position ?? style.position;
          const inner: RunStyle = own === undefined ? style : { bold: own.bold ?? style.bold, italic: own.italic ?? style.italic, ...(position === undefined ? {} : { position }) };
          collect(node, inner, href, depth + 1);
          break;
        }
        case 'a':
          collect(node, style, attr(node, 'xlink:href') ?? href, depth + 1);
          break;
        case 's': {
          const count = Number(attr(node, 'text:c') ?? '1');
          push(' '.repeat(Number.isInteger(count) && count > 0 ? Math.min(count, 100) : 1), style, href);
          break;
        }
        case 'tab':
          push(' ', style, href);
          break;
        case 'line-break':
          push('\n', style, href);
          break;
        case 'page-number':
          push(String(context.slideNumber), style, href);
          break;
        case 'footer':
          if (context.footerText !== undefined) push(context.footerText, style, href);
          break;
        case 'date-time':
          if (context.dateTimeText !== undefined) push(context.dateTimeText, style, href);
          break;
        case 'note':
        case 'annotation':
        case 'bookmark':
        case 'bookmark-start':
        case 'bookmark-end':
        case 'soft-page-break':
          break;
        default:
          collect(node, style, href, depth + 1);
      }
    }
  }
}
