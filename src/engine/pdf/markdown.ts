/** Markdown spelling helpers for PDF text: escaping and GFM tables. */
import { gfmDelimiterRow, gfmRow } from '../gfm-table.js';
import { escapeLineStart, LESS_THAN, opensMarkup } from '../markdown-text.js';

const ALNUM = /[\p{L}\p{N}]/u;
// eslint-disable-next-line no-control-regex -- control codes are what this pattern is for
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
const CONTROLS = new RegExp(CONTROL.source, 'gu');

/** An `_` between two letters or digits (XDG_DATA_HOME): literal in Markdown already. */
function intraword(text: string, i: number): boolean {
  return i > 0 && ALNUM.test(text[i - 1]!) && i + 1 < text.length && ALNUM.test(text[i + 1]!);
}

/**
 * Escapes what Markdown would read as inline syntax in plain text: backslashes, `<` opening a tag (as `&lt;`:
 * markdown-text.ts says why), and `*`, `_` (at word edges) and backticks where the text holds two that could pair
 * into emphasis or a code span. A lone one pairs with nothing, so it stays as the page has it ("*8 ml", "_RecVAE",
 * a footnote's "*"). Emphasis and code spans live within one paragraph or table cell: `span` is the whole of it
 * when `text` is a part (a line of a paragraph set with hard line breaks). A `*` that starts the text followed by a
 * space or nothing would start a list item, so it is escaped too.
 */
export function escapeInline(text: string, span = text): string {
  // Glyphs a font maps to control codes (TeX's big delimiters, a symbol font's marks) are no text to a reader.
  if (CONTROL.test(text)) text = text.replace(CONTROLS, '');
  let stars = 0;
  let underscores = 0;
  let backticks = 0;
  for (let i = 0; i < span.length; i++) {
    const c = span.charCodeAt(i);
    if (c === 0x2a) stars++;
    else if (c === 0x60) backticks++;
    else if (c === 0x5f && !intraword(span, i)) underscores++;
  }
  // The runs between escapes are copied whole: appending a character at a time made a string a character (a rope
  // as long as the text, flattened by the next pattern that read it): escapeMarkdownText 1.5 × faster on the
  // benchmark's paragraphs.
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let escaped: string | undefined;
    if (c === 0x5c) {
      escaped = '\\\\';
    } else if (c === 0x2a) {
      const listMarker = i === 0 && (text.length === 1 || /\s/.test(text[1]!));
      if (stars > 1 || listMarker) escaped = '\\*';
    } else if (c === 0x60) {
      if (backticks > 1) escaped = '\\`';
    } else if (c === 0x5f) {
      if (underscores > 1 && !intraword(text, i)) escaped = '\\_';
    } else if (c === 0x3c && opensMarkup(text, i)) {
      escaped = LESS_THAN;
    }
    if (escaped !== undefined) {
      out += text.slice(copied, i) + escaped;
      copied = i + 1;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Escapes plain text for a paragraph or list item: inline syntax, and what would turn its start into Markdown
 * structure (a heading `#`, a quote `>`, a list marker, a fence, a setext underline).
 */
export function escapeMarkdownText(text: string, span = text): string {
  return escapeLineStart(escapeInline(text, span));
}

/** One GFM table cell: inline syntax and pipes escaped, line breaks flattened. */
export function escapeTableCell(text: string): string {
  return escapeInline(text).replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ').trim();
}

/** A GFM table: the first row is the header (GFM requires one). Rows are padded to the widest. */
export function renderGfmTable(rows: readonly (readonly string[])[]): string {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 1);
  const [header = [], ...body] = rows;
  return [gfmTableHead(header, width), ...gfmBodyRows(body, width)].join('\n');
}

/** A GFM table's header row and the delimiter row under it, `width` columns. */
export function gfmTableHead(header: readonly string[], width: number): string {
  return `${gfmRow(header.map(escapeTableCell), width)}\n${gfmDelimiterRow(width)}`;
}

/** Body rows of a GFM table, `width` columns (a part of a table whose head is written elsewhere). */
export function gfmBodyRows(rows: readonly (readonly string[])[], width: number): string[] {
  return rows.map((cells) => gfmRow(cells.map(escapeTableCell), width));
}
