/**
 * Runs of RTF text (text with bold, italic and a hyperlink target) → Markdown. Emphasis is applied per run, with
 * the run's leading and trailing white space moved outside the markers (`** a**` is not emphasis in Markdown);
 * adjacent runs with the same formatting are merged first, so a word split over several runs by the writer (Word
 * splits runs at every revision) is emphasised once. Literal text is escaped so that it cannot turn into
 * Markdown syntax; `raw` runs (footnote references) are Markdown already.
 */
import { escapeLineStart, escapeRunText } from '../markdown-text.js';

export interface Run {
  text: string;
  bold: boolean;
  italic: boolean;
  /** The hyperlink this text is the visible part of, or null. */
  link: string | null;
  /** Markdown written by the converter itself (`[^1]`), not escaped. */
  raw: boolean;
}

/** Appends text to a run list, extending the last run when its formatting is the same. */
export function appendRun(runs: Run[], text: string, bold: boolean, italic: boolean, link: string | null, raw = false): void {
  const last = runs[runs.length - 1];
  if (last !== undefined && last.bold === bold && last.italic === italic && last.link === link && last.raw === raw) {
    last.text += text;
  } else {
    runs.push({ text, bold, italic, link, raw });
  }
}

export function hasVisibleText(runs: readonly Run[]): boolean {
  return runs.some((run) => cleanText(run.text).trim() !== '');
}

/** The runs' text with no formatting: for table cells, headings' plain form and captions. */
export function plainText(runs: readonly Run[]): string {
  return runs.map((run) => run.text).join('');
}

/**
 * A paragraph's Markdown: emphasis and links from the runs, escaped text, line breaks (`\n` in a run, from `\line`)
 * as `lineBreak` (a two-space hard break by default; empty lines dropped), each line trimmed and guarded against reading as a block
 * marker (`# `, `- `, `1. `, `>`).
 */
export function runsToMarkdown(runs: readonly Run[], lineBreak = '  \n'): string {
  let markdown = '';
  let index = 0;
  while (index < runs.length) {
    const run = runs[index] as Run;
    if (run.link === null) {
      markdown += runMarkdown(run);
      index += 1;
      continue;
    }
    // Consecutive runs with one link target are one link, whatever their emphasis.
    let inner = '';
    const link = run.link;
    while (index < runs.length && (runs[index] as Run).link === link) {
      inner += runMarkdown(runs[index] as Run);
      index += 1;
    }
    markdown += linkMarkdown(inner, link);
  }
  return markdown
    .split('\n')
    // Runs of spaces show as one in Markdown anyway; writers leave them where runs meet.
    .map((line) => escapeLineStart(line.replace(/ {2,}/g, ' ').trim()))
    .filter((line) => line !== '')
    .join(lineBreak)
    .trim();
}

function runMarkdown(run: Run): string {
  if (run.raw) return run.text;
  const text = cleanText(run.text);
  if (!run.bold && !run.italic) return escapeRunText(text);
  const [lead, core, trail] = splitOuterSpace(text);
  if (core === '') return text;
  const marker = run.bold && run.italic ? '***' : run.bold ? '**' : '*';
  // Emphasis cannot span a line break reliably in every Markdown reader: each line is emphasised on its own.
  const body = core
    .split('\n')
    .map((line) => (line.trim() === '' ? line : `${marker}${escapeRunText(line.trim())}${marker}`))
    .join('\n');
  return `${lead}${body}${trail}`;
}

function linkMarkdown(inner: string, url: string): string {
  const [lead, core, trail] = splitOuterSpace(inner);
  const destination = url.replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');
  if (core === '') return inner;
  return `${lead}[${core.replace(/\n/g, ' ')}](${destination})${trail}`;
}

/**
 * Leading white space, the rest, trailing white space. (String trimming rather than a regular expression: a lazy
 * pattern would backtrack quadratically over long runs of spaces.)
 */
function splitOuterSpace(text: string): [lead: string, core: string, trail: string] {
  const start = text.length - text.trimStart().length;
  if (start === text.length) return [text, '', ''];
  const end = text.trimEnd().length;
  return [text.slice(0, start), text.slice(start, end), text.slice(end)];
}

/** Removes control characters other than tab and line feed (NULs and stray C0/C1 bytes from damaged files). */
export function cleanText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}


/**
 * `#`-heading Markdown for a paragraph's runs, on one line. Emphasis is dropped (a heading is already set off); a
 * footnote reference in it is kept.
 */
export function headingMarkdown(level: number, prefix: string, runs: readonly Run[]): string {
  let text = escapeRunText(cleanText(prefix));
  for (const run of runs) text += run.raw ? run.text : escapeRunText(cleanText(run.text));
  const line = text.replace(/\s+/g, ' ').trim();
  // A trailing run of `#` after a space would be read as the heading's closing sequence.
  let hashes = line.length;
  while (hashes > 0 && line[hashes - 1] === '#') hashes -= 1;
  const guarded = hashes < line.length && line[hashes - 1] === ' ' ? `${line.slice(0, hashes)}\\${line.slice(hashes)}` : line;
  return `${'#'.repeat(level)} ${guarded}`;
}
