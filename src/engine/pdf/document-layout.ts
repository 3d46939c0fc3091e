/**
 * Document-wide decisions over the pages' blocks: the body font, headings and their levels, page furniture;
 * then the model's pages and blocks (bbox normalised to the page, top-left origin). Pure.
 */
import type { ModelBlock, ModelPage } from '../model.js';
import { classifyFurniture, furnitureKey, isPageNumberText, runningLineOf, type FurnitureCandidate, type RunningLine } from './furniture.js';
import { escapeInline } from './markdown.js';
import { LAYOUT_OCR_SOURCE } from './ocr/ocr-layout.js';
import { bodySizeOf, charsInSizeClass, classifyHeadings, isNumberedHeadingLine, mergeHistograms, type HeadingCandidate, type SizeHistogram } from './headings.js';
import type { PageLayout } from './page-layout.js';
import { blocksRunningOn } from './paragraph-run-on.js';
import { addToVocabulary, emptyVocabulary, HYPHEN_MARK, resolveHyphens } from './paragraphs.js';
import { stitchTables } from './table-stitch.js';
import { taggedHeadings } from './tagged-headings.js';
import { outlineHeadings, type OutlineEntry } from './outline-headings.js';
import { COMMENTS_LABEL } from './page-comments.js';
import type { ProtoBlock, Rect } from './types.js';
import { isCentredBetween } from './measure.js';
import { spacedWords } from './white-space.js';

export const SOURCE = 'native_text';

/** Margin lines set this many times the body's size or bigger are headings, never running heads. */
const DISPLAY_MARGIN = 1.3;

