/**
 * A short label set to the left of a block's lines, level with their middle ("Diagram 5" beside the two lines of
 * its caption, "Note" beside a boxed remark): sorted by height it falls between the block's lines and cuts them
 * apart. It is read before the block. One level with the block's first line (a CV's "Work Experience" beside the
 * paragraph it heads) is a line of its own: run into that line, it parted the line from the rest of its paragraph;
 * one ending in a colon (a speaker's name in a transcript) leads its text and stays in its line. A glossary's term
 * beside a one-line definition, in a column with terms whose definitions run on, stands apart as they do.
 */
import { buildLine } from './lines.js';
import type { TextLine } from './types.js';
import { countWords } from './white-space.js';

/** Most words in a side label. */
const MAX_WORDS = 4;
/** Fewest words on the first line of the block beside it. */
const MIN_BLOCK_WORDS = 5;

function isSideLabel(label: TextLine, above: TextLine, below: TextLine): boolean {
  if (label.cells.length !== 1 || above.cells.length !== 1) return false;
  const size = Math.max(above.size, below.size);
  // Above and below are two lines of one block: they start together, one line apart. Asked of every line of every
  // region, the places are looked at before the words are counted.
  if (Math.abs(above.x0 - below.x0) > 1 || below.top - above.bottom > 0.8 * size) return false;
  if (label.x1 > above.x0 - 0.5 * size) return false;
  const middle = (label.top + label.bottom) / 2;
  if (!(label.baseline > above.baseline && label.baseline < below.baseline && middle > above.top && middle < below.bottom)) return false;
  // The block is text (its first line a phrase at least), not another label of a chart or a form.
  return countWords(label.text) <= MAX_WORDS && countWords(above.text) >= MIN_BLOCK_WORDS;
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

/** The least gap, in ems, between a run-in side label and the block's first line. */
const RUN_IN_GAP_EM = 2;
/** How far (ems) the block's next line may start from its first line's start. */
const BLOCK_ALIGN_EM = 0.5;
const ENDS_SENTENCE = /[.!?]$/u;
/** A label ending in a colon leads its text (a speaker's name in a transcript, a field's name): it reads with it. */
const LEADS_TEXT = /:$/u;

/** The line opens with a short label set apart from a phrase of text: `Work Experience` … `Led a team of …`. */
function opensWithLabel(line: TextLine): boolean {
  if (line.rtl || line.cells.length < 2) return false;
  const [label, first] = line.cells as [TextLine['cells'][number], TextLine['cells'][number]];
  if (countWords(label.text) > MAX_WORDS || !/\p{L}/u.test(label.text) || ENDS_SENTENCE.test(label.text) || LEADS_TEXT.test(label.text)) return false;
  if (first.x0 - label.x1 < RUN_IN_GAP_EM * line.size) return false;
  return countWords(line.cells.slice(1).map((cell) => cell.text).join(' ')) >= MIN_BLOCK_WORDS;
}

/**
 * The line's first cell is a short label set apart, level with the first line of the block the next line goes on;
 * or the block is this line alone, in a column of such labels (a glossary's term beside a one-line definition, under
 * or over terms whose definitions run on: `nearest` finds the label lines around it).
 */
function hasRunInLabel(line: TextLine, next: TextLine | undefined, nearest: (step: -1 | 1) => [TextLine, TextLine | undefined] | undefined): boolean {
  if (!opensWithLabel(line)) return false;
  if (runsOnUnder(line, next)) return true;
  const [label, first] = line.cells as [TextLine['cells'][number], TextLine['cells'][number]];
  const size = line.size;
  // A label whose block is this line alone, beside labels whose blocks run on, in one column with it.
  const inColumn = (found: [TextLine, TextLine | undefined] | undefined) => {
    if (!found) return false;
    const [other, afterOther] = found;
    return (
      other.cells.length >= 2 &&
      Math.abs(other.cells[0]!.x0 - label.x0) <= BLOCK_ALIGN_EM * size &&
      Math.abs(other.cells[1]!.x0 - first.x0) <= BLOCK_ALIGN_EM * size &&
      opensWithLabel(other) &&
      runsOnUnder(other, afterOther)
    );
  };
  return inColumn(nearest(-1)) || inColumn(nearest(1));
}

/** The block beside the line's label goes on under its first line, at its start, with nothing under the label. */
function runsOnUnder(line: TextLine, next: TextLine | undefined): boolean {
  const first = line.cells[1];
  const size = line.size;
  return (
    first !== undefined &&
    next !== undefined &&
    Math.abs(next.x0 - first.x0) <= BLOCK_ALIGN_EM * size &&
    next.top - line.bottom <= 0.8 * size &&
    Math.abs(next.size - size) <= 0.12 * size
  );
}

/** The lines (top to bottom) with each run-in side label made a line of its own, before the block's first line. */
export function runInLabelsApart(lines: readonly TextLine[]): TextLine[] {
  let out: TextLine[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // The nearest line above or below this one that is not a line of its block's text (starting where it does).
    const nearest = (step: -1 | 1): [TextLine, TextLine | undefined] | undefined => {
      const start = line.cells[1]?.x0 ?? line.x0;
      for (let at = i + step; at >= 0 && at < lines.length; at += step) {
        const other = lines[at]!;
        if (other.cells.length !== 1 || Math.abs(other.x0 - start) > BLOCK_ALIGN_EM * other.size) return [other, lines[at + 1]];
      }
      return undefined;
    };
    if (!hasRunInLabel(line, lines[i + 1], nearest)) {
      out?.push(line);
      continue;
    }
    out ??= lines.slice(0, i);
    out.push(buildLine(line.cells[0]!.items), buildLine(line.cells.slice(1).flatMap((cell) => cell.items)));
  }
  return out ?? [...lines];
}
