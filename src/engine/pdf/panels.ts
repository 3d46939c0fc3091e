/**
 * Boxed sections side by side (a poster's or a leaflet's panels, each a heading band over its paragraphs), which
 * a grid of rules or another reader's cells line up like a table: rows of headings over rows of prose, every cell
 * of a prose row a sentence or more, never a label of a few words. A table's rows hold short cells beside long ones
 * (a term beside its definition) under its header; panels read as sections in the flow, each heading over its
 * text. Pure; reads only the cells' text.
 */
import { countWords } from './white-space.js';

/** A heading's cell: a few words. */
const MAX_HEADING_WORDS = 6;
/** Fewest words in any cell of a prose row (a short reference list's entry); a table's label has fewer. */
const MIN_PROSE_WORDS = 5;
/** A cell of running prose: a sentence of this many words or more, ended. */
const SENTENCE_WORDS = 12;
const SENTENCE_END = /[.!?]["”’)]?$/u;

function filled(row: readonly string[]): string[] {
  return row.map((cell) => cell.trim()).filter(Boolean);
}

function isHeadingRow(row: readonly string[]): boolean {
  const cells = filled(row);
  return cells.length > 0 && cells.every((cell) => countWords(cell) <= MAX_HEADING_WORDS && !SENTENCE_END.test(cell));
}

function isProseRow(row: readonly string[]): boolean {
  const cells = filled(row);
  return cells.length > 0 && cells.every((cell) => countWords(cell) >= MIN_PROSE_WORDS);
}

/** Whether the rows are panels: a heading row first, then rows of headings or of prose, two sentences of it at least. */
export function holdsPanels(rows: readonly (readonly string[])[]): boolean {
  const [first, ...rest] = rows.filter((row) => filled(row).length > 0);
  if (!first || !isHeadingRow(first) || !rest.every((row) => isHeadingRow(row) || isProseRow(row))) return false;
  const sentences = rest.filter((row) => !isHeadingRow(row)).flatMap(filled).filter((cell) => countWords(cell) >= SENTENCE_WORDS && SENTENCE_END.test(cell));
  return sentences.length >= 2;
}
