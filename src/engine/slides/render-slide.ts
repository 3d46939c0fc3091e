/**
 * A slide (slide-model.ts) → one ModelPage, the same way for PPTX and ODP:
 *
 * 1. the title as a heading: `# ` on the first slide (type `title`), `## ` on the others (`section_header`);
 * 2. a hidden slide (not shown in a slide show) keeps its content, and says so in a furniture block labelled
 *    `hidden-slide` (out of the Markdown unless onlyMainContent is false);
 * 3. the other shapes in reading order (reading-order.ts; a shape covering the whole slide first): text as paragraphs and lists, tables as GFM tables,
 *    pictures as figures (their alt text), charts as a figure (their title) and a table of their data;
 * 4. footers, dates and slide numbers as furniture (`page_footer` / `page_number`);
 * 5. speaker notes under `**Notes:**`, comments under `**Comments:**` (author first when known, replies nested).
 *
 * Rectangles become bboxes normalised 0..1 against the slide size (clamped to it); the page size is given in
 * points.
 */
import { renderGfmTable } from '../gfm-table.js';
import type { Bbox, ModelBlock, ModelPage } from '../model.js';
import { inlineMarkdown, paragraphBlocks } from './paragraphs.js';
import { escapeRunText } from '../markdown-text.js';
import { readingOrder } from './reading-order.js';
import type { Rect, Slide, SlideComment, SlideItem } from './slide-model.js';

export const NOTES_LABEL = 'notes';
export const COMMENTS_LABEL = 'comments';
export const HIDDEN_SLIDE_LABEL = 'hidden-slide';
export const NO_TEXT_WARNING = 'the presentation has no text.';
export const ONLY_FURNITURE_WARNING =
  'the presentation has no text of its own: its only text is what its masters show on the slides (footers, dates, ' +
  'slide numbers, decoration), kept as furniture, out of the Markdown unless onlyMainContent is false.';

/** The warning for a deck none of whose slides has main text: no text at all, or only its masters' furniture. */
export function textlessDeckWarning(pages: readonly ModelPage[]): string | undefined {
  const blocks = pages.flatMap((page) => page.blocks).filter((block) => block.markdown.trim() !== '');
  if (blocks.some((block) => !block.furniture)) return undefined;
  return blocks.some((block) => block.label !== HIDDEN_SLIDE_LABEL) ? ONLY_FURNITURE_WARNING : NO_TEXT_WARNING;
}

/** The warning naming the hidden slides whose content is included. */
export function hiddenSlidesWarning(numbers: readonly number[]): string {
  const one = numbers.length === 1;
  return `${one ? 'slide' : 'slides'} ${numbers.join(', ')} ${one ? 'is' : 'are'} hidden in the presentation; ${one ? 'its' : 'their'} content is included.`;
}

export interface SlideRenderOptions {
  /** The block source: pptx, odp (and ppt for the legacy reader). */
  source: string;
  /** Points per unit of the slide's rectangles (EMU: 1/12700; centimetre: 72/2.54). */
  pointsPerUnit: number;
}

export function renderSlide(slide: Slide, options: SlideRenderOptions): ModelPage {
  const blocks: ModelBlock[] = [];
  const bboxOf = (rect: Rect | null): Bbox | null => normalise(rect, slide.width, slide.height);
  const push = (block: Omit<ModelBlock, 'source'>) => blocks.push({ ...block, source: options.source });

  const content = slide.items.filter((item) => !(item.kind === 'text' && item.furniture !== undefined));
  const furniture = slide.items.filter((item) => item.kind === 'text' && item.furniture !== undefined);
  // A shape covering the whole slide (a background picture, a full-slide text box) would make one "row" of
  // everything: it goes first, and the others are ordered among themselves.
  const covering = content.filter((item) => coversSlide(item.rect, slide));
  let placed = readingOrder(
    content.filter((item) => !covering.includes(item)),
    (entry) => entry.rect,
    (entry) => entry.group,
  );
  const drawn = slide.title === null ? drawnTitle(placed, slide) : undefined;
  if (drawn !== undefined) placed = placed.filter((item) => item !== drawn.item);
  const title = slide.title ?? drawn?.title ?? null;

  if (title !== null) {
    const text = inlineMarkdown([{ text: title.text }], { breaks: false });
    if (text !== '') {
      const first = slide.number === 1;
      push({
        type: first ? 'title' : 'section_header',
        label: first ? 'heading-1' : 'heading-2',
        markdown: `${first ? '#' : '##'} ${text}`,
        bbox: bboxOf(title.rect),
      });
    }
  }
  if (slide.hidden) {
    push({ type: 'text', label: HIDDEN_SLIDE_LABEL, markdown: '*(hidden slide)*', bbox: null, furniture: true });
  }

  const ordered = [...covering, ...placed, ...readingOrder(furniture, (entry) => entry.rect, (entry) => entry.group)];
  for (const item of ordered) {
    for (const block of itemBlocks(item, bboxOf(item.rect))) push(block);
  }

  const notes = paragraphBlocks(slide.notes).map((block) => block.markdown);
  if (notes.length > 0) {
    push({ type: 'text', label: NOTES_LABEL, markdown: ['**Notes:**', ...notes].join('\n\n'), bbox: null });
  }
  if (slide.comments.length > 0) {
    const lines = slide.comments.flatMap((comment) => commentLines(comment, 0));
    if (lines.length > 0) {
      push({ type: 'text', label: COMMENTS_LABEL, markdown: `**Comments:**\n\n${lines.join('\n')}`, bbox: null });
    }
  }

  const toPoints = (value: number | null) => (value === null ? null : Math.round(value * options.pointsPerUnit * 100) / 100);
  return { pageNumber: slide.number, width: toPoints(slide.width), height: toPoints(slide.height), status: 'ok', blocks };
}

