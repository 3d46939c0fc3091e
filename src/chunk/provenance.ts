/**
 * Where a stretch of the Markdown came from: its page (from page markers, else the blocks' markdownSpans, else
 * the per-page Markdown found in the document's) and the layout blocks it covers, with the ranges that are
 * furniture and must stay out of every chunk.
 */
import type { ParseData } from '../contract/response.js';
import { pageMarkersOf, type Range } from './structure.js';

/** Block types that are page furniture, never document content. */
export const FURNITURE_TYPES: ReadonlySet<string> = new Set(['page_header', 'page_footer', 'page_number']);

export type Bbox = [number, number, number, number];

export interface LocatedBlock extends Range {
  id?: string;
  page: number;
  bbox: Bbox | null;
  type: string;
}

export interface Provenance {
  /** Ranges no chunk may contain (page markers, furniture), sorted and disjoint. */
  barriers: Range[];
  /** Content blocks with a markdownSpan, sorted by start. */
  blocks: LocatedBlock[];
  /** The page of the character at `offset`; null when the parse said nothing about pages. */
  pageAt(offset: number): number | null;
}

interface Anchor {
  start: number;
  page: number;
}

export function provenanceOf(data: ParseData, markdown: string): Provenance {
  const markers = pageMarkersOf(markdown);
  const furniture: Range[] = [];
  const blocks: LocatedBlock[] = [];
  for (const page of data.blocks ?? []) {
    for (const item of page.items) {
      const span = item.markdownSpan;
      if (!span || span[0] < 0 || span[1] > markdown.length || span[0] >= span[1]) continue;
      if (FURNITURE_TYPES.has(item.type)) {
        furniture.push({ start: span[0], end: span[1] });
        continue;
      }
      blocks.push({ start: span[0], end: span[1], id: item.id, page: page.pageNumber, bbox: item.bbox ?? null, type: item.type });
    }
  }
  blocks.sort((a, b) => a.start - b.start || a.end - b.end);
  // Markers are written between pages only, so the text before the first one is on the first page parsed.
  const firstPage = data.pages?.[0]?.pageNumber ?? 1;
  let anchors: Anchor[];
  if (markers.length > 0) {
    anchors = [{ start: 0, page: firstPage }, ...markers.map((marker) => ({ start: marker.end, page: marker.page }))];
  } else if (blocks.length > 0) {
    anchors = blocks.map((block) => ({ start: block.start, page: block.page }));
  } else {
    anchors = anchorsFromPages(data, markdown);
  }
  const single = data.metadata?.numPages === 1 || data.pages?.length === 1 ? firstPage : null;
  return {
    barriers: mergeRanges([...markers, ...furniture]),
    blocks,
    pageAt: (offset) => (anchors.length === 0 ? single : pageOfAnchor(anchors, offset)),
  };
}

/** The last anchor at or before `offset` (the first anchor's page before it). */
function pageOfAnchor(anchors: Anchor[], offset: number): number {
  let low = 0;
  let high = anchors.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (anchors[middle]!.start <= offset) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return anchors[found]!.page;
}

/**
 * Pages without blocks or markers: each page's Markdown is looked for in the document's, in order, by its
 * opening characters; a page not found (rewritten, or empty) leaves the previous page's anchor in force.
 */
function anchorsFromPages(data: ParseData, markdown: string): Anchor[] {
  const anchors: Anchor[] = [];
  let cursor = 0;
  for (const page of data.pages ?? []) {
    const probe = page.markdown.trim().slice(0, 80);
    if (probe === '') continue;
    const at = markdown.indexOf(probe, cursor);
    if (at === -1) continue;
    anchors.push({ start: anchors.length === 0 ? 0 : at, page: page.pageNumber });
    cursor = at + probe.length;
  }
  return anchors;
}

function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged: Range[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ start: range.start, end: range.end });
  }
  return merged;
}

/** The blocks overlapping [start, end), in Markdown order. */
export function blocksIn(blocks: LocatedBlock[], start: number, end: number): LocatedBlock[] {
  let low = 0;
  let high = blocks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (blocks[middle]!.start < start) low = middle + 1;
    else high = middle;
  }
  // Blocks that start before `start` may still reach into it (a chunk starting mid-block).
  let first = low;
  while (first > 0 && blocks[first - 1]!.end > start) first--;
  if (first > 0 && low > 0) {
    // A long block further back can also cover `start`; a short backwards scan finds the usual cases.
    for (let i = first - 1; i >= Math.max(0, first - 8); i--) if (blocks[i]!.end > start) first = i;
  }
  const found: LocatedBlock[] = [];
  for (let i = first; i < blocks.length && blocks[i]!.start < end; i++) {
    if (blocks[i]!.end > start) found.push(blocks[i]!);
  }
  return found;
}
