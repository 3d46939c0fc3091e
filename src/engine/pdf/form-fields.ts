/**
 * A form's fields drawn as a ruled grid: one row of labels (`Card number | Expiry date | Security code`) over or
 * under rows of boxes left empty to write in. A table needs text in two rows, so the grid was dropped and its
 * labels ran together as one line of text; read as a table, the labels head their boxes, which stay as empty rows.
 * Pure.
 */
import { countWords } from './white-space.js';

/** A box to write in is at least this many ems of its labels' type tall (the strip between double rules is less). */
const MIN_BOX_EM = 1;
/** A field's label is a few words, with a letter in it (a chart's grid holds numbers). */
const MAX_LABEL_WORDS = 6;
const LETTER = /\p{L}/u;

/**
 * The grid's rows left empty as boxes to fill in, when its only text is one row of labels (`textRows`); none
 * otherwise. `ys` are the grid's row edges, top to bottom; `size` the labels' type size.
 */
export function emptyFieldRows(ys: readonly number[], textRows: ReadonlySet<number>, size: number): number[] {
  if (textRows.size !== 1) return [];
  const out: number[] = [];
  for (let row = 0; row + 1 < ys.length; row++) {
    if (!textRows.has(row) && ys[row + 1]! - ys[row]! >= MIN_BOX_EM * size) out.push(row);
  }
  return out;
}

/** Whether a row of cells names fields: two labels or more, each a few words with a letter, and no other text. */
export function namesFields(row: readonly string[]): boolean {
  const labels = row.filter((cell) => cell !== '');
  return labels.length >= 2 && labels.every((label) => LETTER.test(label) && countWords(label) <= MAX_LABEL_WORDS);
}
