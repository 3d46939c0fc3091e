/**
 * Two readings of one table: LiteParse's cells and docmill's aligned-text grid. LiteParse's is kept unless
 * docmill's holds all of its words and more of the table, in fewer or as many words again: header rows LiteParse
 * left out of the table (a header set apart from the body, centred over its columns), a row it dropped, a first
 * column it missed, or the same words with a wrapped header cell read as one cell, or with a word at a cell's edge
 * put in the cell the page's empty channel between columns gives it. Pure.
 */
import { overlaps } from './measure.js';
import { hasSpans, type TableGrid } from './table-grid.js';
import type { Rect } from './types.js';
import { withDashesAsHyphens } from './liteparse/dash-widths.js';

/** Share of the found table's words the own reading must hold. */
const HELD = 0.97;
/** The own reading may add at most this share of the found table's words (header rows, a dropped row or column). */
const MAX_ADDED = 0.6;

/** A sign or mark standing as a word of its own before another (`# Samples`, `% change`, `* p`). */
const SIGN_WORD = /(^|\s)([^\p{L}\p{N}\s]+)\s+(?=\S)/gu;

/**
 * A text's words as the readings are compared: a sign set a space before the next word joined to it, as the two
 * readers differ there in small type (LiteParse's `#Samples` against `# Samples`: the space narrower than its
 * threshold), in compatibility form (`²` against `2`), a dash as a hyphen (LiteParse's cells have no dashes).
 */
function tokens(text: string): string[] {
  const normalised = text.replace(SIGN_WORD, '$1$2').normalize('NFKC');
  return withDashesAsHyphens(normalised).split(/\s+/);
}

