/**
 * Retrieval chunks of a parse result: pieces of the document's Markdown within a token budget that follow its
 * structure. Pure: no I/O, the same data and options always give the same chunks.
 *
 * - A chunk stays inside one section (a heading and what follows it up to the next heading); a heading with no
 *   text of its own before the next one is kept with that next section, not emitted alone.
 * - Within a section, units (paragraphs, tables, lists, code blocks) are packed whole into a chunk while they fit;
 *   a unit that does not fit what is left starts the next chunk when it fits a chunk on its own, and is cut only
 *   when it does not: a table between rows (the next chunk's text starts with the table's header row again), a
 *   list between items, anything between lines, then sentences, then words, and a run with no spaces by characters.
 * - Page markers and furniture are never in a chunk: they end the chunk before them.
 * - `text` is `markdown.slice(charStart, charEnd)` after `headerChars` characters of repeated table header (0 but
 *   for a chunk continuing a table). Overlap is taken from the end of the previous chunk of the same section and
 *   unbroken text, by moving `charStart` back to a word start (a row start in a table); new text is packed to
 *   `maxTokens - overlapTokens`, so `tokens` never exceeds `maxTokens`, except for one character that alone counts
 *   more tokens than the budget.
 */
import { createHash } from 'node:crypto';
import type { ParseData } from '../contract/response.js';
import { DocmillError } from '../errors/docmill-error.js';
import { blocksIn, provenanceOf, type Bbox, type Provenance } from './provenance.js';
import { splitUnit, unitsOf, type Range, type TableInfo, type Unit } from './structure.js';
import { isWhitespaceCode } from '../common/whitespace.js';
import { countTokens } from './tokens.js';

export const DEFAULT_CHUNK_TOKENS = 512;

export interface ChunkSource {
  /** The document's path relative to the source root (the manifest's `path`), or the path the caller gave. */
  path: string;
  /** sha256 of the document's bytes, lowercase hex. */
  sha256: string;
}

export interface ChunkingOptions {
  /** The most tokens (cl100k_base) in a chunk's text. @default 512 */
  maxTokens?: number | undefined;
  /** Tokens of the previous chunk's end repeated at the start of the next one in the same section. @default 0 */
  overlapTokens?: number | undefined;
  /** The document the data came from; carried by every chunk and part of its id. */
  source?: ChunkSource | undefined;
}

export interface ChunkBlock {
  id?: string;
  /** 1-based physical page. */
  page: number;
  /** [x0, y0, x1, y1] normalised 0..1 to the page; null when the page has no known size. */
  bbox: Bbox | null;
  type: string;
}

export interface Chunk {
  /** Stable for the same source path, bytes and chunk text at the same offsets: sha256 hex, 32 digits. */
  id: string;
  /** Position in the document, from 0. */
  index: number;
  /** What to embed: `markdown.slice(charStart, charEnd)`, after `headerChars` characters of repeated table header. */
  text: string;
  /** Tokens in `text` (cl100k_base). */
  tokens: number;
  /** The titles of the section the chunk is in and of those above it, outermost first. */
  headingPath: string[];
  /** Physical pages of the chunk's first and last characters; null when the parse gave no page information. */
  pageStart: number | null;
  pageEnd: number | null;
  /** [charStart, charEnd) in `data.markdown`, JavaScript string (UTF-16) indices. */
  charStart: number;
  charEnd: number;
  /** Length of the table header repeated at the start of `text` (0 unless the chunk continues a split table). */
  headerChars: number;
  /** The layout blocks the chunk covers (those the parse gave with a markdownSpan), in Markdown order. */
  blocks: ChunkBlock[];
  /**
   * The pictures its text shows (`![alt](report.pdf.assets/p3-figure-1.png)`), as linked, each once, in order:
   * with `--images`, paths relative to the Markdown, for a loader to attach. Absent when it shows none.
   */
  images?: string[];
  source: ChunkSource | null;
}

