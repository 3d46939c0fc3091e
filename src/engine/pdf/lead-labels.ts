/**
 * Entries led by a short label set apart from their text, the text's wrapped lines set in under it: a transcript's
 * `Q.` and `A.`, a speaker's name, a term before its definition. Each entry's first line starts back at the label's
 * place with its text where the entry above had its text: a line so led never goes on the entry above, however
 * close under it (double-spaced transcripts set every line a blank line apart). Pure.
 */
import type { TextLine } from './types.js';
import { countWords } from './white-space.js';

/** Most words in a lead label. */
const MAX_LABEL_WORDS = 3;
/** Least gap, in ems, between the label and its text: a tab, not a word space. */
const LABEL_GAP_EM = 1;
/** How far apart (ems) two labels, or two texts, may start and still stand in one place. */
const ALIGN_EM = 0.3;

/** Where the line's text starts after a lead label set apart, or undefined when it has none. */
function textAfterLabel(line: TextLine): number | undefined {
  if (line.rtl || line.cells.length < 2) return undefined;
  const [label, text] = line.cells as [TextLine['cells'][number], TextLine['cells'][number]];
  if (countWords(label.text) > MAX_LABEL_WORDS || text.x0 - label.x1 < LABEL_GAP_EM * line.size) return undefined;
  return text.x0;
}

/**
 * Whether `line` leads an entry of its own after the entry that `first` leads: both led by a label set apart, the
 * labels starting in one place and the texts after them in another.
 */
export function leadsNextEntry(first: TextLine, line: TextLine): boolean {
  const firstText = textAfterLabel(first);
  const lineText = textAfterLabel(line);
  if (firstText === undefined || lineText === undefined) return false;
  const align = ALIGN_EM * Math.max(first.size, line.size);
  return Math.abs(first.x0 - line.x0) <= align && Math.abs(firstText - lineText) <= align;
}

/** Whether `line` is led by a label set apart whose text starts at `x` (within ALIGN_EM). */
export function labelsTextAt(line: TextLine, x: number): boolean {
  const text = textAfterLabel(line);
  return text !== undefined && Math.abs(text - x) <= ALIGN_EM * line.size;
}
