/**
 * The body of an OpenDocument text (office:text) as HTML for the engine's HTML path, split into pages.
 *
 * | ODF | HTML |
 * |---|---|
 * | text:h (text:outline-level, default 1; a paragraph whose style has a default outline level) | h1..h6 (deeper levels h6) |
 * | text:p; Title / Subtitle / Quotations / Preformatted Text / caption styles | p; h1 / h2 / blockquote / pre (runs merged) / p.caption |
 * | text:span, automatic paragraph style: bold, italic, line-through, monospace | strong, em, del, code |
 * | text:span raised or lowered (style:text-position) | sup, sub (digits then written ² and ₂: html/raised-text.ts) |
 * | text:a, text:line-break, text:s, text:tab | a, br, space, space |
 * | text:list (nested), numbering from the list style level (start value, continued lists) | ul / ol start=N |
 * | headings inside list items at any level (numbered headings of converted Word files) | the headings, out of the list |
 * | table:table, header rows, spans, repeats; covered cells dropped | table, thead, colspan / rowspan |
 * | text:note (footnote, endnote) | mammoth's footnote markup: `[^N]` / `[^eN]` and a list of notes at the end |
 * | draw:frame: draw:image (svg:title / svg:desc as alt and title), draw:text-box | img; the box's content right after its paragraph |
 * | draw:frame: draw:object holding a formula (MathML) or a chart | LaTeX, `$…$`; a caption and a table after the paragraph (objects.ts) |
 * | shapes with text (draw:custom-shape, draw:g...) | their paragraphs after the anchoring paragraph |
 * | text:section, indexes (table of contents: the generated body) | their content (hidden sections left out) |
 * | tracked deletions, comments (office:annotation), declarations | nothing |
 *
 * Pages: text:soft-page-break (the pagination the writing application saved) and page breaks forced by a paragraph
 * or table style (fo:break-before / break-after, or an automatic style switching the master page) start a new
 * page (a break before any text since the previous one counts once). A block belongs to the page on which its first
 * text falls, so a table broken across pages stays whole on the page where it starts (the pages it runs over are
 * then empty). Without breaks there is one page.
 */
import { EngineError } from '../engine-error.js';
import { handMadeHeadingLevels, type ParagraphLook } from '../hand-made-headings.js';
import type { ListLevel, OdfStyles, TextFormat } from './styles.js';
import type { EmbeddedObject, ObjectSource } from './objects.js';
import { MATH_CLASS } from '../html/markdown.js';
import { childElements, firstChild, isElement, textOf, type XmlElement, type XmlNode } from './xml-tree.js';

/** Table cells written for one document (spans and repeats included): the HTML path's own grid bound. */
export const MAX_TABLE_CELLS = 1_000_000;
/** Pages a document may be split into; later breaks are ignored. */
export const MAX_PAGES = 10_000;
/** Copies of one repeated row or cell (number-rows-repeated / number-columns-repeated). */
const MAX_REPEAT = 1_000;
const MAX_SPAN = 1_000;

export interface BodyHtml {
  /** HTML of each page, in order (page 1 first); a page may be empty. */
  pages: string[];
  /** The note list (`<ol>` of `li#footnote-N` / `li#endnote-N`), '' when the document has no notes. */
  notes: string;
  warnings: string[];
}

/** Turns a picture reference (xlink:href, or base64 office:binary-data) into an img src. */
export type ImageSource = (reference: { href?: string; base64?: string }) => string | null;

const SKIPPED = new Set([
  'tracked-changes', 'sequence-decls', 'variable-decls', 'user-field-decls', 'dde-connection-decls', 'forms',
  'annotation', 'annotation-end', 'change', 'change-start', 'change-end', 'hidden-text', 'hidden-paragraph',
  'bookmark', 'bookmark-start', 'bookmark-end', 'reference-mark', 'reference-mark-start', 'reference-mark-end',
  'alphabetical-index-mark', 'alphabetical-index-mark-start', 'alphabetical-index-mark-end', 'toc-mark',
  'toc-mark-start', 'toc-mark-end', 'user-index-mark', 'user-index-mark-start', 'user-index-mark-end',
  'note-citation', 'title', 'desc', 'table-columns', 'table-column', 'table-column-group', 'table-header-columns',
  'index-title-template', 'table-of-content-source', 'alphabetical-index-source', 'illustration-index-source',
  'table-index-source', 'object-index-source', 'user-index-source', 'bibliography-source', 'control',
  'scripts', 'event-listeners', 'soft-page-break',
]);
const INDEXES = new Set(['table-of-content', 'alphabetical-index', 'illustration-index', 'table-index', 'object-index', 'user-index', 'bibliography']);
const SHAPES = new Set([
  'custom-shape', 'rect', 'ellipse', 'circle', 'polygon', 'polyline', 'path', 'line', 'connector', 'caption',
  'measure', 'regular-polygon', 'g',
]);