function words(rows: readonly (readonly string[])[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) for (const cell of row) for (const word of tokens(cell)) if (word) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** The counts `words` gives the texts, of the words in `among` alone: the others need no entry to be counted. */
function wordsAmong(texts: readonly string[], among: ReadonlyMap<string, number>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) for (const word of tokens(text)) if (word && among.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

function total(counts: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const count of counts.values()) sum += count;
  return sum;
}


/** How much taller than the found table the own reading must be to be its rows and more. */
const TALLER = 1.5;

/** The own reading stands over the found one and goes on well past it, above or below: more rows, not a table beside. */
function goesOnPast(own: Rect, found: Rect): boolean {
  return own.y1 - own.y0 >= TALLER * (found.y1 - found.y0);
}

/** Share of a body's rows that must fill every column but one at least. */
const DENSE_BODY = 0.8;

/**
 * Whether the rows from the first one filled in every column but one at least (the first body row, or the header's
 * last) are mostly that full: a table's body, where LiteParse took only its first rows. Prose taken in around a
 * table makes rows of one cell.
 */
function hasDenseBody(rows: readonly (readonly string[])[]): boolean {
  const columns = rows.reduce((max, row) => Math.max(max, row.length), 0);
  if (columns < 2) return false;
  const dense = (row: readonly string[]) => row.filter(Boolean).length >= Math.max(2, columns - 1);
  const first = rows.findIndex(dense);
  if (first < 0) return false;
  const body = rows.slice(first);
  return body.length >= 3 && body.filter(dense).length >= DENSE_BODY * body.length;
}

/**
 * Whether the own reading (rows and place) replaces the found one: they overlap, the own one holds (nearly) every
 * word of the found one, adds no more than a header's worth (or rows of a body as full as a table's, which
 * LiteParse cut short), and splits the rows at least as finely or adds rows,
 * or reads the same words with a header label spanning the columns it heads, which flat rows cannot hold.
 */
export function ownReadingHoldsMore(
  own: { rows: readonly (readonly string[])[]; rect: Rect; grid?: TableGrid },
  found: { rows: readonly (readonly string[])[]; rect: Rect },
): boolean {
  if (!overlaps(own.rect, found.rect)) return false;
  const mine = words(own.rows);
  const theirs = words(found.rows);
  const theirTotal = total(theirs);
  if (theirTotal === 0) return false;
  let held = 0;
  for (const [word, count] of theirs) held += Math.min(count, mine.get(word) ?? 0);
  if (held < HELD * theirTotal) return false;
  const added = total(mine) - held;
  const width = (rows: readonly (readonly string[])[]) => rows.reduce((max, row) => Math.max(max, row.filter(Boolean).length), 0);
  if (
    added > MAX_ADDED * theirTotal &&
    !(goesOnPast(own.rect, found.rect) && width(own.rows) >= width(found.rows) && hasDenseBody(own.rows)) &&
    !addsHeaderAbove(own, found)
  ) {
    return false;
  }
  // The same words: only a better reading of the rows (a wrapped header cell joined, a header's spans, rows the
  // other reader ran together) replaces LiteParse's.
  if (added === 0) {
    const better =
      own.rows.length < found.rows.length ||
      (own.grid !== undefined && hasSpans(own.grid)) ||
      joinsRows(found.rows, own.rows) ||
      movesEdgeWords(found.rows, own.rows) ||
      mixesColumns(found.rows, own.rows);
    return better && width(own.rows) >= width(found.rows);
  }
  return true;
}

/**
 * Whether the own reading is the found one with header rows on top: as many columns, ending where it ends, rising
 * above it, and each of its last rows holding the words of the found row level with it (a header row's first line
 * the other reader left out, its label beside the next one joined in). A long header over a short body adds more
 * words than MAX_ADDED allows, all of them above the body.
 */
function addsHeaderAbove(own: { rows: readonly (readonly string[])[]; rect: Rect }, found: { rows: readonly (readonly string[])[]; rect: Rect }): boolean {
  const extra = own.rows.length - found.rows.length;
  if (extra < 1 || extra > MAX_HEADER_ROWS || own.rows[0]?.length !== found.rows[0]?.length) return false;
  const rowHeight = (found.rect.y1 - found.rect.y0) / found.rows.length;
  if (own.rect.y0 >= found.rect.y0 || Math.abs(own.rect.y1 - found.rect.y1) > rowHeight / 2) return false;
  return found.rows.every((row, r) => {
    const mine = words([own.rows[extra + r]!]);
    for (const [word, count] of words([row])) if ((mine.get(word) ?? 0) < count) return false;
    return true;
  });
}

/** Most header rows the other reader may have left above its table. */
const MAX_HEADER_ROWS = 3;

/** A row's words in order, one space between them. */
function rowWords(row: readonly string[]): string {
  return row.flatMap((cell) => cell.split(/\s+/).filter(Boolean)).join(' ');
}

/**
 * Whether the own reading holds the found one's rows word for word, in as many cells, but with a word at a cell's
 * edge in the next cell: a reader that put a value's first word with its label (`Phone: +44` | `20 7946 0010`, the
 * number set a word space further off than the label's column ends). The own reading's cells end where the page's
 * empty channel between columns runs.
 */
function movesEdgeWords(found: readonly (readonly string[])[], own: readonly (readonly string[])[]): boolean {
  if (found.length !== own.length) return false;
  let moved = false;
  for (let r = 0; r < found.length; r++) {
    const theirs = found[r]!;
    const mine = own[r]!;
    if (theirs.length !== mine.length || rowWords(theirs) !== rowWords(mine)) return false;
    if (theirs.some((cell, col) => cell !== mine[col])) moved = true;
  }
  return moved;
}

/** Copies of words a found table may hold beyond the page's own under its box (words split or joined otherwise). */
const REPEAT_SLACK_WORDS = 3;
const REPEAT_SLACK = 0.1;

/**
 * Whether a found table's cells hold words more times than the page does under its box: a reader that put one
 * line into several cells (the caption over a small ruled table, read into each of its header cells, beside the
 * cells of the table above). A table's cells hold each word of the page once; such a reading is no table's.
 */
export function repeatsText(rows: readonly (readonly string[])[], inside: readonly string[]): boolean {
  const cells = words(rows);
  // One text, so that a sign and its word in items of their own join as they do in a cell.
  const page = wordsAmong([inside.join(' ')], cells);
  let extra = 0;
  for (const [word, count] of cells) extra += Math.max(0, count - (page.get(word) ?? 0));
  return extra > Math.max(REPEAT_SLACK_WORDS, REPEAT_SLACK * total(cells));
}

function filled(row: readonly string[]): string[] {
  return row.filter(Boolean);
}

/**
 * Whether a found row is two or more rows of the own reading run together: each of its cells holds, in order, the
 * cells of those rows in its place, and every one of them fills as many cells as it does (a table's totals set
 * close under one another, `Subtotal VAT` over `302.50 60.50`). A row with one wrapped cell is no such join: the
 * wrapped cell's second line stands alone in its row.
 */
function joinsRows(found: readonly (readonly string[])[], own: readonly (readonly string[])[]): boolean {
  const ownFilled = own.map(filled);
  return found.some((row) => {
    const cells = filled(row);
    if (cells.length < 2) return false;
    for (let first = 0; first < ownFilled.length; first++) {
      for (let last = first + 1; last < ownFilled.length && ownFilled[last]!.length === cells.length; last++) {
        const run = ownFilled.slice(first, last + 1);
        if (run.some((cellsOf) => cellsOf.length !== cells.length)) break;
        if (cells.every((cell, col) => cell === run.map((cellsOf) => cellsOf[col]).join(' '))) return true;
      }
    }
    return false;
  });
}

/**
 * Whether the found reading ran a header's lines together across its columns: one of its cells holds words that the
 * own reading, in as many columns and more rows, sets in two columns or more (a header of three lines set small,
 * read as `Terrace Interval Underground (ft) Pt Values` in one cell, where `Terrace Interval` heads the first column
 * and `Underground Outlets` the second). Only words found in one column of the own reading tell.
 */
function mixesColumns(found: readonly (readonly string[])[], own: readonly (readonly string[])[]): boolean {
  const width = own[0]?.length ?? 0;
  if (own.length <= found.length || width < 2 || own.some((row) => row.length !== width) || found.some((row) => row.length !== width)) return false;
  const columnOf = new Map<string, number>();
  for (const row of own) {
    row.forEach((cell, col) => {
      for (const word of tokens(cell)) {
        if (!word) continue;
        const seen = columnOf.get(word);
        columnOf.set(word, seen === undefined || seen === col ? col : -1);
      }
    });
  }
  return found.some((row) =>
    row.some((cell) => {
      const columns = new Set<number>();
      for (const word of tokens(cell)) {
        const col = columnOf.get(word);
        if (col !== undefined && col >= 0) columns.add(col);
      }
      return columns.size >= 2;
    }),
  );
}

/** How many times the ruled grid's words the found table must hold to replace it. */
const WHOLE_TABLE = 3;

/**
 * Whether a ruled grid is only a part of the table another reader found around it (the first rows of a table
 * whose cells are boxed apart, each box its own grid): the found table covers the grid and holds its words, and
 * several times as many.
 */
export function foundTableHoldsRuled(
  ruled: { rows: readonly (readonly string[])[]; rect: Rect },
  found: { rows: readonly (readonly string[])[]; rect: Rect },
): boolean {
  const slack = 0.02 * (found.rect.x1 - found.rect.x0);
  const inside =
    ruled.rect.x0 >= found.rect.x0 - slack && ruled.rect.x1 <= found.rect.x1 + slack && ruled.rect.y0 >= found.rect.y0 - slack && ruled.rect.y1 <= found.rect.y1 + slack;
  if (!inside) return false;
  const mine = words(ruled.rows);
  const theirs = words(found.rows);
  const ruledTotal = total(mine);
  let held = 0;
  for (const [word, count] of mine) held += Math.min(count, theirs.get(word) ?? 0);
  return ruledTotal > 0 && held >= HELD * ruledTotal && total(theirs) >= WHOLE_TABLE * ruledTotal;
}

/**
 * The found table from `top` down: lines of text above it (a heading over the table, within the found table's
 * box) leave its box, and the cells that begin with their words (a reader pulling them into the header cells)
 * lose those words.
 */
export function foundTableFrom<T extends { rows: string[][]; rect: Rect }>(found: T, top: number, textAbove: readonly string[]): T {
  const prefix = textAbove.join(' ').split(/\s+/).filter(Boolean);
  const rows = found.rows.map((row) =>
    row.map((cell) => {
      const cellWords = cell.split(/\s+/).filter(Boolean);
      let n = 0;
      while (n < prefix.length && n < cellWords.length - 1 && cellWords[n] === prefix[n]) n++;
      return n === prefix.length ? cellWords.slice(n).join(' ') : cell;
    }),
  );
  return { ...found, rows, rect: { ...found.rect, y0: Math.max(found.rect.y0, top) } };
}

/**
 * The least share of the words in a found table's box that its cells must hold. LiteParse also reports "tables" over
 * text it did not split into cells: on a printed web page, boxes 400 pt wide and 600 to 780 pt high over two
 * sections of prose, whose two rows held 6 and 7 of the 163 and 267 words under them. Taken as tables, their boxes
 * took that prose out of the page. Its real tables hold 0.8 to 1.0 of their boxes' words (the PDF benchmark's
 * pages), a heading or a note inside the box the rest.
 */
const CELLS_HOLD = 0.5;

/** Whether a found table's cells hold the text under its box (`inside`: the words of the items there), as a table's do. */
export function cellsHoldText(rows: readonly (readonly string[])[], inside: readonly string[]): boolean {
  return total(words(rows)) >= CELLS_HOLD * total(words([inside]));
}

/**
 * The items of a found table's box that its cells hold: an item whose text no cell holds (a header row the reader
 * left out of its cells, as LiteParse does in small type) stays in the page's flow, where its text is read, not lost
 * with the box. Compared without spaces and in compatibility form: the reader joins and splits words its own way
 * (`# Samples`, `#Samples`), and a raised mark read as `²` is its cell's `2`, a dash its cell's hyphen.
 */
export function itemsTheCellsHold<T extends { str: string }>(rows: readonly (readonly string[])[], inside: readonly T[]): Set<T> {
  const compact = (text: string) => withDashesAsHyphens(text.normalize('NFKC')).replace(/\s+/g, '');
  const cells = rows.flatMap((row) => row.map(compact)).filter(Boolean);
  const held = new Set<T>();
  for (const item of inside) {
    const text = compact(item.str);
    if (text === '' || cells.some((cell) => cell.includes(text))) held.add(item);
  }
  return held;
}
