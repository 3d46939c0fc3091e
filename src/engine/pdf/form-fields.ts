/**
 * A form's fields drawn as a ruled grid: one row of labels (`Card number | Expiry date | Security code`) over or
 * under rows of boxes left empty to write in. A table needs text in two rows, so the grid was dropped and its
 * labels ran together as one line of text; read as a table, the labels head their boxes, which stay as empty rows.
 * Beside their labels (`성 명 | ____ | 생년월일 | ____`), the boxes are columns no text starts in, which a table
 * drops as padding: they stay as empty cells. Pure.
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

/** A column left empty to write in is at least this many ems of the grid's type wide (a double rule's strip is less). */
const MIN_FIELD_COLUMN_EM = 3;
/** Rows in which such a column must be a box of its own: a frame's margin beside the grid is one box down it. */
const MIN_FIELD_BOXES = 2;

/**
 * The grid's columns left empty as boxes to fill in beside their labels (a form's `성 명 | ____ | 생년월일 | ____`):
 * no text starts in them, they are wide, and in two rows or more the column is a box of its own, ruled on both sides
 * and above. A table reads them as empty cells, as the form shows them. `xs` are the grid's column edges, `owner`
 * each position's cell (row-major), `rows` the rows kept, `startsText` whether a cell with text starts in a column.
 */
export function emptyFieldColumns(xs: readonly number[], owner: Int32Array, rows: ReadonlySet<number>, startsText: (col: number) => boolean, size: number): number[] {
  const cols = xs.length - 1;
  const out: number[] = [];
  for (let col = 0; col < cols; col++) {
    if (xs[col + 1]! - xs[col]! < MIN_FIELD_COLUMN_EM * size || startsText(col)) continue;
    let boxes = 0;
    for (const row of rows) {
      const at = row * cols + col;
      const own = owner[at]!;
      if ((col === 0 || owner[at - 1] !== own) && (col + 1 === cols || owner[at + 1] !== own) && (row === 0 || owner[at - cols] !== own)) boxes++;
    }
    if (boxes >= MIN_FIELD_BOXES) out.push(col);
  }
  return out;
}