export function bodyToHtml(text: XmlElement, styles: OdfStyles, imageSource: ImageSource, objectSource: ObjectSource = () => null): BodyHtml {
  const writer = new BodyWriter(styles, imageSource, objectSource);
  return writer.document(text);
}

class BodyWriter {
  private readonly pages: string[] = [''];
  private pageIndex = 0;
  /** Page of the first text of the top-level element being written (null until it has text). */
  private elementStartPage: number | null = null;
  /** Whether any text was written since the last page break. */
  private pageHasText = false;
  /** Text and images written so far (tells whether a cell or element has content). */
  private marks = 0;
  private inNote = false;
  private cells = 0;
  private readonly footnotes: string[] = [];
  private readonly endnotes: string[] = [];
  private readonly warnings: string[] = [];
  /** Where the last numbered list of a style (and of an xml:id) ended, for continued numbering. */
  private readonly listEnds = new Map<string, number>();
  private lastListEnd: number | null = null;

  constructor(
    private readonly styles: OdfStyles,
    private readonly imageSource: ImageSource,
    private readonly objectSource: ObjectSource,
  ) {}

  document(text: XmlElement): BodyHtml {
    const children = childElements(text);
    // A document that uses no heading keeps the outline its writer made by hand (hand-made-headings.ts).
    const handMade = usesHeadings(text, this.styles)
      ? new Map<number, number>()
      : handMadeHeadingLevels(
          children.map((child) => this.look(child)),
          this.styles.defaultSize,
          children.some((child) => this.isTitle(child)) ? 2 : 1,
        );
    for (let index = 0; index < children.length; index += 1) {
      const child = children[index] as XmlElement;
      if (child.name === 'soft-page-break') {
        this.softBreak();
        continue;
      }
      const breaks = this.forcedBreaks(child);
      if (breaks.before && this.pageHasText) this.newPage();
      this.elementStartPage = null;
      let html: string;
      if (this.isPreformatted(child)) {
        // A run of preformatted paragraphs is one code block.
        const run = [child];
        while (index + 1 < children.length && this.isPreformatted(children[index + 1] as XmlElement)) run.push(children[(index += 1)] as XmlElement);
        html = this.preformatted(run);
      } else {
        const level = handMade.get(index);
        html = level === undefined ? this.block(child, 0) : this.heading(child, level, 0);
      }
      const page = this.elementStartPage ?? this.pageIndex;
      this.pages[page] += html;
      if (breaks.after && this.pageHasText) this.newPage();
    }
    let notes = '';
    if (this.footnotes.length + this.endnotes.length > 0) {
      notes = `<ol>${[
        ...this.footnotes.map((body, index) => `<li id="footnote-${index + 1}">${body}</li>`),
        ...this.endnotes.map((body, index) => `<li id="endnote-${index + 1}">${body}</li>`),
      ].join('')}</ol>`;
    }
    return { pages: this.pages, notes, warnings: this.warnings };
  }

  /** Whether a paragraph is in a Title or Subtitle style: a heading already, over the sections made by hand. */
  private isTitle(element: XmlElement): boolean {
    if (element.name !== 'p') return false;
    const role = this.styles.paragraph(element.attrs['style-name']).role;
    return role === 'title' || role === 'subtitle';
  }

