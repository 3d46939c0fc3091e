/**
 * A table another reader found whose last row runs on below it: the first lines of two columns of prose set side
 * by side (a panel's two parts, each under its bold label), which that reader took for a table's rows and cut
 * where its detection stopped. A cell of the last row fills its column to the table's edge, ends mid-sentence, and
 * the line right under it, outside the table, starts where the cell starts, one line pitch lower: the sentence goes
 * on there. A table's last cell ends with the table.
 */
import { buildLines } from './lines.js';
import { itemsInside } from './table-header-above.js';
import type { PdfTextItem, Rect, TextLine } from './types.js';

/** How far, in ems, the next line's baseline may sit below the cell's to go on with it. */
const LINE_PITCH_EM = 1.7;
/** A cell this close (in ems) to the table's right edge fills its column. */
const FULL_EM = 1.5;
/** Fewest words in a cell whose sentence runs on. */
const MIN_WORDS = 4;

const SENTENCE_END = /[.!?:;。．！？)\]"”’]$/u;

function lastLine(lines: readonly TextLine[]): TextLine | undefined {
  let last: TextLine | undefined;
  for (const line of lines) if (!last || line.baseline > last.baseline) last = line;
  return last;
}

export function runsOnBelow(rect: Rect, items: readonly PdfTextItem[]): boolean {
  const inside = new Set(itemsInside(rect, items));
  const last = lastLine(buildLines([...inside]));
  if (!last) return false;
  const size = last.size;
  const below = items.filter(
    (item) => !inside.has(item) && item.baseline > last.baseline && item.baseline <= last.baseline + LINE_PITCH_EM * size + 3,
  );
  if (below.length === 0) return false;
  const next = buildLines(below);
  return last.cells.some((cell) => {
    const words = cell.text.trim().split(/\s+/).length;
    if (words < MIN_WORDS || SENTENCE_END.test(cell.text.trim()) || cell.x1 < rect.x1 - FULL_EM * size) return false;
    let baseline = -Infinity;
    for (const item of cell.items) baseline = Math.max(baseline, item.baseline);
    return next.some((line) =>
      line.cells.some(
        (under) => Math.abs(under.x0 - cell.x0) <= 1 && line.baseline > baseline && line.baseline - baseline <= LINE_PITCH_EM * size,
      ),
    );
  });
}
