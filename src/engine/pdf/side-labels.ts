/**
 * A short label set to the left of a block's lines, level with their middle ("Diagram 5" beside the two lines of
 * its caption, "Note" beside a boxed remark): sorted by height it falls between the block's lines and cuts them
 * apart. It is read before the block.
 */
import type { TextLine } from './types.js';
import { countWords } from './white-space.js';

/** Most words in a side label. */
const MAX_WORDS = 4;
/** Fewest words on the first line of the block beside it. */
const MIN_BLOCK_WORDS = 5;

function isSideLabel(label: TextLine, above: TextLine, below: TextLine): boolean {
  if (label.cells.length !== 1 || countWords(label.text) > MAX_WORDS) return false;
  // The block is text (its first line a phrase at least), not another label of a chart or a form.
  if (above.cells.length !== 1 || countWords(above.text) < MIN_BLOCK_WORDS) return false;
  const size = Math.max(above.size, below.size);
  // Above and below are two lines of one block: they start together, one line apart.
  if (Math.abs(above.x0 - below.x0) > 1 || below.top - above.bottom > 0.8 * size) return false;
  if (label.x1 > above.x0 - 0.5 * size) return false;
  const middle = (label.top + label.bottom) / 2;
  return label.baseline > above.baseline && label.baseline < below.baseline && middle > above.top && middle < below.bottom;
}

/** The lines (top to bottom) with each side label moved before the first line of the block beside it. */
export function sideLabelsFirst(lines: readonly TextLine[]): TextLine[] {
  const out = [...lines];
  for (let i = 1; i + 1 < out.length; i++) {
    if (!isSideLabel(out[i]!, out[i - 1]!, out[i + 1]!)) continue;
    const [label] = out.splice(i, 1);
    out.splice(i - 1, 0, label!);
  }
  return out;
}
