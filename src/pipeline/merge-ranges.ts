/**
 * Merges the parse results of a PDF's page ranges into the `data` one parse of the whole PDF would have given:
 * Markdown joined as the renderer joins pages, page numbers shifted by each range's offset, `<!-- page N -->`
 * markers renumbered, block ids and `markdownSpan`s moved to the merged Markdown (a span still slices its block's
 * text out of it), `numPages` and `creditsUsed` summed, `totalPages` the whole document's, warnings joined.
 *
 * Pure: no I/O, so a merge can be rerun from checkpoints and tested on its own.
 */
import type { BlockItem, PageBlocks, PageMarkdown, ParseData, ParseMetadata } from '../contract/response.js';

/** Joins blocks and, without page markers, pages (src/engine/render.ts joins the same way). */
const PAGE_SEPARATOR = '\n\n';

/** The separator before page N when page markers are on (spec: "pageMarkers"). */
export function pageMarkerSeparator(pageNumber: number): string {
  return `\n\n---\n\n<!-- page ${pageNumber} -->\n\n`;
}

const MARKER_PATTERN = /\n\n---\n\n<!-- page (\d+) -->\n\n/g;
const BLOCK_ID_PATTERN = /^p(\d+)\.b(\d+)$/;

export interface RangeResult {
  /** 1-based physical page of the whole document that the range's page 1 is. */
  firstPage: number;
  /** Last page of the whole document in the range (inclusive). */
  lastPage: number;
  /** The parse result of the range alone, pages numbered from 1. */
  data: ParseData;
}

export interface MergeSettings {
  /** Whether the ranges were parsed with `pageMarkers`: the merge joins ranges with a marker then. */
  pageMarkers: boolean;
  /** The whole document's page count (before any maxPages cap). */
  totalPages: number;
  /**
   * Whether the document asked for `pages[]`. Ranges may have been given it only so the merge knows which page each
   * range's Markdown starts on (see rangeOptions in long-pdf.ts); it is left out of the result then. @default true
   */
  keepPages?: boolean;
}

/** A marker inside a range's Markdown, renumbered: where it was, and how much longer the new text is. */
interface Renumbered {
  markdown: string;
  /** Maps an offset in the range's own Markdown to one in the renumbered Markdown. */
  shift(offset: number): number;
}

function renumberMarkers(markdown: string, offset: number): Renumbered {
  const edits: Array<{ end: number; delta: number }> = [];
  let delta = 0;
  const renumbered = markdown.replace(MARKER_PATTERN, (match, page: string, at: number) => {
    const replacement = pageMarkerSeparator(Number(page) + offset);
    delta += replacement.length - match.length;
    edits.push({ end: at + match.length, delta });
    return replacement;
  });
  return {
    markdown: renumbered,
    shift: (position) => {
      let moved = 0;
      // Spans never straddle a marker; every marker that ends at or before the position moved it.
      for (const edit of edits) {
        if (edit.end <= position) moved = edit.delta;
        else break;
      }
      return position + moved;
    },
  };
}

/** The range-local page whose content its Markdown starts with: the first page that put anything in it. */
function firstContentPage(data: ParseData): number {
  const fromPages = data.pages?.find((page) => page.markdown !== '')?.pageNumber;
  if (fromPages !== undefined) return fromPages;
  const fromBlocks = data.blocks?.find((page) => page.items.some((item) => item.markdownSpan))?.pageNumber;
  return fromBlocks ?? 1;
}

