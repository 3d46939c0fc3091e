/**
 * GFM (GitHub Flavored Markdown) pipe tables from plain cell text. The one place that knows how a table cell is
 * spelled in Markdown, shared by the spreadsheet, CSV and PDF converters (PDF escapes its cells its own way and uses
 * only the row functions).
 *
 * Cells are plain text in, escaped Markdown out:
 * - a `|` becomes `\|` (a backslash already in front of it is doubled, so it cannot swallow the escape);
 * - line breaks (CRLF, CR, LF, and the Unicode line/paragraph separators) become `<br>`, the GFM idiom for a break
 *   inside a cell, since a raw newline would end the row;
 * - tabs become spaces, other C0/C1 control characters are dropped, and leading/trailing white space is trimmed
 *   (GFM trims it anyway).
 * Nothing else is escaped: emphasis or links typed into a cell stay as typed.
 *
 * Rows shorter than the widest row are padded with empty cells; the first row is the header. The delimiter row is
 * `| --- | --- |` (three dashes, which every Markdown table parser accepts).
 */

const LINE_BREAK = /\r\n|[\r\n\u2028\u2029\u0085]/g;
// C0 controls except TAB, LF, CR; DEL; C1 controls except NEL (U+0085, handled as a line break above).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0080-\u0084\u0086-\u009f]/g;
const PIPE = /(\\*)\|/g;
// Anything escapeGfmCell might change: backslash, pipe, line breaks, tab and other controls.
// eslint-disable-next-line no-control-regex
const NEEDS_WORK = /[\\|\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Escapes one cell's plain text for a GFM table row (see the module comment). */
export function escapeGfmCell(text: string): string {
  if (text === '') return '';
  let cell = text;
  // Fast path: most cells are short words and numbers with nothing to escape.
  if (NEEDS_WORK.test(cell)) {
    cell = cell
      .replace(CONTROL, '')
      .replace(/\t/g, ' ')
      .replace(PIPE, (_match, slashes: string) => `${slashes}${slashes}\\|`);
    cell = cell
      .split(LINE_BREAK)
      .map((line) => line.trim())
      .join('<br>');
  }
  return cell.trim();
}

/** `| a | b |` for cells that are already escaped, padded with empty cells up to `width`. */
export function gfmRow(escapedCells: readonly string[], width: number): string {
  let line = '|';
  for (let index = 0; index < width; index += 1) {
    line += ` ${escapedCells[index] ?? ''} |`;
  }
  return line;
}

/** The delimiter row under the header: `| --- | --- |`. */
export function gfmDelimiterRow(width: number): string {
  return `|${' --- |'.repeat(Math.max(width, 1))}`;
}

/**
 * Renders rows of plain cell text as a GFM table: the first row is the header, every row is padded to the widest
 * row, cells are escaped with escapeGfmCell. Returns '' for no rows (or rows with no cells at all).
 */
export function renderGfmTable(rows: readonly (readonly string[])[]): string {
  let width = 0;
  for (const row of rows) width = Math.max(width, row.length);
  if (rows.length === 0 || width === 0) return '';
  const lines: string[] = [];
  rows.forEach((row, index) => {
    lines.push(gfmRow(row.map(escapeGfmCell), width));
    if (index === 0) lines.push(gfmDelimiterRow(width));
  });
  return lines.join('\n');
}