export class ChunkOptionsError extends DocmillError {
  constructor(message: string) {
    super('INVALID_SETTING', message);
  }
}

/** One chunk before its text and provenance are filled in. */
interface Draft {
  units: Unit[];
  /** The table whose header the text repeats, when the chunk continues a table. */
  header: TableInfo | undefined;
  tokens: number;
  hasContent: boolean;
}

interface Section {
  headingPath: string[];
  units: Unit[];
}

const BREAK: Unit = { kind: 'break', start: 0, end: 0 };
/** More characters than cl100k_base puts in one token of ordinary text. */
const LONGEST_TOKEN_CHARS = 32;
const STICKY = new Set(['heading', 'tableHead']);

export function chunk(data: ParseData, options: ChunkingOptions = {}): Chunk[] {
  const maxTokens = options.maxTokens ?? DEFAULT_CHUNK_TOKENS;
  const overlapTokens = options.overlapTokens ?? 0;
  if (!Number.isSafeInteger(maxTokens) || maxTokens < 1) throw new ChunkOptionsError(`maxTokens must be a positive integer, not ${maxTokens}`);
  if (!Number.isSafeInteger(overlapTokens) || overlapTokens < 0 || overlapTokens >= maxTokens) {
    throw new ChunkOptionsError(`overlapTokens must be an integer from 0 to maxTokens - 1 (${maxTokens - 1}), not ${overlapTokens}`);
  }
  const markdown = data.markdown ?? '';
  const provenance = provenanceOf(data, markdown);
  const chunker = new Chunker(markdown, maxTokens, overlapTokens);
  const chunks: Chunk[] = [];
  for (const section of sectionsOf(markdown, provenance.barriers)) {
    for (const piece of chunker.section(section.units)) {
      chunks.push(finish(markdown, piece, section.headingPath, provenance, options.source ?? null, chunks.length));
    }
  }
  return chunks;
}

interface Piece {
  start: number;
  end: number;
  header: string;
  tokens: number;
}

function finish(markdown: string, piece: Piece, headingPath: string[], provenance: Provenance, source: ChunkSource | null, index: number): Chunk {
  const text = piece.header + markdown.slice(piece.start, piece.end);
  return {
    id: chunkId(source, piece.start, piece.end, text),
    index,
    text,
    tokens: piece.tokens,
    headingPath,
    pageStart: provenance.pageAt(piece.start),
    pageEnd: provenance.pageAt(piece.end - 1),
    charStart: piece.start,
    charEnd: piece.end,
    headerChars: piece.header.length,
    blocks: blocksIn(provenance.blocks, piece.start, piece.end).map((block) => ({
      ...(block.id !== undefined ? { id: block.id } : {}),
      page: block.page,
      bbox: block.bbox,
      type: block.type,
    })),
    ...imagesOf(text),
    source,
  };
}

/** A Markdown image's destination: `![alt](dest)` or `![alt](<dest> "title")`. */
const IMAGE_LINK = /!\[(?:[^\]\\]|\\.)*\]\(\s*(?:<([^>\n]+)>|([^\s)]+))(?:\s+"[^"]*")?\s*\)/g;

/** `{ images }` when the text shows pictures (data: URIs left out: they are no file to attach), else nothing. */
function imagesOf(text: string): { images?: string[] } {
  if (!text.includes('![')) return {};
  const images = [...text.matchAll(IMAGE_LINK)].map((match) => match[1] ?? match[2] ?? '').filter((target) => target !== '' && !/^data:/i.test(target));
  return images.length > 0 ? { images: [...new Set(images)] } : {};
}

/** sha256 of the source path and bytes, the offsets and the text: the same rerun gives the same id. */
export function chunkId(source: ChunkSource | null, charStart: number, charEnd: number, text: string): string {
  return createHash('sha256')
    .update(JSON.stringify([source?.path ?? null, source?.sha256 ?? null, charStart, charEnd, text]))
    .digest('hex')
    .slice(0, 32);
}

