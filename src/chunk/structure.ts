/**
 * The structure chunks follow, read from the document's Markdown (and its blocks when the parse gave them):
 * - barriers: character ranges no chunk may contain: page markers (`---` + `<!-- page N -->`) and furniture
 *   (page headers, footers and numbers the engine marked, when their Markdown is in the document);
 * - units: headings, paragraphs, tables, lists and fenced code blocks, each a range of the Markdown trimmed of
 *   surrounding whitespace, in document order, with a `break` between the regions a barrier separates;
 * - how a unit too large for one chunk is split: a table between rows (its header row kept to repeat), a list
 *   between items, then lines, sentences, words and, for a run without spaces, characters.
 */
import { decodeXmlEntities } from '../common/xml-entities.js';

export type UnitKind =
  | 'heading'
  | 'paragraph'
  | 'table'
  | 'tableHead'
  | 'row'
  | 'list'
  | 'item'
  | 'code'
  | 'line'
  | 'sentence'
  | 'word'
  | 'break';

export interface TableInfo {
  /** Where the table starts; `markdown.slice(start, headerEnd)` is its header row and delimiter row. */
  start: number;
  headerEnd: number;
}

export interface Unit {
  kind: UnitKind;
  /** [start, end) in the Markdown; start and end are not whitespace. */
  start: number;
  end: number;
  /** Headings: 1..6. */
  level?: number;
  /** Headings: the title without its `#` marks and inline markup. */
  title?: string;
  /** Rows of a table and the pieces split from them: the table, for repeating its header. */
  table?: TableInfo;
}

export interface Range {
  start: number;
  end: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
const TABLE_LINE = /^\s*\|/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
/** `---` (its blank line) and `<!-- page N -->`, as the contract's pageMarkers option writes them. */
const PAGE_MARKER = /(?:^|\n)((?:---[ \t]*\r?\n[ \t]*\r?\n[ \t]*)?<!--[ \t]*page[ \t]+(\d+)[ \t]*-->)/g;

export interface PageMarker extends Range {
  /** The page of the content after the marker. */
  page: number;
}

export function pageMarkersOf(markdown: string): PageMarker[] {
  const markers: PageMarker[] = [];
  for (const match of markdown.matchAll(PAGE_MARKER)) {
    const start = match.index + match[0].length - match[1]!.length;
    markers.push({ start, end: match.index + match[0].length, page: Number(match[2]) });
  }
  return markers;
}

interface Line {
  start: number;
  /** End of the line's text, before its '\n'. */
  end: number;
  text: string;
}

function linesOf(markdown: string, region: Range): Line[] {
  const lines: Line[] = [];
  let start = region.start;
  while (start < region.end) {
    let end = markdown.indexOf('\n', start);
    if (end === -1 || end > region.end) end = region.end;
    lines.push({ start, end, text: markdown.slice(start, end) });
    start = end + 1;
  }
  return lines;
}

const isBlank = (line: Line) => line.text.trim() === '';

/** [start, end) narrowed to its non-whitespace content; undefined when there is none. */
export function trimRange(markdown: string, start: number, end: number): Range | undefined {
  while (start < end && isSpace(markdown.charCodeAt(start))) start++;
  while (end > start && isSpace(markdown.charCodeAt(end - 1))) end--;
  return start < end ? { start, end } : undefined;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 12 || code === 11 || code === 0xa0 || code === 0x3000;
}

/** The units of one region (a stretch of Markdown between barriers), in order. */
export function unitsOf(markdown: string, region: Range): Unit[] {
  const lines = linesOf(markdown, region);
  const units: Unit[] = [];
  const push = (kind: UnitKind, first: Line, last: Line, extra: Partial<Unit> = {}) => {
    const range = trimRange(markdown, first.start, last.end);
    if (range) units.push({ kind, ...range, ...extra });
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line.text);
    if (fence) {
      const marker = fence[1]!;
      let j = i + 1;
      while (j < lines.length && !closesFence(lines[j]!.text, marker)) j++;
      const last = lines[Math.min(j, lines.length - 1)]!;
      push('code', line, last);
      i = j + 1;
      continue;
    }
    const heading = ATX_HEADING.exec(line.text);
    if (heading) {
      push('heading', line, line, { level: heading[1]!.length, title: headingTitle(line.text) });
      i++;
      continue;
    }
    if (TABLE_LINE.test(line.text) && i + 1 < lines.length && isTableDelimiter(lines[i + 1]!.text)) {
      let j = i + 2;
      while (j < lines.length && TABLE_LINE.test(lines[j]!.text)) j++;
      const range = trimRange(markdown, line.start, lines[i + 1]!.end);
      push('table', line, lines[j - 1]!, { table: { start: range!.start, headerEnd: range!.end } });
      i = j;
      continue;
    }
    const kind: UnitKind = LIST_ITEM.test(line.text) ? 'list' : 'paragraph';
    let j = i + 1;
    while (j < lines.length && !isBlank(lines[j]!) && !startsBlock(lines, j)) j++;
    push(kind, line, lines[j - 1]!);
    i = j;
  }
  return units;
}