export function mergeRangeResults(ranges: readonly RangeResult[], settings: MergeSettings): ParseData {
  const ordered = [...ranges].sort((a, b) => a.firstPage - b.firstPage);
  let markdown: string | undefined;
  let pages: PageMarkdown[] | undefined;
  let blocks: PageBlocks[] | undefined;
  const warnings: string[] = [];
  const summaries: string[] = [];
  const htmls: string[] = [];
  let links: string[] | undefined;
  let images: string[] | undefined;
  const usedIds = new Set<string>();
  let numPages: number | undefined;
  let creditsUsed: number | undefined;
  let queueMs: number | undefined;
  let concurrencyLimited = false;
  let first: ParseData | undefined;
  const rest: Record<string, unknown> = {};

  for (const range of ordered) {
    const { data } = range;
    first ??= data;
    const offset = range.firstPage - 1;
    // Where the range's own Markdown starts in the merged Markdown, once its separator is added.
    let base = 0;
    let shift: (position: number) => number = (position) => position;
    if (typeof data.markdown === 'string') {
      const own = renumberMarkers(data.markdown, offset);
      shift = own.shift;
      markdown ??= '';
      if (own.markdown !== '' && markdown !== '') {
        markdown += settings.pageMarkers ? pageMarkerSeparator(firstContentPage(data) + offset) : PAGE_SEPARATOR;
      }
      base = markdown.length;
      markdown += own.markdown;
    }
    if (data.pages) {
      pages ??= [];
      for (const page of data.pages) pages.push({ ...page, pageNumber: page.pageNumber + offset });
    }
    if (data.blocks) {
      blocks ??= [];
      for (const page of data.blocks) {
        const pageNumber = page.pageNumber + offset;
        const items = page.items.map((item): BlockItem => {
          const span = item.markdownSpan;
          return {
            ...item,
            id: uniqueId(renumberId(item.id, offset), usedIds, range.firstPage),
            markdownSpan: span ? [base + shift(span[0]), base + shift(span[1])] : (span ?? null),
          };
        });
        blocks.push({ ...page, pageNumber, items });
      }
    }
    if (data.warning) warnings.push(data.warning);
    if (typeof data.summary === 'string' && data.summary !== '') summaries.push(data.summary);
    if (typeof data.html === 'string') htmls.push(data.html);
    if (data.links) links = [...new Set([...(links ?? []), ...data.links])];
    if (data.images) images = [...new Set([...(images ?? []), ...data.images])];
    const metadata = data.metadata;
    if (metadata?.numPages !== undefined) numPages = (numPages ?? 0) + metadata.numPages;
    if (metadata?.creditsUsed !== undefined) creditsUsed = (creditsUsed ?? 0) + metadata.creditsUsed;
    if (metadata?.concurrencyLimited) {
      concurrencyLimited = true;
      queueMs = (queueMs ?? 0) + (metadata.concurrencyQueueDurationMs ?? 0);
    }
    // Fields the contract does not name (and json, rawHtml): the first range that has one gives it.
    for (const [key, value] of Object.entries(data)) {
      if (!(key in rest) && !MERGED_FIELDS.has(key) && value !== undefined && value !== null) rest[key] = value;
    }
  }

  const merged: ParseData = { ...rest };
  if (markdown !== undefined) merged.markdown = markdown;
  if (pages && settings.keepPages !== false) merged.pages = pages;
  if (blocks) merged.blocks = blocks;
  if (summaries.length > 0) merged.summary = summaries.join(PAGE_SEPARATOR);
  if (htmls.length > 0) merged.html = htmls.join('\n');
  if (links) merged.links = links;
  if (images) merged.images = images;
  // The same warning from every range (a missing OCR language...) is one warning about the document.
  const distinct = [...new Set(warnings)];
  if (distinct.length > 0) merged.warning = distinct.join(' ');
  if (first?.metadata) {
    const metadata: ParseMetadata = { ...first.metadata, totalPages: settings.totalPages };
    if (numPages !== undefined) metadata.numPages = numPages;
    if (creditsUsed !== undefined) metadata.creditsUsed = creditsUsed;
    if (concurrencyLimited) {
      metadata.concurrencyLimited = true;
      metadata.concurrencyQueueDurationMs = queueMs ?? 0;
    }
    merged.metadata = metadata;
  }
  return merged;
}

const MERGED_FIELDS = new Set(['markdown', 'pages', 'blocks', 'warning', 'summary', 'html', 'links', 'images', 'metadata']);

function renumberId(id: string, offset: number): string {
  const match = BLOCK_ID_PATTERN.exec(id);
  return match ? `p${Number(match[1]) + offset}.b${match[2]}` : id;
}

/** Ids are unique within a response; an id of another shape that two ranges share gets its range's first page. */
function uniqueId(id: string, used: Set<string>, firstPage: number): string {
  let candidate = id;
  for (let n = 0; used.has(candidate); n++) candidate = `${id}.r${firstPage}${n === 0 ? '' : `.${n}`}`;
  used.add(candidate);
  return candidate;
}