  /** How a top-level element reads to the eye: a paragraph's text and type; anything else counts as text alone. */
  private look(element: XmlElement): ParagraphLook {
    if (element.name !== 'p' || this.isTitle(element)) return { text: normalise(plainText(element)), look: null, size: 0, bold: false, listed: true };
    const own = this.styles.look('paragraph', element.attrs['style-name']);
    let text = '';
    let look: string | null | undefined;
    let size = own.size ?? this.styles.defaultSize;
    let bold = own.bold ?? false;
    const visit = (node: XmlNode, type: { size: number; bold: boolean }, depth: number): void => {
      if (depth > MAX_NESTING) return;
      if (!isElement(node)) {
        text += node;
        if (!/\S/.test(node)) return;
        const key = `${type.size}|${type.bold}`;
        if (look === undefined) {
          look = key;
          size = type.size;
          bold = type.bold;
        } else if (look !== key) look = null;
        return;
      }
      if (node.name === 's' || node.name === 'tab' || node.name === 'line-break') text += ' ';
      // A note's body, a comment or a frame is no part of a line set as a heading.
      if (node.name === 'note' || node.name === 'annotation' || node.name === 'frame' || SKIPPED.has(node.name)) {
        if (node.name === 'frame') look = null;
        return;
      }
      let inner = type;
      if (node.name === 'span') {
        const span = this.styles.look('text', node.attrs['style-name']);
        inner = { size: span.size ?? type.size, bold: span.bold ?? type.bold };
      }
      for (const child of node.children) visit(child, inner, depth + 1);
    };
    visit(element, { size, bold }, 0);
    return { text: normalise(text), look: look ?? null, size, bold, listed: false };
  }

  private forcedBreaks(element: XmlElement): { before: boolean; after: boolean } {
    if (element.name === 'p' || element.name === 'h') {
      const style = this.styles.paragraph(element.attrs['style-name']);
      return { before: style.breakBefore, after: style.breakAfter };
    }
    if (element.name === 'table') return this.styles.tableBreaks(element.attrs['style-name']);
    return { before: false, after: false };
  }

  /** A break with nothing written since the previous one (a page style switch that also saved a soft break) is one break. */
  private softBreak(): void {
    if (this.inNote || !this.pageHasText) return;
    this.newPage();
  }

  private newPage(): void {
    if (this.pages.length >= MAX_PAGES) {
      const warning = `the document has more than ${MAX_PAGES} pages; the rest are on page ${MAX_PAGES}`;
      if (!this.warnings.includes(warning)) this.warnings.push(warning);
      return;
    }
    this.pages.push('');
    this.pageIndex = this.pages.length - 1;
    this.pageHasText = false;
  }

  private mark(): void {
    this.marks += 1;
    if (this.inNote) return;
    this.pageHasText = true;
    this.elementStartPage ??= this.pageIndex;
  }

  /** Block-level content: paragraphs, headings, lists, tables, sections... Runs of preformatted paragraphs merge. */
  private blocks(nodes: readonly XmlNode[], depth: number): string {
    let html = '';
    let run: XmlElement[] = [];
    for (const node of nodes) {
      if (!isElement(node)) continue;
      if (this.isPreformatted(node)) {
        run.push(node);
        continue;
      }
      if (run.length > 0) html += this.preformatted(run);
      run = [];
      html += this.block(node, depth);
    }
    if (run.length > 0) html += this.preformatted(run);
    return html;
  }

  private isPreformatted(element: XmlElement): boolean {
    return element.name === 'p' && this.styles.paragraph(element.attrs['style-name']).role === 'pre';
  }

  /** Preformatted paragraphs as one `pre`, their spacing kept (text:s counts, tabs). */
  private preformatted(paragraphs: readonly XmlElement[]): string {
    const lines = paragraphs.map((paragraph) => plainText(paragraph));
    if (lines.some((line) => /\S/.test(line))) this.mark();
    return `<pre>${escapeHtml(lines.join('\n'))}</pre>`;
  }

  private block(element: XmlElement, depth: number): string {
    if (depth > MAX_NESTING) return '';
    switch (element.name) {
      case 'h':
        return this.heading(element, headingLevel(element, this.styles), depth);
      case 'p':
        return this.paragraph(element, depth);
      case 'list':
        return this.list(element, 1, depth, null);
      case 'numbered-paragraph':
        return this.blocks(element.children.filter((child) => !isElement(child) || child.name !== 'number'), depth + 1);
      case 'table':
        return this.table(element, depth);
      case 'section':
        return element.attrs['display'] === 'none' ? '' : this.blocks(element.children, depth + 1);
      case 'soft-page-break':
        this.softBreak();
        return '';
      case 'frame': {
        const deferred: string[] = [];
        const image = this.frame(element, depth, deferred);
        return (image === '' ? '' : `<p>${image}</p>`) + deferred.join('');
      }
      default:
        if (SKIPPED.has(element.name)) return '';
        if (INDEXES.has(element.name)) {
          const body = firstChild(element, 'index-body');
          return body === undefined ? '' : this.blocks(body.children, depth + 1);
        }
        if (SHAPES.has(element.name)) return this.shape(element, depth);
        return this.blocks(element.children, depth + 1);
    }
  }