/** The document's units grouped by section, with a break unit where a barrier separates two regions. */
function sectionsOf(markdown: string, barriers: Range[]): Section[] {
  const sections: Section[] = [];
  const stack: Array<{ level: number; title: string }> = [];
  let current: Section = { headingPath: [], units: [] };
  let hasContent = false;
  let from = 0;
  const regions: Range[] = [];
  for (const barrier of barriers) {
    if (barrier.start > from) regions.push({ start: from, end: barrier.start });
    from = Math.max(from, barrier.end);
  }
  if (from < markdown.length) regions.push({ start: from, end: markdown.length });
  regions.forEach((region, index) => {
    if (index > 0) current.units.push(BREAK);
    for (const unit of unitsOf(markdown, region)) {
      if (unit.kind === 'heading') {
        if (hasContent) {
          sections.push(current);
          current = { headingPath: [], units: [] };
          hasContent = false;
        }
        while (stack.length > 0 && stack.at(-1)!.level >= unit.level!) stack.pop();
        stack.push({ level: unit.level!, title: unit.title! });
        current.headingPath = stack.map((entry) => entry.title).filter((title) => title !== '');
      } else {
        hasContent = true;
      }
      current.units.push(unit);
    }
  });
  if (current.units.some((unit) => unit.kind !== 'break')) sections.push(current);
  return sections;
}

class Chunker {
  readonly #tokenCache = new Map<number, number>();
  /** The factor of a span's start in its cache key: one more than the Markdown's length. */
  readonly #span: number;
  readonly #textCache = new Map<string, number>();
  readonly #budget: number;

  constructor(
    private readonly markdown: string,
    private readonly maxTokens: number,
    private readonly overlapTokens: number,
  ) {
    this.#budget = maxTokens - overlapTokens;
    this.#span = markdown.length + 1;
  }

