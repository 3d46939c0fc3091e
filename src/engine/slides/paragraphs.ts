/**
 * Slide paragraphs → Markdown: inline emphasis and links, escaping, and lists with their levels.
 *
 * Consecutive list paragraphs make one list (`- ` for bullets, `1. ` for numbering, nested items indented under
 * their parent's marker); each other paragraph is its own block. Levels are made safe for Markdown: a list never
 * starts indented and never jumps more than one level deeper than the item before it (an indented first item
 * would otherwise read as a code block).
 */
import { type Paragraph, paragraphText, type TextRun } from './slide-model.js';
import { escapeLineStart, escapeRunText } from '../markdown-text.js';

export interface ParagraphBlock {
  markdown: string;
  list: boolean;
}

/** The Markdown blocks of a text frame's paragraphs; empty paragraphs are dropped. */
export function paragraphBlocks(paragraphs: readonly Paragraph[]): ParagraphBlock[] {
  const blocks: ParagraphBlock[] = [];
  let listRun: Paragraph[] = [];
  const flushList = () => {
    if (listRun.length > 0) blocks.push({ markdown: renderList(listRun), list: true });
    listRun = [];
  };
  for (const paragraph of paragraphs) {
    if (paragraphText(paragraph).trim() === '') continue;
    if (paragraph.list !== null) {
      listRun.push(paragraph);
      continue;
    }
    flushList();
    blocks.push({ markdown: inlineMarkdown(paragraph.runs, { breaks: true }), list: false });
  }
  flushList();
  return blocks.filter((block) => block.markdown.trim() !== '');
}

/** The paragraphs as plain text, one line each (table cells, titles, comments). */
export function plainText(paragraphs: readonly Paragraph[], separator = '\n'): string {
  return paragraphs
    .map((paragraph) => paragraphText(paragraph).replace(/\s+/g, ' ').trim())
    .filter((text) => text !== '')
    .join(separator);
}

function renderList(items: readonly Paragraph[]): string {
  const lines: string[] = [];
  // Per effective level: the marker width (for the indentation of deeper items), kind and counter.
  const widths: number[] = [];
  const kinds: boolean[] = [];
  const counters: number[] = [];
  let previousLevel = -1;
  for (const item of items) {
    const marker = item.list;
    if (marker === null) continue;
    const level = Math.max(0, Math.min(marker.level, previousLevel + 1));
    widths.length = Math.min(widths.length, level + 1);
    counters.length = Math.min(counters.length, level + 1);
    kinds.length = Math.min(kinds.length, level + 1);
    if (kinds[level] !== undefined && kinds[level] !== marker.ordered) counters[level] = 0;
    kinds[level] = marker.ordered;
    let prefix = '- ';
    if (marker.ordered) {
      const next = counters[level] ? (counters[level] as number) + 1 : (marker.startAt ?? 1);
      counters[level] = next;
      prefix = `${next}. `;
    }
    widths[level] = prefix.length;
    let indent = 0;
    for (let depth = 0; depth < level; depth += 1) indent += widths[depth] ?? 2;
    lines.push(' '.repeat(indent) + prefix + inlineMarkdown(item.runs, { breaks: false }));
    previousLevel = level;
  }
  return lines.join('\n');
}

/**
 * Runs → inline Markdown: text escaped, bold/italic runs wrapped (spaces kept outside the markers), links as
 * `[text](url)`. Line breaks stay line breaks when `breaks` is set, otherwise become spaces.
 */
export function inlineMarkdown(runs: readonly TextRun[], { breaks }: { breaks: boolean }): string {
  const merged: TextRun[] = [];
  for (const run of runs) {
    const last = merged[merged.length - 1];
    if (last !== undefined && !!last.bold === !!run.bold && !!last.italic === !!run.italic && last.href === run.href) {
      last.text += run.text;
    } else {
      merged.push({ ...run });
    }
  }
  let text = '';
  for (const run of merged) {
    const raw = breaks ? run.text : run.text.replace(/\s*\n\s*/g, ' ');
    text += formatRun({ ...run, text: raw });
  }
  const lines = text.split('\n').map((line) => escapeLineStart(line.replace(/[ \t]+/g, ' ').trim()));
  return lines.filter((line, index) => line !== '' || (index > 0 && index < lines.length - 1)).join('\n').trim();
}

function formatRun(run: TextRun): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(run.text);
  const [, before = '', core = '', after = ''] = match ?? [];
  if (core === '') return run.text;
  let body = core
    .split('\n')
    .map((line) => escapeRunText(line))
    .join('\n');
  const marker = run.bold && run.italic ? '***' : run.bold ? '**' : run.italic ? '*' : '';
  if (marker !== '' && !body.includes('\n')) body = `${marker}${body}${marker}`;
  const href = run.href !== undefined ? safeHref(run.href) : null;
  if (href !== null && !body.includes('\n')) body = `[${body}](${href})`;
  return before + body + after;
}

function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (!/^(?:https?:|mailto:|ftp:)/i.test(trimmed)) return null;
  return /[\s()<>]/.test(trimmed) ? `<${trimmed.replace(/[<>\s]/g, encodeURIComponent)}>` : trimmed;
}