  private heading(element: XmlElement, level: number, depth: number): string {
    const deferred: string[] = [];
    const tag = `h${Math.min(Math.max(level, 1), 6)}`;
    const inner = this.inline(element.children, depth + 1, deferred, true);
    return `<${tag}>${inner}</${tag}>${deferred.join('')}`;
  }

  private paragraph(element: XmlElement, depth: number): string {
    const style = this.styles.paragraph(element.attrs['style-name']);
    if (style.outlineLevel !== null) return this.heading(element, style.outlineLevel, depth);
    if (style.role === 'title') return this.heading(element, 1, depth);
    if (style.role === 'subtitle') return this.heading(element, 2, depth);
    if (style.role === 'pre') return this.preformatted([element]);
    const deferred: string[] = [];
    let inner = this.inline(element.children, depth + 1, deferred, false);
    if (inner.trim() !== '') inner = wrap(inner, style.format);
    const open = style.role === 'caption' ? '<p class="caption">' : '<p>';
    const paragraph = `${open}${inner}</p>`;
    return (style.role === 'quote' ? `<blockquote>${paragraph}</blockquote>` : paragraph) + deferred.join('');
  }

  /** Inline content of a paragraph or heading; block content met on the way (text boxes) goes to `deferred`. */
  private inline(nodes: readonly XmlNode[], depth: number, deferred: string[], inHeading: boolean): string {
    if (depth > MAX_NESTING) return '';
    let html = '';
    for (const node of nodes) {
      if (!isElement(node)) {
        if (/\S/.test(node)) this.mark();
        html += escapeHtml(node);
        continue;
      }
      switch (node.name) {
        case 's':
        case 'tab':
          html += ' ';
          break;
        case 'line-break':
          html += '<br>';
          break;
        case 'soft-page-break':
          this.softBreak();
          break;
        case 'span': {
          const inner = this.inline(node.children, depth + 1, deferred, inHeading);
          html += inner.trim() === '' ? inner : wrap(inner, this.styles.textFormat(node.attrs['style-name']));
          break;
        }
        case 'a': {
          const inner = this.inline(node.children, depth + 1, deferred, inHeading);
          const href = node.attrs['href'];
          html += href ? `<a href="${escapeHtml(href)}">${inner}</a>` : inner;
          break;
        }
        case 'note':
          html += this.note(node, depth);
          break;
        case 'frame':
          html += this.frame(node, depth, deferred);
          break;
        case 'number':
          // The cached label of a numbered heading ("2.1"); list items are numbered by the Markdown list.
          if (inHeading) html += `${escapeHtml(textOf(node))} `;
          break;
        case 'list':
        case 'table':
        case 'p':
        case 'h':
          // Block content inside a paragraph (invalid but seen): after the paragraph.
          deferred.push(this.block(node, depth + 1));
          break;
        default:
          if (SKIPPED.has(node.name)) break;
          if (SHAPES.has(node.name)) {
            deferred.push(this.shape(node, depth + 1));
            break;
          }
          html += this.inline(node.children, depth + 1, deferred, inHeading);
      }
    }
    return html;
  }

  private note(element: XmlElement, depth: number): string {
    if (this.inNote) return '';
    const endnote = element.attrs['note-class'] === 'endnote';
    const list = endnote ? this.endnotes : this.footnotes;
    const number = list.length + 1;
    const id = `${endnote ? 'endnote' : 'footnote'}-${number}`;
    list.push('');
    const body = firstChild(element, 'note-body');
    this.inNote = true;
    try {
      list[number - 1] = body === undefined ? '' : this.blocks(body.children, depth + 1);
    } finally {
      this.inNote = false;
    }
    this.mark();
    return `<sup><a href="#${id}" id="${endnote ? 'endnote' : 'footnote'}-ref-${number}">[${number}]</a></sup>`;
  }

