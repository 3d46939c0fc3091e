/**
 * A memo's head (`To:`, `From:`, `Date:`, `Subject:`, each with its value set at a tab) lines up like a table of two
 * columns, but it has no header: read as a table, its first field became the header row of the rest. Two columns
 * whose every row is a label ending in a colon beside its value, the values mostly in words, read as lines, a
 * field a line. Pure; reads only the cells' text.
 */
import { countWords } from './white-space.js';

/** Fewest fields for such a block. */
const MIN_FIELDS = 2;
/** A field's label: a few words ending in a colon. */
const MAX_LABEL_WORDS = 3;
const LABEL = /\p{L}.*:$/u;
/** At least this share of the values hold a word (two letters running). */
const WORDED_SHARE = 0.5;
const WORD = /\p{L}{2}/u;

/** The rows as a field a line (`To: All department heads`), when each is a label and its value; else undefined. */
export function fieldLines(rows: readonly (readonly string[])[]): string[] | undefined {
  const filled = rows.map((row) => row.map((cell) => cell.trim())).filter((row) => row.some(Boolean));
  if (filled.length < MIN_FIELDS) return undefined;
  const width = filled.reduce((max, row) => Math.max(max, row.length), 0);
  if (width !== 2) return undefined;
  const fields = filled.every(([label = '', value = '']) => LABEL.test(label) && countWords(label) <= MAX_LABEL_WORDS && value !== '');
  // Values in words: amounts beside their labels (an invoice's totals) are a table's figures.
  const worded = filled.filter(([, value = '']) => WORD.test(value)).length;
  return fields && worded >= WORDED_SHARE * filled.length ? filled.map(([label, value]) => `${label} ${value}`) : undefined;
}