/** A drawn title is at most this long, and set this much larger than the slide's other text where it is not bold. */
const TITLE_WORDS = 12;
const TITLE_LARGER = 1.25;

/**
 * A slide's title where it has no title placeholder (a deck a program wrote, a template without one): the first
 * shape in reading order, in the slide's upper third, holding one short line of its own (no list item, no full stop)
 * set wholly in bold or in a type larger than the rest of the slide's text.
 */
function drawnTitle(ordered: readonly SlideItem[], slide: Slide): { item: SlideItem; title: { text: string; rect: Rect | null } } | undefined {
  const first = ordered[0];
  if (first?.kind !== 'text' || first.rect === null) return undefined;
  if (slide.height !== null && first.rect.y > slide.height / 3) return undefined;
  const lines = first.paragraphs.filter((paragraph) => paragraph.runs.some((run) => run.text.trim() !== ''));
  if (lines.length !== 1 || lines[0]!.list !== null) return undefined;
  const runs = lines[0]!.runs.filter((run) => run.text.trim() !== '');
  const text = runs.map((run) => run.text).join('').replace(/\s+/g, ' ').trim();
  if (text.split(' ').length > TITLE_WORDS || /[.!?:;,]$/.test(text)) return undefined;
  const others = ordered.slice(1).flatMap((item) => (item.kind === 'text' ? item.paragraphs.flatMap((paragraph) => paragraph.runs) : []));
  const otherSizes = others.map((run) => run.size).filter((size): size is number => size !== undefined);
  const size = Math.min(...runs.map((run) => run.size ?? 0));
  const larger = otherSizes.length > 0 && size >= TITLE_LARGER * Math.max(...otherSizes);
  // Bold against text in regular weight, or alone over a table, a chart or a picture.
  const bold = runs.every((run) => run.bold) && (others.length === 0 || !others.every((run) => run.bold));
  return larger || bold ? { item: first, title: { text, rect: first.rect } } : undefined;
}

function itemBlocks(item: SlideItem, bbox: Bbox | null): Omit<ModelBlock, 'source'>[] {
  switch (item.kind) {
    case 'text': {
      const blocks = paragraphBlocks(item.paragraphs);
      if (item.furniture !== undefined) {
        // Footers and numbers are lines of text, whatever list style their placeholder inherits.
        const markdown = item.paragraphs
          .map((paragraph) => inlineMarkdown(paragraph.runs, { breaks: false }))
          .filter((line) => line !== '')
          .join('\n\n');
        return markdown === '' ? [] : [{ type: item.furniture, label: null, markdown, bbox, furniture: true }];
      }
      return blocks.map((block) => ({ type: 'text', label: block.list ? 'list' : null, markdown: block.markdown, bbox }));
    }
    case 'table': {
      const markdown = renderGfmTable(trimTable(item.rows));
      return markdown === '' ? [] : [{ type: 'table', label: null, markdown, bbox }];
    }
    case 'figure': {
      const description = item.description.replace(/\s+/g, ' ').trim();
      if (item.image !== undefined) return [{ type: 'figure', label: null, markdown: `![${escapeRunText(description)}](${item.image})`, bbox }];
      // A picture without a description is still a block (with its place on the slide), with no Markdown.
      return [{ type: 'figure', label: null, markdown: description === '' ? '' : `*Image: ${escapeRunText(description)}*`, bbox }];
    }
    case 'chart': {
      const title = item.title.replace(/\s+/g, ' ').trim();
      const blocks: Omit<ModelBlock, 'source'>[] = [
        { type: 'figure', label: 'chart', markdown: title === '' ? '*Chart*' : `*Chart: ${escapeRunText(title)}*`, bbox },
      ];
      const table = renderGfmTable(trimTable(item.rows));
      if (table !== '') blocks.push({ type: 'table', label: 'chart-data', markdown: table, bbox });
      return blocks;
    }
  }
}

function commentLines(comment: SlideComment, depth: number): string[] {
  if (depth > 8) return [];
  const body = escapeRunText(comment.text.replace(/\s+/g, ' ').trim());
  const author = comment.author === null || comment.author.trim() === '' ? '' : `**${escapeRunText(comment.author.trim())}:** `;
  const lines = body === '' && author === '' ? [] : [`${'  '.repeat(depth)}- ${author}${body}`];
  for (const reply of comment.replies) lines.push(...commentLines(reply, depth + 1));
  return lines;
}

/** Drops rows and trailing columns that are empty everywhere (tables laid out larger than their content). */
function trimTable(rows: readonly string[][]): string[][] {
  const kept = rows.filter((row) => row.some((cell) => cell.trim() !== ''));
  let width = 0;
  for (const row of kept) {
    for (let column = row.length - 1; column >= 0; column -= 1) {
      if ((row[column] ?? '').trim() !== '') {
        width = Math.max(width, column + 1);
        break;
      }
    }
  }
  return kept.map((row) => row.slice(0, width));
}

const COVERING = 0.9;

function coversSlide(rect: Rect | null, slide: Slide): boolean {
  if (rect === null || slide.width === null || slide.height === null) return false;
  return rect.width >= slide.width * COVERING && rect.height >= slide.height * COVERING;
}

function normalise(rect: Rect | null, width: number | null, height: number | null): Bbox | null {
  if (rect === null || width === null || height === null || width <= 0 || height <= 0) return null;
  const clamp = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 10000) / 10000;
  return [clamp(rect.x / width), clamp(rect.y / height), clamp((rect.x + rect.width) / width), clamp((rect.y + rect.height) / height)];
}
