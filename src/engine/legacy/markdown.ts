/**
 * Markdown for the legacy Office readers: plain text escaped so that it reads as text (no accidental emphasis,
 * headings, lists, tables or HTML), runs with bold/italic/strike/links turned into inline Markdown, and the blocks
 * the HTML path would give for the same structures (headings, list items, GFM tables, footnotes).
 */
import { renderGfmTable } from '../gfm-table.js';
import { escapeTextLines } from '../markdown-text.js';
import type { ModelBlock } from '../model.js';

export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  href?: string;
  /** Already Markdown (a footnote reference): neither escaped nor formatted. */
  raw?: boolean;
}

/**
 * Escapes Markdown syntax in plain text as every format's text is (markdown-text.ts). Outside a table a `|` is
 * escaped too, so that lines cannot become one; in table cells the GFM table writer escapes it.
 */
export function escapeMarkdown(text: string, inTable = false): string {
  const escaped = escapeTextLines(text);
  return inTable ? escaped : escaped.replace(/\|/g, '\\|');
}

/** Inline Markdown for a paragraph's runs: adjacent runs with the same formatting are merged first. */
export function renderRuns(runs: readonly Run[], { inTable = false, plain = false } = {}): string {
  const merged: Run[] = [];
  for (const run of runs) {
    if (run.text === '') continue;
    const last = merged.at(-1);
    if (last !== undefined && !last.raw && !run.raw && sameFormat(last, run)) last.text += run.text;
    else merged.push({ ...run });
  }
  let markdown = '';
  for (const run of merged) {
    if (run.raw) {
      markdown += run.text;
      continue;
    }
    const escaped = escapeMarkdown(run.text, inTable);
    if (plain) {
      markdown += escaped;
      continue;
    }
    // Markers must touch the text: surrounding white space goes outside them.
    const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(escaped) as RegExpExecArray;
    const [, before = '', core = '', after = ''] = match;
    if (core === '') {
      markdown += escaped;
      continue;
    }
    let inner = core;
    if (run.strike) inner = `~~${inner}~~`;
    if (run.italic) inner = `*${inner}*`;
    if (run.bold) inner = `**${inner}**`;
    if (run.href !== undefined) inner = `[${inner}](${run.href.replace(/[()\s]/g, encodeURIComponent)})`;
    markdown += `${before}${inner}${after}`;
  }
  return markdown;
}

function sameFormat(a: Run, b: Run): boolean {
  return !!a.bold === !!b.bold && !!a.italic === !!b.italic && !!a.strike === !!b.strike && a.href === b.href;
}

/** Runs' plain text. */
export function plainText(runs: readonly Run[]): string {
  return runs.map((run) => run.text).join('');
}

/** A heading block as the HTML path types it: the first level-1 heading is the title. */
export function headingBlock(level: number, text: string, source: string, isTitle: boolean): ModelBlock {
  const clamped = Math.min(Math.max(level, 1), 6);
  return {
    type: isTitle ? 'title' : 'section_header',
    label: `heading-${clamped}`,
    markdown: `${'#'.repeat(clamped)} ${escapeMarkdown(text.replace(/\s+/g, ' ').trim())}`,
    bbox: null,
    source,
  };
}

export function tableBlock(rows: readonly (readonly string[])[], source: string): ModelBlock | null {
  const markdown = renderGfmTable(rows);
  return markdown === '' ? null : { type: 'table', label: null, markdown, bbox: null, source };
}

export function textBlock(markdown: string, source: string, label: string | null = null): ModelBlock {
  return { type: 'text', label, markdown, bbox: null, source };
}

/** Line breaks inside a paragraph as Markdown hard breaks. */
export function hardBreaks(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => line.trim())
    .filter((line, index, lines) => line !== '' || (index > 0 && index < lines.length - 1))
    .join('  \n');
}

const PAGE_NUMBER = /^(?:page\s+)?\d+(?:\s*(?:of|\/)\s*\d+)?$/i;

/** A running header/footer block, typed page_number when it is only a page number, marked as furniture. */
export function furnitureBlock(text: string, kind: 'header' | 'footer', source: string): ModelBlock {
  const trimmed = text.trim();
  return {
    type: PAGE_NUMBER.test(trimmed) ? 'page_number' : kind === 'header' ? 'page_header' : 'page_footer',
    label: null,
    markdown: hardBreaks(escapeMarkdown(trimmed)),
    bbox: null,
    source,
    furniture: true,
  };
}

/** The warning a document without text gets (the DOCX and HTML converters give the same one). */
export const NO_TEXT_WARNING = 'the document has no text';
