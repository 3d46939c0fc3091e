/** Markdown spelling helpers for PDF text: escaping and GFM tables. */
import { gfmDelimiterRow, gfmRow } from '../gfm-table.js';

const ALNUM = /[\p{L}\p{N}]/u;

/**
 * Escapes what Markdown would read as inline syntax in plain text: backslashes, `*`, backticks, `_` at word
 * edges (an underscore inside a word, as in XDG_DATA_HOME, is literal already) and `<` opening a tag.
 */
export function escapeInline(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' || ch === '*' || ch === '`') {
      out += `\\${ch}`;
    } else if (ch === '_') {
      const intraword = i > 0 && ALNUM.test(text[i - 1]!) && i + 1 < text.length && ALNUM.test(text[i + 1]!);
      out += intraword ? ch : '\\_';
    } else if (ch === '<' && i + 1 < text.length && /[A-Za-z/!?]/.test(text[i + 1]!)) {
      out += '\\<';
    } else {
      out += ch;
    }
  }
  return out;
}

/**
 * Escapes plain text for a paragraph or list item: inline syntax, and what would turn its start into Markdown
 * structure (a heading `#`, a quote `>`, a list marker, a fence, a setext underline).
 */
export function escapeMarkdownText(text: string): string {
  let out = escapeInline(text);
  out = out.replace(/^(#{1,6})(?=\s|$)/, '\\$1');
  out = out.replace(/^([>+])/, '\\$1');
  out = out.replace(/^(-)(?=\s)/, '\\$1');
  out = out.replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
  out = out.replace(/^(~~~)/, '\\$1');
  out = out.replace(/^(=+|-+)$/, '\\$1');
  return out;
}

/** One GFM table cell: inline syntax and pipes escaped, line breaks flattened. */
export function escapeTableCell(text: string): string {
  return escapeInline(text).replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ').trim();
}

/** A GFM table: the first row is the header (GFM requires one). Rows are padded to the widest. */
export function renderGfmTable(rows: readonly (readonly string[])[]): string {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 1);
  const [header = [], ...body] = rows;
  const line = (cells: readonly string[]) => gfmRow(cells.map(escapeTableCell), width);
  return [line(header), gfmDelimiterRow(width), ...body.map(line)].join('\n');
}
