/**
 * Cards set side by side in a row (a catalogue's products, a team page's people, a brochure's panels): each a name
 * in bold or larger type over a few lines of its own (a price, a sentence or two of description), the cards' lines
 * level with one another. Another reader takes the lines under the names for a table (`£27.99 | £12.75`, then the
 * descriptions' lines a row each), leaving the names over it as a line of headings. They are no table: left in the
 * flow, the page's columns read them card by card, the name over its lines. A table's header over its rows looks
 * alike, but its columns hold values; every card holds a sentence wrapped over lines of its own. Pure.
 */
import type { Rect, TextLine } from './types.js';
import { countWords } from './white-space.js';

/** Cards side by side: at least two, at most this many. */
const MAX_CARDS = 6;
/** Words in a card's name, at most. */
const MAX_NAME_WORDS = 6;
/** A card's name is in bold, or in type this many times the size of the line under it. */
const NAME_STEP = 1.1;
/** Lines under the names, at most. */
const MAX_LINES = 12;
/** A card's next line stands at most this many of its heights under the one above it. */
const LINE_GAP = 1;
/** A card's line starts within this many ems of its name's start. */
const UNDER_EM = 1;
/** Words a card's lines hold, at least: a description, not a value. */
const MIN_CARD_WORDS = 6;

/** A sentence wrapped from one of a card's lines to the next: the first ends no sentence, the next goes on in lower case. */
function wrapsSentence(texts: readonly string[]): boolean {
  return texts.some((text, i) => i + 1 < texts.length && !/[.!?:]$/u.test(text) && /^\p{Ll}/u.test(texts[i + 1]!));
}

/** Whether every column of a table's rows holds a sentence wrapped from row to row: cards may have been read so. */
function mayBeCards(rows: readonly (readonly string[])[]): boolean {
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0);
  if (width < 2 || width > MAX_CARDS || rows.length < 2) return false;
  return Array.from({ length: width }, (_, col) => rows.map((row) => row[col] ?? '').filter(Boolean)).every((texts) => wrapsSentence(texts));
}

/**
 * The end (one past the last line) of a row of cards whose names stand on `lines[0]`, or undefined when the lines
 * under it are not cards: each line's cells start under the names, each card's lines hold a sentence wrapped.
 */
function cardRowEnd(lines: readonly TextLine[]): number | undefined {
  const head = lines[0]!;
  const { cells } = head;
  if (lines.length < 3 || cells.length < 2 || cells.length > MAX_CARDS || cells.some((cell) => countWords(cell.text) > MAX_NAME_WORDS)) return undefined;
  if (!head.bold && head.size < NAME_STEP * lines[1]!.size) return undefined;
  const columns: string[][] = cells.map(() => []);
  let end = 1;
  while (end < lines.length && end <= MAX_LINES) {
    const line = lines[end]!;
    if (line.top - lines[end - 1]!.bottom > LINE_GAP * line.size) break;
    const placed = line.cells.map((cell) => {
      const col = cells.findIndex((name) => Math.abs(cell.x0 - name.x0) <= UNDER_EM * line.size);
      // The cell keeps within its card: it ends before the next card's name starts.
      return col >= 0 && (col + 1 >= cells.length || cell.x1 < cells[col + 1]!.x0) ? col : -1;
    });
    if (placed.some((col) => col < 0) || new Set(placed).size < placed.length) break;
    line.cells.forEach((cell, k) => columns[placed[k]!]!.push(cell.text));
    end++;
  }
  const cards = columns.every((texts) => countWords(texts.join(' ')) >= MIN_CARD_WORDS && wrapsSentence(texts));
  return end >= 3 && cards ? end : undefined;
}

/**
 * Whether the rows another reader took for a table (`rows`, inside `rect`) are the lines of a row of cards, their
 * names on the table's first line or on the line just above it.
 */
export function isCardRowTable(rect: Rect, rows: readonly (readonly string[])[], pageLines: () => readonly TextLine[]): boolean {
  if (!mayBeCards(rows)) return false;
  const lines = pageLines();
  const inside = lines.flatMap((line, index) => (line.top >= rect.y0 - 1 && line.bottom <= rect.y1 + 1 && line.x0 >= rect.x0 - 1 && line.x1 <= rect.x1 + 1 ? [index] : []));
  if (inside.length === 0) return false;
  const first = inside[0]!;
  const last = inside[inside.length - 1]!;
  return [first, first - 1].some((start) => start >= 0 && cardRowEnd(lines.slice(start, last + 1)) === last + 1 - start);
}