  /** The chunks of one section, overlap applied. */
  section(units: Unit[]): Piece[] {
    const drafts: Array<Draft | undefined> = [];
    // Units still to place, the next one last (pop and push are O(1); a section can hold tens of thousands).
    const queue = new UnitStack(units);
    let draft: Draft | undefined;
    const flush = () => {
      if (!draft) return;
      const fitted = this.#fit(draft, queue);
      if (fitted) drafts.push(fitted);
      draft = undefined;
    };
    for (;;) {
      if (queue.empty) {
        if (!draft) break;
        flush();
        continue;
      }
      const unit = queue.next();
      if (unit.kind === 'break') {
        if (draft) {
          // Units the flush gives back belong before the break, so it is met again after them.
          queue.putBack(unit);
          flush();
        } else {
          drafts.push(undefined);
        }
        continue;
      }
      const tokens = this.#unitTokens(unit);
      if (!draft) {
        const header = this.#headerFor(unit);
        const cost = tokens + (header ? this.#headerTokens(header) : 0);
        if (cost <= this.#budget) {
          draft = { units: [unit], header, tokens: cost, hasContent: !STICKY.has(unit.kind) };
        } else {
          const pieces = this.#cut(unit, this.#budget - (header ? this.#headerTokens(header) : 0));
          if (pieces.length > 1) queue.putBackAll(pieces);
          else draft = { units: [unit], header, tokens: cost, hasContent: true };
        }
        continue;
      }
      const last = draft.units.at(-1)!;
      const added = this.#gapTokens(last.end, unit.start) + tokens;
      if (draft.tokens + added <= this.#budget) {
        draft.units.push(unit);
        draft.tokens += added;
        if (!STICKY.has(unit.kind)) draft.hasContent = true;
        continue;
      }
      const alone = tokens + (this.#headerFor(unit) ? this.#headerTokens(this.#headerFor(unit)!) : 0);
      if (draft.hasContent && alone <= this.#budget) {
        // Put back before the flush: units the flush gives back then come before it again.
        queue.putBack(unit);
        flush();
        continue;
      }
      const parts = splitUnit(this.markdown, unit);
      if (parts) {
        queue.putBackAll(parts);
        continue;
      }
      // One word that does not fit what is left: it starts the next chunk (cut by characters there if need be).
      queue.putBack(unit);
      flush();
    }
    return this.#withOverlap(drafts);
  }

  /**
   * The draft's exact token count, which the running estimate (unit counts plus one token per line break between
   * units) can miss by a token or two: while over, its last unit goes back to the queue for the next chunk.
   */
  #fit(draft: Draft, queue: UnitStack): Draft | undefined {
    // A heading or a table's header row never ends a chunk when there is text before it: it goes with what follows.
    while (draft.units.length > 1 && STICKY.has(draft.units.at(-1)!.kind) && draft.units.some((unit) => !STICKY.has(unit.kind))) {
      queue.putBack(draft.units.pop()!);
    }
    for (;;) {
      const first = draft.units[0]!;
      const header = draft.header ? this.#headerText(draft.header) : '';
      const exact = this.#spanTokens(draft.units, header);
      if (exact <= this.#budget) {
        draft.tokens = exact;
        return draft;
      }
      if (draft.units.length === 1) {
        const parts = this.#cut(first, this.#budget - (draft.header ? this.#headerTokens(draft.header) : 0));
        if (parts.length > 1) {
          queue.putBackAll(parts);
          return undefined;
        }
        draft.tokens = exact;
        return draft;
      }
      queue.putBack(draft.units.pop()!);
    }
  }

  /** A unit too large for `limit` tokens, in pieces: by structure, lines, sentences, words, then characters. */
  #cut(unit: Unit, limit: number): Unit[] {
    const parts = splitUnit(this.markdown, unit);
    if (parts) return parts;
    const pieces: Unit[] = [];
    let start = unit.start;
    const room = Math.max(1, limit);
    while (start < unit.end) {
      let length = Math.min(unit.end - start, room * 4);
      while (length > 1 && this.#tokens(start, start + safeEnd(this.markdown, start, length)) > room) length = Math.ceil(length / 2);
      const end = start + safeEnd(this.markdown, start, length);
      pieces.push({ ...unit, kind: 'word', start, end });
      start = end;
    }
    // A single piece means one character over the budget: it is kept whole rather than cut inside itself.
    return pieces.length > 1 ? pieces : [unit];
  }

  /**
   * A unit's tokens; a unit far longer than a chunk counts as too large without being counted, since counting one
   * long run with no spaces (base64, a minified line) costs time quadratic in its length.
   */
  #unitTokens(unit: Unit): number {
    if (unit.end - unit.start > this.#budget * LONGEST_TOKEN_CHARS) return Number.POSITIVE_INFINITY;
    return this.#tokens(unit.start, unit.end);
  }

  #headerFor(unit: Unit): TableInfo | undefined {
    const table = unit.table;
    if (!table || unit.start < table.headerEnd) return undefined;
    // A header taking more than half the budget is not repeated: the rows would hardly fit beside it.
    return this.#headerTokens(table) * 2 <= this.#budget ? table : undefined;
  }

