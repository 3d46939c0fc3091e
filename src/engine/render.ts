/**
 * The one renderer: DocumentModel → the contract's `data` (markdown, pages, blocks with exact markdownSpan,
 * page markers, links, images, html, rawHtml, summary, metadata). Converters never format these themselves.
 */
import type { ParseOptions } from '../contract/options.js';
import { pdfParserOf, wantsFormat } from '../contract/options.js';
import type { BlockItem, PageBlocks, ParseData } from '../contract/response.js';
import type { DocumentModel, ModelBlock, ModelPage } from './model.js';
import { markdownToHtml } from './markdown-html.js';
import { summarise } from './summary/extractive-summary.js';

const BLOCK_SEPARATOR = '\n\n';

/** The separator before page N when page markers are on (spec: "pageMarkers"). */
export function pageMarker(pageNumber: number): string {
  return `\n\n---\n\n<!-- page ${pageNumber} -->\n\n`;
}

export interface RenderContext {
  contentType: string;
}

/** Whether a block's text goes into the document Markdown: it has some, and is not furniture left out by onlyMainContent. */
export function inDocumentMarkdown(block: ModelBlock, options: Pick<ParseOptions, 'onlyMainContent'>): boolean {
  return !(options.onlyMainContent && block.furniture) && block.markdown.trim() !== '';
}

/** A paragraph of the document's text: what a paragraph broken by a page or column break can carry on from. */
function isRunningText(block: ModelBlock): boolean {
  return block.type === 'text' && (block.label ?? null) === null && block.furniture !== true;
}

/**
 * What parts `block` from `before`, the block written just before it, where it reads on from it: a space, or
 * nothing inside a word; undefined where a blank line (or a page marker) does.
 */
function runOnSeparator(block: ModelBlock, before: ModelBlock | undefined): string | undefined {
  if (block.carriesOn === undefined || before === undefined) return undefined;
  if (block.carriesOn === 'row') return before.type === 'table' ? '\n' : undefined;
  if (!isRunningText(before)) return undefined;
  return block.carriesOn === 'word' ? '' : ' ';
}

/**
 * What goes before `block` in the Markdown: its run-on separator where it reads on from `before`, else `otherwise`
 * (a blank line, a page marker), followed by the header of the table whose rows it continues, if it does.
 */
function separatorBefore(block: ModelBlock, before: ModelBlock | undefined, otherwise: string): string {
  const runOn = runOnSeparator(block, before);
  if (runOn !== undefined) return runOn;
  return block.carriesOn === 'row' && block.tableHead !== undefined ? `${otherwise}${block.tableHead}\n` : otherwise;
}

interface RenderedPage {
  page: ModelPage;
  markdown: string;
  items: BlockItem[];
}

