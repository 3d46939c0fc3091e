/**
 * Two columns of short lines side by side, each at its own pitch: a résumé's contact lines beside its sections, a
 * sidebar of labels beside a list. Neither side's lines stand on the other's baselines: they interleave, a line of
 * one column between two lines of the other set at a line's pitch. A table's rows share their baselines across the
 * columns (a cell's wrapped lines are one row's, with nothing of another column between them), and a label centred
 * down its rows stands alone, a row's height from the next label. Pure.
 */
import type { TextLine } from './types.js';

/** Two lines of one column are consecutive lines of a text when their baselines are at most this many ems apart. */
const LINE_PITCH_EM = 1.6;
/** Pairs of a column's consecutive lines with another column's line between them that make two streams. */
const MIN_INTERLEAVED = 3;

/**
 * Whether, in `section` (top to bottom), the lines holding cells in one column only (`columnOf` gives a line's
 * column, undefined for a line over several) interleave with another column's: at least MIN_INTERLEAVED times, two
 * consecutive lines of one column, a line's pitch apart, have a line of another column between them.
 */
export function holdsInterleavedStreams(section: readonly TextLine[], columnOf: (line: TextLine) => number | undefined): boolean {
  const last = new Map<number, { line: TextLine; index: number }>();
  const columns = section.map(columnOf);
  let interleaved = 0;
  section.forEach((line, index) => {
    const column = columns[index];
    if (column === undefined) {
      // A row across the columns ends both streams.
      last.clear();
      return;
    }
    const before = last.get(column);
    if (before && line.baseline - before.line.baseline <= LINE_PITCH_EM * Math.max(line.size, before.line.size)) {
      for (let k = before.index + 1; k < index; k++) {
        if (columns[k] !== undefined && columns[k] !== column) {
          interleaved++;
          break;
        }
      }
    }
    last.set(column, { line, index });
  });
  return interleaved >= MIN_INTERLEAVED;
}
