/**
 * Markdown pipe tables → HTML tables, line for line as opendataloader-bench's `convert_to_markdown_with_html_tables`
 * (src/converter_markdown_table.py) does it before every score: a header line, a separator line of `-`/`:` cells,
 * then every following line that holds a `|`; cells are stripped and HTML-escaped, the header row becomes `<th>`
 * cells, rows are padded or cut to the header's width (a 3-cell row in a wider table is read as a spanning middle
 * cell, repeated), and an all-empty header row gives way to the first body row. The table is written on one line,
 * in place of the Markdown lines, followed by the header line's own line ending.
 */
import { pyHtmlEscape, pySplitLines, pyStrip } from './python-text.js';

function splitRow(line: string): string[] | undefined {
  const trimmed = pyStrip(line);
  if (!trimmed || !trimmed.includes('|')) return undefined;
  let cells = trimmed.split('|');
  if (trimmed.startsWith('|')) cells = cells.slice(1);
  if (cells.length > 0 && trimmed.endsWith('|')) cells = cells.slice(0, -1);
  cells = cells.map(pyStrip);
  return cells.length > 0 ? cells : undefined;
}

function isSeparatorRow(cells: string[]): boolean {
  if (cells.length === 0) return false;
  return cells.every((cell) => {
    const content = cell.replaceAll(' ', '');
    return content.length > 0 && /^[-:]+$/.test(content);
  });
}

function normalizeCells(cells: string[], width: number): string[] {
  if (width <= 0 || cells.length === width) return cells;
  if (cells.length === 3 && width > 3) return [cells[0] as string, ...Array<string>(width - 2).fill(cells[1] as string), cells[2] as string];
  if (cells.length < width) return [...cells, ...Array<string>(width - cells.length).fill('')];
  return cells.slice(0, width);
}

function tableHtml(header: string[], rows: string[][]): string {
  const head = `<tr>${header.map((cell) => `<th>${pyHtmlEscape(cell)}</th>`).join('')}</tr>`;
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${pyHtmlEscape(cell)}</td>`).join('')}</tr>`).join('');
  return `<table>${head}${body}</table>`;
}

function lineEnding(line: string): string {
  if (line.endsWith('\r\n')) return '\r\n';
  if (line.endsWith('\n')) return '\n';
  if (line.endsWith('\r')) return '\r';
  return '';
}

export function convertMarkdownTablesToHtml(markdown: string): string {
  if (!markdown) return markdown;
  const lines = pySplitLines(markdown, true);
  const out: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as string;
    let header = splitRow(line);
    const separator = header && index + 1 < lines.length ? splitRow(lines[index + 1] as string) : undefined;
    if (!header || !separator || !isSeparatorRow(separator)) {
      out.push(line);
      index++;
      continue;
    }
    const width = Math.max(header.length, separator.length);
    header = normalizeCells(header, width);
    const rows: string[][] = [];
    let walker = index + 2;
    for (; walker < lines.length; walker++) {
      const cells = splitRow(lines[walker] as string);
      if (!cells) break;
      rows.push(normalizeCells(cells, width));
    }
    if (header.length > 0 && header.every((cell) => cell === '') && rows.length > 0) header = rows.shift() as string[];
    out.push(tableHtml(header, rows) + lineEnding(line));
    index = walker;
  }
  return out.join('');
}