export function renderDocument(model: DocumentModel, options: ParseOptions, context: RenderContext): ParseData {
  const pdf = pdfParserOf(options);
  let markdown = '';
  const rendered: RenderedPage[] = [];
  // The last block written to the document Markdown, and its page.
  let last: { block: ModelBlock; pageNumber: number } | undefined;
  for (const page of model.pages) {
    // Each block's offset in the page's Markdown (undefined: not in it).
    const offsets: (number | undefined)[] = [];
    let pageMarkdown = '';
    let first: ModelBlock | undefined;
    let before: ModelBlock | undefined;
    for (const block of page.blocks) {
      if (!inDocumentMarkdown(block, options)) {
        offsets.push(undefined);
        continue;
      }
      if (before) pageMarkdown += separatorBefore(block, before, BLOCK_SEPARATOR);
      offsets.push(pageMarkdown.length);
      pageMarkdown += block.markdown;
      first ??= block;
      before = block;
    }
    // Spans are offsets into the document Markdown: work out where this page starts in it first.
    let pageStart = markdown.length;
    if (pageMarkdown !== '') {
      if (markdown !== '') {
        // A paragraph broken by the page break reads on with a space, and no marker parts it (the spec lets
        // the markers skip a page merged across its break).
        const before = last !== undefined && last.pageNumber === page.pageNumber - 1 ? last.block : undefined;
        markdown += separatorBefore(first!, before, pdf.pageMarkers ? pageMarker(page.pageNumber) : BLOCK_SEPARATOR);
      }
      pageStart = markdown.length;
      markdown += pageMarkdown;
      last = { block: before!, pageNumber: page.pageNumber };
    }
    const items: BlockItem[] = [];
    page.blocks.forEach((block, index) => {
      const offset = offsets[index];
      const span: [number, number] | null = offset === undefined ? null : [pageStart + offset, pageStart + offset + block.markdown.length];
      items.push({
        id: `p${page.pageNumber}.b${index}`,
        type: block.type,
        label: block.label ?? null,
        bbox: block.bbox ?? null,
        content: block.markdown,
        markdownSpan: span,
        readingOrder: index,
        source: block.source,
        confidence: block.confidence ?? { layout: null, ocr: null },
        ...(block.image === undefined ? {} : { image: block.image }),
        ...(block.caption === undefined ? {} : { caption: block.caption }),
      });
    });
    rendered.push({ page, markdown: pageMarkdown, items });
  }

  const data: ParseData = {};
  if (wantsFormat(options, 'markdown')) data.markdown = markdown;
  // A rendered page's picture (`--page-images`) goes with the page's entries, beside the contract's fields.
  const pageImage = (page: ModelPage) => (page.image === undefined ? {} : { image: page.image });
  if (pdf.pages) data.pages = rendered.map(({ page, markdown: text }) => ({ pageNumber: page.pageNumber, markdown: text, ...pageImage(page) }));
  if (pdf.blocks) data.blocks = rendered.map(({ page, items }): PageBlocks => ({
    pageNumber: page.pageNumber,
    width: page.width,
    height: page.height,
    status: page.status,
    items,
    ...pageImage(page),
  }));
  if (wantsFormat(options, 'summary')) data.summary = summarise(markdown);
  if (wantsFormat(options, 'html')) data.html = model.html ?? markdownToHtml(markdown);
  if (wantsFormat(options, 'rawHtml')) data.rawHtml = model.rawHtml ?? null;
  if (wantsFormat(options, 'links')) data.links = model.links ?? linksInMarkdown(markdown);
  if (wantsFormat(options, 'images')) data.images = model.images ?? imagesInMarkdown(markdown);
  if (model.warnings && model.warnings.length > 0) data.warning = model.warnings.join(' ');
  data.metadata = { ...stringifyMetadata(model.metadata), contentType: context.contentType };
  return data;
}

function stringifyMetadata(metadata: DocumentModel['metadata']): Record<string, string | string[] | number> {
  const result: Record<string, string | string[] | number> = {};
  for (const [key, value] of Object.entries(metadata)) {
    result[key] = typeof value === 'boolean' ? String(value) : value;
  }
  return result;
}

const LINK_PATTERN = /(?<!!)\[[^\]]*\]\((\S+?)(?:\s+"[^"]*")?\)/g;
const IMAGE_PATTERN = /!\[[^\]]*\]\((\S+?)(?:\s+"[^"]*")?\)/g;
const BARE_URL_PATTERN = /\bhttps?:\/\/[^\s<>()[\]"'`]+[^\s<>()[\]"'`.,;:!?]/g;

export function linksInMarkdown(markdown: string): string[] {
  const links = new Set<string>();
  for (const match of markdown.matchAll(LINK_PATTERN)) if (match[1]) links.add(match[1]);
  for (const match of markdown.matchAll(BARE_URL_PATTERN)) links.add(match[0]);
  return [...links];
}

function imagesInMarkdown(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(IMAGE_PATTERN)].flatMap((match) => (match[1] ? [match[1]] : [])))];
}
