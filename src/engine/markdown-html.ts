/**
 * A small Markdown → HTML rendering for formats that have no HTML of their own (PDF, spreadsheets, CSV), so the
 * `html` format is never empty. It covers what the converters emit: headings, paragraphs, lists, GFM tables,
 * fenced code, page-marker comments and rules. HTML-based formats return their own cleaned HTML instead.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** What needs escaping in HTML text: a character reference in Markdown text (`&lt;`) already is HTML. */
const TEXT_SPECIAL = /[<>"]|&(?!(?:#\d{1,7}|#[xX][\da-fA-F]{1,6}|[A-Za-z][A-Za-z\d]{1,31});)/g;
/** A Markdown backslash escape of ASCII punctuation (`\*`, `\[`, `\\`). */
const BACKSLASH_ESCAPE = /\\([!-/:-@[-`{-~])/g;
/** Converters write line breaks inside table cells as <br>, the one tag GFM tables allow. */
const LINE_BREAK = /<br\s*\/?>/gi;

/** Code, where every character stands for itself. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => ESCAPES[character] ?? character);
}

function escapeText(text: string): string {
  return text.replace(TEXT_SPECIAL, (character) => ESCAPES[character] ?? character);
}

function inline(text: string): string {
  // An escaped character becomes a character reference, which none of the patterns below takes for syntax.
  const unescaped = text.replace(BACKSLASH_ESCAPE, (_, character: string) => `&#${character.charCodeAt(0)};`);
  return unescaped
    .split(LINE_BREAK)
    .map(escapeText)
    .join('<br>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\[([^\]]*)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
}

function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

function table(lines: string[]): string {
  const [head = '', , ...body] = lines;
  const headCells = splitRow(head).map((cell) => `<th>${inline(cell)}</th>`).join('');
  const rows = body.map((line) => `<tr>${splitRow(line).map((cell) => `<td>${inline(cell)}</td>`).join('')}</tr>`);
  return `<table><thead><tr>${headCells}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function block(chunk: string): string {
  const lines = chunk.split('\n');
  const first = lines[0] ?? '';
  if (/^<!--.*-->$/.test(chunk.trim())) return chunk.trim();
  if (chunk.trim() === '---') return '<hr>';
  if (first.startsWith('```')) {
    const code = lines.slice(1, lines[lines.length - 1]?.startsWith('```') ? -1 : undefined).join('\n');
    return `<pre><code>${escapeHtml(code)}</code></pre>`;
  }
  const heading = /^(#{1,6})\s+(.*)$/.exec(first);
  if (heading && lines.length === 1) return `<h${heading[1]?.length}>${inline(heading[2] ?? '')}</h${heading[1]?.length}>`;
  if (lines.length >= 2 && /^\s*\|?\s*:?-{3,}/.test(lines[1] ?? '') && first.includes('|')) return table(lines);
  if (lines.every((line) => /^\s*[-*+]\s+/.test(line))) {
    return `<ul>${lines.map((line) => `<li>${inline(line.replace(/^\s*[-*+]\s+/, ''))}</li>`).join('')}</ul>`;
  }
  if (lines.every((line) => /^\s*\d+[.)]\s+/.test(line))) {
    return `<ol>${lines.map((line) => `<li>${inline(line.replace(/^\s*\d+[.)]\s+/, ''))}</li>`).join('')}</ol>`;
  }
  return `<p>${lines.map(inline).join('<br>')}</p>`;
}

export function markdownToHtml(markdown: string): string {
  if (markdown.trim() === '') return '';
  return markdown
    .split(/\n{2,}/)
    .filter((chunk) => chunk.trim() !== '')
    .map(block)
    .join('\n');
}