  /**
   * A frame's formula (as LaTeX, objects.ts) or image inline (first of its alternatives: an object's picture gives
   * way to what the object says), a chart's caption and table and its text box's content deferred.
   */
  private frame(element: XmlElement, depth: number, deferred: string[]): string {
    const title = normalise(textOf(firstChild(element, 'title') ?? ''));
    const description = normalise(textOf(firstChild(element, 'desc') ?? ''));
    let image = '';
    // An object read (a formula, a chart) stands in place of its picture.
    let objectRead = false;
    for (const child of childElements(element)) {
      if (child.name === 'object' && image === '' && !objectRead) {
        const object = this.objectSource(child.attrs['href'] ?? '');
        if (object === null) continue;
        objectRead = true;
        if (object.kind === 'formula') image = `<span class="${MATH_CLASS}">${escapeHtml(object.latex)}</span>`;
        else deferred.push(chartHtml(object));
        this.mark();
      } else if (child.name === 'image' && image === '' && !objectRead) {
        const base64 = firstChild(child, 'binary-data');
        const src = this.imageSource(base64 !== undefined ? { base64: textOf(base64) } : { href: child.attrs['href'] ?? '' });
        if (src === null) continue;
        const alt = title || description;
        const tooltip = title !== '' && description !== '' && description !== title ? ` title="${escapeHtml(description)}"` : '';
        image = `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}"${tooltip}>`;
        this.mark();
      } else if (child.name === 'text-box') {
        deferred.push(this.blocks(child.children, depth + 1));
      }
    }
    return image;
  }

  /** The paragraphs, lists and frames of a drawing shape or group. */
  private shape(element: XmlElement, depth: number): string {
    if (depth > MAX_NESTING) return '';
    let html = '';
    for (const child of childElements(element)) {
      if (child.name === 'p' || child.name === 'h' || child.name === 'list' || child.name === 'table') html += this.block(child, depth + 1);
      else if (child.name === 'frame') html += this.block(child, depth + 1);
      else if (SHAPES.has(child.name)) html += this.shape(child, depth + 1);
    }
    return html;
  }

  private list(element: XmlElement, level: number, depth: number, inheritedStyle: string | null): string {
    if (depth > MAX_NESTING) return '';
    const styleName = element.attrs['style-name'] || inheritedStyle || this.firstParagraphListStyle(element);
    const numbering: ListLevel = this.styles.listLevel(styleName, level);
    let next = numbering.start;
    if (numbering.ordered && level === 1) {
      const continued = element.attrs['continue-list'];
      const previous = continued !== undefined ? this.listEnds.get(`id:${continued}`) : element.attrs['continue-numbering'] === 'true' ? (this.listEnds.get(`style:${styleName ?? ''}`) ?? this.lastListEnd) : undefined;
      if (previous !== undefined && previous !== null) next = previous + 1;
    }
    const tag = numbering.ordered ? 'ol' : 'ul';
    let html = '';
    let items = '';
    let listStart = next;
    const flush = () => {
      if (items === '') return;
      html += numbering.ordered && listStart !== 1 ? `<ol start="${listStart}">${items}</ol>` : `<${tag}>${items}</${tag}>`;
      items = '';
    };
    for (const item of childElements(element)) {
      if (item.name === 'soft-page-break') {
        this.softBreak();
        continue;
      }
      if (item.name !== 'list-item' && item.name !== 'list-header') continue;
      const itemStart = Number.parseInt(item.attrs['start-value'] ?? '', 10);
      if (Number.isFinite(itemStart) && items === '') listStart = next = itemStart;
      // Headings in list items are numbered headings (Word's multi-level numbering): they leave the list.
      if (level === 1 && holdsHeading(item, 0)) {
        flush();
        html += this.headingItem(item, level, depth + 1, styleName);
        next += 1;
        listStart = next;
        continue;
      }
      const content = this.listItem(item, level, depth + 1, styleName);
      if (item.name === 'list-header' && items.endsWith('</li>')) {
        // An unnumbered paragraph in a list continues the item before it (a new item would shift the numbers).
        if (content !== '') items = `${items.slice(0, -'</li>'.length)}<br>${content}</li>`;
        continue;
      }
      if (items === '') listStart = next;
      items += `<li>${content}</li>`;
      if (item.name === 'list-item') next += 1;
    }
    flush();
    if (numbering.ordered && level === 1) {
      const end = next - 1;
      this.lastListEnd = end;
      this.listEnds.set(`style:${styleName ?? ''}`, end);
      const id = element.attrs['id'];
      if (id !== undefined) this.listEnds.set(`id:${id}`, end);
    }
    return html;
  }