function closesFence(text: string, marker: string): boolean {
  const trimmed = text.trim();
  return trimmed.length >= marker.length && trimmed.startsWith(marker) && /^[`~]+$/.test(trimmed) && trimmed[0] === marker[0];
}

function isTableDelimiter(text: string): boolean {
  return text.includes('-') && text.includes('|') && TABLE_DELIMITER.test(text);
}

/** A line that starts a new unit even without a blank line before it (a heading, a fence, a table). */
function startsBlock(lines: Line[], index: number): boolean {
  const text = lines[index]!.text;
  if (ATX_HEADING.test(text) || FENCE.test(text)) return true;
  return TABLE_LINE.test(text) && index + 1 < lines.length && isTableDelimiter(lines[index + 1]!.text);
}

/** `## 1. **Scope** [of](x) work ##` → `1. Scope of work`. */
export function headingTitle(line: string): string {
  const title = line
    .replace(ATX_HEADING, '')
    .replace(/[ \t]+#+[ \t]*$/, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|\*|`|~~)(?=\S)([^]*?\S)\1/g, '$2')
    // Underscores inside a word (snake_case, file_names) are not emphasis.
    .replace(/(?<![\p{L}\p{N}_])(__|_)(?=\S)([^]*?\S)\1(?![\p{L}\p{N}_])/gu, '$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!|~<>])/g, '$1')
    .trim();
  // A character reference last, once tags are gone: `&lt;` is how docmill writes a `<` that could open markup.
  return decodeXmlEntities(title);
}

const SENTENCE_END = /[.!?…。！？]["'”’)\]]*(?=\s)/g;

/**
 * The pieces a unit too large for one chunk is cut into, coarsest first; undefined when it cannot be cut at any
 * structural, line, sentence or word boundary (one long word: the chunker cuts it by characters).
 */
export function splitUnit(markdown: string, unit: Unit): Unit[] | undefined {
  const inherit = unit.table ? { table: unit.table } : {};
  if (unit.kind === 'table' && unit.table) {
    const head: Unit = { kind: 'tableHead', start: unit.table.start, end: unit.table.headerEnd, table: unit.table };
    const rows = lineRanges(markdown, unit.table.headerEnd, unit.end).map((range): Unit => ({ kind: 'row', ...range, table: unit.table! }));
    return [head, ...rows];
  }
  if (unit.kind === 'list') {
    const items = listItems(markdown, unit);
    if (items.length > 1) return items;
  }
  if (unit.kind !== 'row' && unit.kind !== 'sentence' && unit.kind !== 'line' && unit.kind !== 'word') {
    const lines = lineRanges(markdown, unit.start, unit.end);
    if (lines.length > 1) return lines.map((range) => ({ kind: 'line', ...range, ...inherit }));
  }
  if (unit.kind !== 'sentence' && unit.kind !== 'word' && unit.kind !== 'code') {
    const sentences = sentenceRanges(markdown, unit);
    if (sentences.length > 1) return sentences.map((range) => ({ kind: 'sentence', ...range, ...inherit }));
  }
  if (unit.kind !== 'word') {
    const words = [...markdown.slice(unit.start, unit.end).matchAll(/\S+/g)].map(
      (match): Unit => ({ kind: 'word', start: unit.start + match.index, end: unit.start + match.index + match[0].length, ...inherit }),
    );
    if (words.length > 1) return words;
  }
  return undefined;
}

function lineRanges(markdown: string, start: number, end: number): Range[] {
  return linesOf(markdown, { start, end })
    .map((line) => trimRange(markdown, line.start, line.end))
    .filter((range): range is Range => range !== undefined);
}

/** Top-level items: a line with a list marker indented no deeper than the first item's, with what follows it. */
function listItems(markdown: string, unit: Unit): Unit[] {
  const lines = linesOf(markdown, unit);
  const baseIndent = LIST_ITEM.exec(lines[0]!.text)?.[1]!.length ?? 0;
  const items: Unit[] = [];
  let first: Line | undefined;
  let last: Line | undefined;
  const close = () => {
    const range = first && last ? trimRange(markdown, first.start, last.end) : undefined;
    if (range) items.push({ kind: 'item', ...range });
  };
  for (const line of lines) {
    const marker = LIST_ITEM.exec(line.text);
    if (marker && marker[1]!.length <= baseIndent) {
      close();
      first = line;
    }
    first ??= line;
    last = line;
  }
  close();
  return items;
}

function sentenceRanges(markdown: string, unit: Unit): Range[] {
  const text = markdown.slice(unit.start, unit.end);
  const ranges: Range[] = [];
  let from = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    const range = trimRange(markdown, unit.start + from, unit.start + end);
    if (range) ranges.push(range);
    from = end;
  }
  const rest = trimRange(markdown, unit.start + from, unit.end);
  if (rest) ranges.push(rest);
  return ranges;
}
