/** Markdown spelling helpers for PDF text: escaping and GFM tables. */

/** Escapes what would turn plain text into Markdown structure: a leading `#`, `>`, list marker or fence, HTML. */
export function escapeMarkdownText(text: string): string {
  let out = text.replace(/\\/g, '\\\\').replace(/<(?=[A-Za-z/!?])/g, '\\<');
  out = out.replace(/(^|\s)([*_]{1,3})(?=\S)/g, '$1\\$2');
  out = out.replace(/^(#{1,6})(?=\s|$)/, '\\$1');
  out = out.replace(/^([>+])/, '\\$1');
  out = out.replace(/^([-*])(?=\s)/, '\\$1');
  out = out.replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
  out = out.replace(/^(```|~~~)/, '\\$1');
  out = out.replace(/^(=+|-+)$/, '\\$1');
  return out;
}

/** One GFM table cell: pipes escaped, line breaks flattened. */
export function escapeTableCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ').trim();
}

/** A GFM table: the first row is the header (GFM requires one). Rows are padded to the widest. */
export function renderGfmTable(rows: readonly (readonly string[])[]): string {
  const width = Math.max(1, ...rows.map((row) => row.length));
  const line = (cells: readonly string[]) => {
    const padded = Array.from({ length: width }, (_, i) => escapeTableCell(cells[i] ?? ''));
    return `| ${padded.join(' | ')} |`;
  };
  const [header = [], ...body] = rows;
  return [line(header), `| ${Array.from({ length: width }, () => '---').join(' | ')} |`, ...body.map(line)].join('\n');
}