  #headerText(table: TableInfo): string {
    return `${this.markdown.slice(table.start, table.headerEnd)}\n`;
  }

  #headerTokens(table: TableInfo): number {
    return this.#tokens(table.start, table.headerEnd) + 1;
  }

  #gapTokens(from: number, to: number): number {
    return this.markdown.slice(from, to).includes('\n') ? 1 : 0;
  }

  /**
   * Exact tokens of `prefix` followed by the Markdown from `from` (the first unit's start, or a word before it) to the
   * last unit's end, from the units' own counts (made once, while packing) and what each gap between two of them adds
   * (`#jointTokens`, counted on a few characters): cl100k_base cuts text into pre-tokens by a pattern before it
   * encodes each one alone, and the parts that pattern never joins are counted apart. A table's repeated header ends
   * with a line break before a row, such a cut too. Where a gap is not one (pieces of a word cut by characters), the
   * whole text is counted.
   */
  #spanTokens(units: readonly Unit[], prefix: string, from = units[0]!.start): number {
    const first = units[0]!;
    const last = units.at(-1)!;
    const whole = () => this.#tokens(from, last.end, prefix);
    if (prefix !== '' && !(prefix.endsWith('\n') && !isSpace(this.markdown, from))) return whole();
    let total = prefix === '' ? 0 : this.#textTokens(prefix);
    // Words taken before the first unit (the overlap) count as a unit of their own.
    const before = from < first.start ? trimmedEnd(this.markdown, from, first.start) : from;
    const parts = before > from ? [{ kind: first.kind, start: from, end: before }, ...units] : units;
    for (let i = 0; i < parts.length; i++) {
      const unit = parts[i]!;
      total += this.#tokens(unit.start, unit.end);
      const next = parts[i + 1];
      if (next === undefined) break;
      const joint = this.#jointTokens(unit, next, parts[0]!.start);
      if (joint === undefined) return whole();
      total += joint;
    }
    return total;
  }

  /**
   * The exact tokens of `markdown[at, end)` for any `at` in `[from, end)`: the overlap's search asks it of many starts
   * in the same words. The stretch is cut at splits (`#splitsBefore`, and before a space that follows a character
   * that is not whitespace, see `#jointTokens`) at least `SUFFIX_PART_CHARS` apart, each part counted once; a start
   * then costs the count of its text up to the next cut.
   */
  #suffixTokens(from: number, end: number): (at: number) => number {
    const cuts: number[] = [];
    for (let at = from + SUFFIX_PART_CHARS; at < end; at++) {
      const code = this.markdown.charCodeAt(at);
      if ((code === SPACE && !isSpace(this.markdown, at - 1)) || this.#splitsBefore(at)) {
        cuts.push(at);
        at += SUFFIX_PART_CHARS - 1;
      }
    }
    // after[i]: the tokens of markdown[cuts[i], end).
    const after = new Array<number>(cuts.length + 1).fill(0);
    for (let i = cuts.length - 1; i >= 0; i--) after[i] = after[i + 1]! + this.#tokens(cuts[i]!, cuts[i + 1] ?? end);
    return (at) => {
      let i = 0;
      while (i < cuts.length && cuts[i]! <= at) i++;
      return this.#tokens(at, cuts[i] ?? end) + after[i]!;
    };
  }

  /** Whether the text splits before `at` for counting: a line starts there, with no whitespace. */
  #splitsBefore(at: number): boolean {
    return at > 0 && this.markdown.charCodeAt(at - 1) === NEWLINE && !isSpace(this.markdown, at);
  }

  /**
   * The tokens the whitespace between two units adds to theirs (undefined where the text cannot be cut there, or the
   * gap holds more than whitespace). The pre-tokenizer joins no newline to what follows it, and after a character
   * that is not whitespace gives a space only to the word after it; so the text is cut after the gap's last line
   * break (or before a lone space), and only what touches the cut counts again: a closing run of punctuation of the
   * first unit (with the space before it) takes the line breaks (`.\n\n`, `|\n`); the indent of the next line, or
   * the lone space, goes with the next unit's first word.
   */
  #jointTokens(unit: Unit, next: Unit, textStart: number): number | undefined {
    const gap = this.markdown.slice(unit.end, next.start);
    if (!ONLY_WHITESPACE.test(gap)) return undefined;
    const lastBreak = Math.max(gap.lastIndexOf('\n'), gap.lastIndexOf('\r'));
    if (lastBreak === -1 && gap !== ' ') return undefined;
    const breaks = gap.slice(0, lastBreak + 1);
    const indent = gap.slice(lastBreak + 1);
    let joint = 0;
    if (breaks !== '') {
      const lead = closingPunctuation(this.markdown, textStart, unit.start, unit.end);
      joint += lead === '' ? this.#textTokens(breaks) : this.#textTokens(lead + breaks) - this.#textTokens(lead);
    }
    if (indent !== '') {
      const head = firstWord(this.markdown, next.start, next.end);
      if (head === undefined) return undefined;
      joint += this.#textTokens(indent + head) - this.#textTokens(head);
    }
    return joint;
  }

  /** Tokens of a short text met again and again (a table's header, a gap, a closing run), counted once. */
  #textTokens(text: string): number {
    let tokens = this.#textCache.get(text);
    if (tokens === undefined) {
      tokens = countTokens(text);
      this.#textCache.set(text, tokens);
    }
    return tokens;
  }

  /** Tokens of `prefix` and `markdown[start, end)`; those of a span alone are kept, by its offsets. */
  #tokens(start: number, end: number, prefix = ''): number {
    if (prefix !== '' || this.#span > MAX_KEYED_SPAN) return countTokens(prefix + this.markdown.slice(start, end));
    // One number for both offsets: a number key is found faster than a string made for each lookup, over a table's
    // hundred thousand rows.
    const key = start * this.#span + end;
    let tokens = this.#tokenCache.get(key);
    if (tokens === undefined) {
      tokens = countTokens(this.markdown.slice(start, end));
      this.#tokenCache.set(key, tokens);
    }
    return tokens;
  }

  /** Drafts to pieces; each piece after the first of an unbroken run takes the end of the one before as overlap. */
  #withOverlap(drafts: Array<Draft | undefined>): Piece[] {
    const pieces: Piece[] = [];
    let previous: Piece | undefined;
    for (const draft of drafts) {
      if (draft === undefined) {
        previous = undefined;
        continue;
      }
      const start = draft.units[0]!.start;
      const end = draft.units.at(-1)!.end;
      const header = draft.header ? this.#headerText(draft.header) : '';
      let piece: Piece = { start, end, header, tokens: draft.tokens };
      if (previous && this.overlapTokens > 0) piece = this.#overlap(previous, piece, draft);
      pieces.push(piece);
      previous = { ...piece, start };
    }
    return pieces;
  }

  /**
   * Moves the piece's start back into the previous piece, to the earliest word start (row start, in a table)
   * whose text to the previous end fits the overlap, as long as the whole stays within maxTokens.
   */
  #overlap(previous: Piece, piece: Piece, draft: Draft): Piece {
    const table = draft.header;
    const candidates: number[] = [];
    // A token is rarely longer than a dozen characters: looking further back would only cost token counts.
    const window = Math.max(previous.start, previous.end - this.overlapTokens * 12);
    const from = table ? Math.max(window, table.headerEnd) : window;
    // In a table row, overlap starts at the row's start, never between two cells.
    let inRow = /^[ \t]*\|/.test(this.markdown.slice(this.markdown.lastIndexOf('\n', from - 1) + 1, from + 1));
    for (let i = from; i < previous.end; i++) {
      const lineStart = i === 0 || this.markdown[i - 1] === '\n';
      if (lineStart) inRow = /^[ \t]*\|/.test(this.markdown.slice(i, i + 64));
      const boundary = table || inRow ? lineStart : i === previous.start || /\s/.test(this.markdown[i - 1]!);
      if (boundary && !/\s/.test(this.markdown[i]!)) candidates.push(i);
    }
    // Candidates run from the earliest start (most overlap) to the latest; the first that fits wins.
    const tokensFrom = this.#suffixTokens(from, previous.end);
    let low = 0;
    let high = candidates.length - 1;
    let best: number | undefined;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const at = candidates[middle]!;
      if (tokensFrom(at) <= this.overlapTokens) {
        best = middle;
        high = middle - 1;
      } else {
        low = middle + 1;
      }
    }
    for (let index = best; index !== undefined && index < candidates.length; index++) {
      const start = candidates[index]!;
      const tokens = this.#spanTokens(draft.units, piece.header, start);
      if (tokens <= this.maxTokens) return { ...piece, start, tokens };
    }
    return piece;
  }
}