export interface LaidOutPage {
  pageNumber: number;
  width: number | null;
  height: number | null;
  status: ModelPage['status'];
  layout: PageLayout | null;
  /** How the page's text was obtained: native_text (the default) or full_page (the whole page was OCR'd). */
  source?: string;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

export function normaliseBbox(rect: Rect, width: number | null, height: number | null): ModelBlock['bbox'] {
  if (!width || !height || width <= 0 || height <= 0) return null;
  const values = [rect.x0 / width, rect.y0 / height, rect.x1 / width, rect.y1 / height];
  if (!values.every(Number.isFinite)) return null;
  const [x0, y0, x1, y1] = values.map((v) => round(clamp01(v))) as [number, number, number, number];
  return [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
}

interface Ref {
  page: number;
  index: number;
  block: ProtoBlock;
}

/** Whether a block is centred between its page's text edges (isCentredBetween). */
function isCentredOnPage(rect: Rect, size: number, edges: { x0: number; x1: number } | undefined): boolean {
  return edges !== undefined && isCentredBetween(rect.x0, rect.x1, edges.x0, edges.x1, size);
}

export function finishDocument(pages: readonly LaidOutPage[], outline: readonly OutlineEntry[] = []): ModelPage[] {
  const sizes: SizeHistogram = new Map();
  const boldSizes: SizeHistogram = new Map();
  for (const page of pages) {
    if (!page.layout) continue;
    mergeHistograms(sizes, page.layout.sizes);
    mergeHistograms(boldSizes, page.layout.boldSizes);
  }
  const bodySize = bodySizeOf(sizes);
  const bodyBold = charsInSizeClass(boldSizes, bodySize) > 0.5 * charsInSizeClass(sizes, bodySize);

  const refs: Ref[] = [];
  for (const page of pages) {
    page.layout?.blocks.forEach((block, index) => refs.push({ page: page.pageNumber, index, block }));
  }
  // Line-end hyphens left undecided by the page layout are settled with the whole document's words.
  if (refs.some((ref) => ref.block.text.includes(HYPHEN_MARK))) {
    const vocabulary = emptyVocabulary();
    for (const ref of refs) addToVocabulary(vocabulary, ref.block.text);
    for (const ref of refs) {
      ref.block.text = resolveHyphens(ref.block.text, vocabulary);
      ref.block.markdown = resolveHyphens(ref.block.markdown, vocabulary);
    }
  }

  // A margin line set in display type (1.3 × the body) is a heading, not a running head, unless it is a page number:
  // chapter headings that differ only in their numbers recur like a header at the tops of their pages.
  const zoneRefs = refs.filter(({ block }) => block.zone && (!(block.size >= DISPLAY_MARGIN * bodySize) || isPageNumberText(block.text)));
  const furnitureCandidates: FurnitureCandidate[] = zoneRefs.map((ref) => ({
    page: ref.page,
    zone: ref.block.zone!,
    text: ref.block.text,
    numberApart: ref.block.numberApart === true,
    cells: ref.block.zoneCells ?? [{ text: ref.block.text, x0: ref.block.rect.x0 }],
  }));
  const furniture = new Map<ProtoBlock, ModelBlock['type']>();
  classifyFurniture(furnitureCandidates).forEach((type, i) => {
    const block = zoneRefs[i]!.block;
    // A tagged PDF's artifact is furniture on its page alone (a first page's own header).
    if (type) furniture.set(block, type);
    else if (block.artifact) furniture.set(block, isPageNumberText(block.text) ? 'page_number' : block.zone === 'top' ? 'page_header' : 'page_footer');
  });
  takeRunningLinesOfTheBody(refs, furniture);

  const body = { size: bodySize, bold: bodyBold };
  const headingRefs = refs.filter(
    ({ block }) =>
      (block.kind === 'paragraph' || (block.kind === 'list' && isNumberedHeadingLine(block.text, block.size, block.lines, body))) &&
      !block.chartLabel &&
      !furniture.has(block) &&
      block.source === undefined,
  );
  const orderOnPage = new Map<ProtoBlock, number>();
  for (const page of pages) {
    let order = 0;
    for (const block of page.layout?.blocks ?? []) if (!furniture.has(block)) orderOnPage.set(block, order++);
  }
  // The words of running headers that recur over pages: a title set in the chapters' type is told by them.
  const headPages = new Map<string, Set<number>>();
  for (const { page, block } of refs) {
    if (furniture.get(block) !== 'page_header') continue;
    const words = spacedWords(block.text.toLowerCase());
    headPages.set(words, (headPages.get(words) ?? new Set()).add(page));
  }
  const runningHeads = new Set([...headPages].filter(([, on]) => on.size >= 2).map(([words]) => words));
  // Each page's text from its left edge to its right, for headings centred on it.
  const textEdges = new Map<number, { x0: number; x1: number }>();
  for (const { page, block } of refs) {
    if (furniture.has(block)) continue;
    const edges = textEdges.get(page);
    textEdges.set(page, edges ? { x0: Math.min(edges.x0, block.rect.x0), x1: Math.max(edges.x1, block.rect.x1) } : { x0: block.rect.x0, x1: block.rect.x1 });
  }
  const headingCandidates: HeadingCandidate[] = headingRefs.map((ref) => ({
    page: ref.page,
    text: ref.block.text,
    size: ref.block.size,
    bold: ref.block.bold,
    lines: ref.block.lines,
    order: orderOnPage.get(ref.block) ?? 0,
    centred: isCentredOnPage(ref.block.rect, ref.block.size, textEdges.get(ref.page)),
    runsAsHeader: runningHeads.has(spacedWords(ref.block.text.toLowerCase())),
  }));
  const firstPage = pages[0]?.pageNumber ?? 1;
  const headings = new Map<ProtoBlock, { type: 'title' | 'section_header'; level: number }>();
  classifyHeadings(headingCandidates, body, firstPage).forEach((decision, i) => {
    if (decision) headings.set(headingRefs[i]!.block, decision);
  });
  // A tagged PDF's own outline, where it has one, over the layout's reading of sizes and weights.
  const flowRefs = refs.filter((ref) => !furniture.has(ref.block));
  const tagged = taggedHeadings(flowRefs.map((ref) => ref.block));
  tagged?.forEach((decision, i) => {
    if (decision === undefined) return;
    const block = flowRefs[i]!.block;
    if (decision === null) headings.delete(block);
    else headings.set(block, decision);
  });
  // Else its bookmarks, where they name its headings.
  if (!tagged && outline.length > 0) {
    for (const [block, decision] of outlineHeadings(flowRefs, outline, headings) ?? []) {
      if (decision) headings.set(block, decision);
      else headings.delete(block);
    }
  }

  const ordered = pages.map((page) => inReadingOrder(page.layout?.blocks ?? [], furniture));
  // A page's comments are outside its flow: a paragraph or a table going on over a page break goes on past them.
  const flow = ordered.map((blocks) => blocks.filter((block) => !furniture.has(block) && block.kind !== 'comments'));
  stitchTables(flow);
  const runningOn = blocksRunningOn(
    flow.map((blocks, index) => ({ pageNumber: pages[index]!.pageNumber, blocks })),
    headings,
  );
  placeComments(ordered, flow, runningOn);

  return pages.map((page, index) => {
    const protos = ordered[index]!;
    const blocks = protos.map((block) => {
      const model = toModelBlock(block, furniture.get(block), headings.get(block), page);
      const runOn = runningOn.get(block);
      return runOn ? { ...model, carriesOn: runOn } : model;
    });
    return { pageNumber: page.pageNumber, width: page.width, height: page.height, status: page.status, blocks };
  });
}

/**
 * One-line blocks of the body that are a running header or footer found in the margin zones of other pages (the
 * same text at the same height) become that furniture too, in its zone.
 */
function takeRunningLinesOfTheBody(refs: readonly Ref[], furniture: Map<ProtoBlock, ModelBlock['type']>): void {
  const known: RunningLine[] = [];
  for (const [block, type] of furniture) {
    if (type === 'page_header' || type === 'page_footer') known.push({ type, key: furnitureKey(block.text), top: block.rect.y0 });
  }
  if (known.length === 0) return;
  for (const { block } of refs) {
    if (block.zone || block.lines !== 1 || block.kind !== 'paragraph' || block.source !== undefined) continue;
    const type = runningLineOf(block.text, block.rect.y0, known);
    if (!type) continue;
    furniture.set(block, type);
    block.zone = type === 'page_header' ? 'top' : 'bottom';
  }
}

/**
 * Each page's comments where they part no text that reads on: at the page's end, or at its start where its last
 * block goes on into the next page (a paragraph broken by the page break), unless its first carries on from the page
 * before too. In place.
 */
function placeComments(ordered: ProtoBlock[][], flow: readonly (readonly ProtoBlock[])[], runningOn: ReadonlyMap<ProtoBlock, unknown>): void {
  ordered.forEach((blocks, index) => {
    const at = blocks.findIndex((block) => block.kind === 'comments');
    if (at < 0) return;
    const [comments] = blocks.splice(at, 1);
    const next = flow[index + 1]?.[0];
    const first = flow[index]![0];
    const goesOn = next !== undefined && runningOn.has(next);
    if (goesOn && !(first !== undefined && runningOn.has(first))) blocks.unshift(comments!);
    else blocks.push(comments!);
  });
}

/** Furniture from the top margin first and from the bottom margin last, wherever the column order put it. */
function inReadingOrder(blocks: ProtoBlock[], furniture: Map<ProtoBlock, unknown>): ProtoBlock[] {
  const top = blocks.filter((block) => furniture.has(block) && block.zone === 'top');
  const bottom = blocks.filter((block) => furniture.has(block) && block.zone === 'bottom');
  if (top.length === 0 && bottom.length === 0) return blocks;
  return [...top, ...blocks.filter((block) => !furniture.has(block)), ...bottom];
}

function toModelBlock(
  block: ProtoBlock,
  furnitureType: ModelBlock['type'] | undefined,
  heading: { type: 'title' | 'section_header'; level: number } | undefined,
  page: LaidOutPage,
): ModelBlock {
  const base = {
    bbox: normaliseBbox(block.rect, page.width, page.height),
    source: block.source ?? (block.readAgain ? LAYOUT_OCR_SOURCE : undefined) ?? page.source ?? SOURCE,
    confidence: { layout: null, ocr: block.ocrConfidence ?? null },
  };
  if (furnitureType) {
    return { type: furnitureType, label: null, markdown: block.markdown, furniture: true, ...base };
  }
  if (heading) {
    const text = escapeInline(block.text.replace(/\s*\n\s*/g, ' '));
    return {
      type: heading.type,
      label: heading.type === 'title' ? 'title' : `heading-${heading.level}`,
      markdown: `${'#'.repeat(heading.level)} ${text}`,
      ...base,
    };
  }
  switch (block.kind) {
    case 'list':
      return { type: 'text', label: 'list', markdown: block.markdown, ...base };
    case 'code':
      return { type: 'text', label: 'code', markdown: block.markdown, ...base };
    case 'quote':
      return { type: 'text', label: 'quote', markdown: block.markdown, ...base };
    case 'formula':
      return { type: 'formula', label: null, markdown: block.markdown, ...base };
    case 'caption':
      return { type: 'caption', label: null, markdown: block.markdown, ...base };
    case 'table':
      return { type: 'table', label: null, markdown: block.markdown, ...(block.tableHead === undefined ? {} : { carriesOn: 'row', tableHead: block.tableHead }), ...base };
    case 'comments':
      return { type: 'text', label: COMMENTS_LABEL, markdown: block.markdown, ...base, bbox: null };
    case 'rotated':
      return {
        type: 'text',
        label: block.watermark ? 'watermark' : 'rotated',
        markdown: block.markdown,
        ...(block.furniture ? { furniture: true } : {}),
        ...base,
      };
    default:
      return { type: 'text', label: null, markdown: block.markdown, ...base };
  }
}