  /** A list item holding headings, as blocks: its headings and paragraphs in order, nested lists without headings as lists. */
  private headingItem(item: XmlElement, level: number, depth: number, styleName: string | null): string {
    if (depth > MAX_NESTING) return '';
    let html = '';
    for (const child of childElements(item)) {
      if (child.name !== 'list') {
        html += this.blocks([child], depth + 1);
        continue;
      }
      const nestedStyle = child.attrs['style-name'] || styleName;
      if (!holdsHeading(child, 0)) {
        html += this.list(child, level + 1, depth + 1, nestedStyle);
        continue;
      }
      for (const nested of childElements(child)) {
        if (nested.name === 'list-item' || nested.name === 'list-header') html += this.headingItem(nested, level + 1, depth + 1, nestedStyle);
        else if (nested.name === 'soft-page-break') this.softBreak();
      }
    }
    return html;
  }

  /** An item's paragraphs on lines of their own (a tight list item), nested lists and other blocks after them. */
  private listItem(item: XmlElement, level: number, depth: number, styleName: string | null): string {
    const lines: string[] = [];
    let after = '';
    for (const child of childElements(item)) {
      if (child.name === 'p' || child.name === 'h') {
        const deferred: string[] = [];
        const style = this.styles.paragraph(child.attrs['style-name']);
        let inner = this.inline(child.children, depth + 1, deferred, false);
        if (inner.trim() !== '') lines.push(wrap(inner, style.format));
        inner = deferred.join('');
        if (inner !== '') after += inner;
      } else if (child.name === 'list') {
        after += this.list(child, level + 1, depth + 1, styleName);
      } else if (child.name === 'soft-page-break') {
        this.softBreak();
      } else {
        after += this.block(child, depth + 1);
      }
    }
    return lines.join('<br>') + after;
  }

  private firstParagraphListStyle(list: XmlElement): string | null {
    const item = firstChild(list, 'list-item');
    const paragraph = item === undefined ? undefined : (firstChild(item, 'p') ?? firstChild(item, 'h'));
    return paragraph === undefined ? null : this.styles.paragraph(paragraph.attrs['style-name']).listStyle;
  }

  private table(element: XmlElement, depth: number): string {
    if (depth > MAX_NESTING) return '';
    const head: string[] = [];
    const body: string[] = [];
    const collect = (container: XmlElement, header: boolean, level: number) => {
      for (const child of childElements(container)) {
        switch (child.name) {
          case 'table-row':
            (header ? head : body).push(...this.rows(child, header, depth + level));
            break;
          case 'table-header-rows':
            collect(child, true, level + 1);
            break;
          case 'table-rows':
          case 'table-row-group':
            if (level < MAX_NESTING) collect(child, header, level + 1);
            break;
          case 'soft-page-break':
            this.softBreak();
            break;
          default:
            break;
        }
      }
    };
    collect(element, false, 1);
    if (head.length + body.length === 0) return '';
    return `<table>${head.length > 0 ? `<thead>${head.join('')}</thead>` : ''}<tbody>${body.join('')}</tbody></table>`;
  }

  /** One row as `<tr>` elements: several when it is repeated and has text. */
  private rows(row: XmlElement, header: boolean, depth: number): string[] {
    const before = this.marks;
    let cells = '';
    for (const cell of childElements(row)) {
      if (cell.name === 'soft-page-break') this.softBreak();
      if (cell.name !== 'table-cell') continue;
      cells += this.cell(cell, header, depth + 1);
    }
    const hasText = this.marks > before;
    const repeat = hasText ? clampCount(row.attrs['number-rows-repeated'], MAX_REPEAT) : 1;
    const html = `<tr>${cells}</tr>`;
    return new Array<string>(repeat).fill(html);
  }

  private cell(cell: XmlElement, header: boolean, depth: number): string {
    const before = this.marks;
    const content = this.blocks(cell.children, depth + 1);
    const hasText = this.marks > before;
    const colspan = clampCount(cell.attrs['number-columns-spanned'], MAX_SPAN);
    const rowspan = clampCount(cell.attrs['number-rows-spanned'], MAX_SPAN * 100);
    const repeat = clampCount(cell.attrs['number-columns-repeated'], MAX_REPEAT);
    const tag = header ? 'th' : 'td';
    const spans = (columns: number) => `${columns > 1 ? ` colspan="${columns}"` : ''}${rowspan > 1 ? ` rowspan="${rowspan}"` : ''}`;
    // Empty repeated cells (a table padded to a wide grid) take one element spanning their columns.
    const copies = hasText ? repeat : 1;
    const columns = hasText ? colspan : Math.min(colspan * repeat, MAX_SPAN);
    this.cells += copies * columns * rowspan;
    if (this.cells > MAX_TABLE_CELLS) {
      throw new EngineError('DOCUMENT_TOO_COMPLEX', `the document's tables have more than ${MAX_TABLE_CELLS.toLocaleString('en-US')} cells`);
    }
    return `<${tag}${spans(columns)}>${content}</${tag}>`.repeat(copies);
  }
}