/** A queue of units taken from the front and given back to the front, kept reversed so both ends are cheap. */
class UnitStack {
  readonly #reversed: Unit[];

  constructor(units: Unit[]) {
    this.#reversed = [...units].reverse();
  }

  get empty(): boolean {
    return this.#reversed.length === 0;
  }

  next(): Unit {
    return this.#reversed.pop()!;
  }

  putBack(unit: Unit): void {
    this.#reversed.push(unit);
  }

  /** Puts units back in front, in their order (an array, not arguments: a table can have 100,000 rows). */
  putBackAll(units: readonly Unit[]): void {
    for (let i = units.length - 1; i >= 0; i--) this.#reversed.push(units[i]!);
  }
}

const NEWLINE = 0x0a;
const SPACE = 0x20;
/** The shortest part the overlap's search counts apart (`#suffixTokens`): longer parts, fewer calls. */
const SUFFIX_PART_CHARS = 48;
/** The longest Markdown (plus one) whose spans' cache keys, start × span + end, stay exact integers (below 2^53). */
const MAX_KEYED_SPAN = Math.floor(Math.sqrt(Number.MAX_SAFE_INTEGER));
const ONLY_WHITESPACE = /^\s+$/;
const FIRST_WHITESPACE = /\s/g;
/** What cl100k_base's pre-tokenizer takes for a word or a number: letters and digits (a closing run holds neither). */
const WORD_CHARACTER = /[\s\p{L}\p{N}]/u;

function isSpace(markdown: string, at: number): boolean {
  return at < markdown.length && isWhitespaceCode(markdown.charCodeAt(at));
}

/**
 * The run of characters that are neither whitespace, letters nor digits closing `markdown[start, end)`, with the
 * space before it if there is one in the text counted (from `textStart`: a run that is a whole unit takes the space
 * between it and the unit before): one pre-token of cl100k_base (` ?[^\s\p{L}\p{N}]+[\r\n]*`), which takes the
 * newlines after it. '' when the text ends with a letter or a digit.
 */
function closingPunctuation(markdown: string, textStart: number, start: number, end: number): string {
  let at = end;
  while (at > start) {
    // A character outside the BMP is two code units: tested whole.
    const width = at - 2 >= start && isSurrogatePair(markdown.charCodeAt(at - 2), markdown.charCodeAt(at - 1)) ? 2 : 1;
    if (WORD_CHARACTER.test(markdown.slice(at - width, at))) break;
    at -= width;
  }
  if (at === end) return '';
  const spaced = at > textStart && markdown[at - 1] === ' ';
  return markdown.slice(spaced ? at - 1 : at, end);
}

/**
 * `markdown[start, end)` (which starts with no whitespace) up to its first whitespace when that is a space (after a
 * character that is not whitespace, nothing takes a space but the pre-token after it: a split), or all of it when
 * it holds none: what a space before it changes the count of. Undefined when its first whitespace is another.
 */
function firstWord(markdown: string, start: number, end: number): string | undefined {
  FIRST_WHITESPACE.lastIndex = start;
  const found = FIRST_WHITESPACE.exec(markdown);
  if (found === null || found.index >= end) return markdown.slice(start, end);
  return found[0] === ' ' ? markdown.slice(start, found.index) : undefined;
}

/** The end of `markdown[start, end)` without the whitespace it ends with. */
function trimmedEnd(markdown: string, start: number, end: number): number {
  let at = end;
  while (at > start && isSpace(markdown, at - 1)) at--;
  return at;
}

function isSurrogatePair(high: number, low: number): boolean {
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/** `length` characters from `start`, shortened by one when that would cut a surrogate pair in two. */
function safeEnd(markdown: string, start: number, length: number): number {
  const code = markdown.charCodeAt(start + length - 1);
  return length > 1 && code >= 0xd800 && code <= 0xdbff ? length - 1 : length;
}