/** Nesting of ODF elements walked (the XML parser refuses deeper documents first). */
const MAX_NESTING = 300;

/** Whether a list item or list has a heading in an item, at any list level below it. */
function holdsHeading(element: XmlElement, depth: number): boolean {
  if (depth > MAX_NESTING) return false;
  for (const child of childElements(element)) {
    if (child.name === 'h') return true;
    if ((child.name === 'list' || child.name === 'list-item' || child.name === 'list-header') && holdsHeading(child, depth + 1)) return true;
  }
  return false;
}

function headingLevel(element: XmlElement, styles: OdfStyles): number {
  const level = Number.parseInt(element.attrs['outline-level'] ?? '', 10);
  if (Number.isFinite(level) && level > 0) return level;
  return styles.paragraph(element.attrs['style-name']).outlineLevel ?? 1;
}

/** A chart as slides write one: its caption (`Chart: Sales`) in italics, then its data as a table. */
function chartHtml(chart: Extract<EmbeddedObject, { kind: 'chart' }>): string {
  const title = chart.title.replace(/\s+/g, ' ').trim();
  const caption = `<p><em>${escapeHtml(title === '' ? 'Chart' : `Chart: ${title}`)}</em></p>`;
  const rows = chart.rows.filter((row) => row.some((cell) => cell.trim() !== ''));
  if (rows.length < 2) return caption;
  const cells = (row: readonly string[], tag: 'th' | 'td') => row.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join('');
  const [header = [], ...body] = rows;
  return `${caption}<table><thead><tr>${cells(header, 'th')}</tr></thead><tbody>${body.map((row) => `<tr>${cells(row, 'td')}</tr>`).join('')}</tbody></table>`;
}

function wrap(inner: string, format: TextFormat): string {
  let html = inner;
  if (format.position === 'super') html = `<sup>${html}</sup>`;
  if (format.position === 'sub') html = `<sub>${html}</sub>`;
  if (format.code) html = `<code>${html}</code>`;
  if (format.strike) html = `<del>${html}</del>`;
  if (format.italic) html = `<em>${html}</em>`;
  if (format.bold) html = `<strong>${html}</strong>`;
  return html;
}

function clampCount(value: string | undefined, max: number): number {
  const count = Number.parseInt(value ?? '1', 10);
  if (!Number.isFinite(count) || count < 1) return 1;
  return Math.min(count, max);
}

/** The text of a paragraph as written: text:s as its count of spaces, tabs, line breaks as new lines. */
export function plainText(node: XmlNode, depth = 0): string {
  if (typeof node === 'string') return node.replace(/[\r\n]+/g, ' ');
  if (depth > MAX_NESTING) return '';
  switch (node.name) {
    case 's':
      return ' '.repeat(clampCount(node.attrs['c'], 1000));
    case 'tab':
      return '\t';
    case 'line-break':
      return '\n';
    case 'note':
    case 'frame':
      return '';
    default:
      if (SKIPPED.has(node.name)) return '';
  }
  let text = '';
  for (const child of node.children) text += plainText(child, depth + 1);
  return text;
}

/** Whether a document writes any heading: a `text:h`, or a paragraph in a heading style. */
function usesHeadings(text: XmlElement, styles: OdfStyles): boolean {
  const stack: XmlElement[] = [text];
  while (stack.length > 0) {
    const element = stack.pop() as XmlElement;
    if (element.name === 'h') return true;
    if (element.name === 'p') {
      const style = styles.paragraph(element.attrs['style-name']);
      // A Title or Subtitle style alone is no outline: sections made by hand may go under it.
      if (style.outlineLevel !== null) return true;
      continue;
    }
    for (const child of childElements(element)) stack.push(child);
  }
  return false;
}

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : '&quot;'));
}
