/**
 * A list item of several paragraphs (a manual's step, its note under it): the item's later paragraphs are set at
 * the item's text indent, a paragraph's space under the lines above, and the list goes on after them with its next
 * item at the same marker's place. Read as paragraphs of the item, they keep the list whole (`1.` with its note,
 * then `2.`), where read as text between two lists they cut it in two and the note leaves its step. Pure.
 */
import type { TextLine } from './types.js';

/** Most lines looked at for the list's next item. */
const LOOKAHEAD = 30;
/** The widest space, in ems, between an item's paragraphs: more is a section's break. */
const PARAGRAPH_SPACE_EM = 2;

/**
 * Whether `lines[index]`, set in past the marker of the item open above it (its marker at `markerStart` from the
 * region's edge) and not short of its text, opens a paragraph of that item (an RFC's `1.  Introduction` has its
 * section's paragraphs set in less than its title, under it): it stands a paragraph's space under `prev`, and its
 * lines and those after it stay set in until a line with a marker at the item's marker's place goes on with the list.
 */
export function opensItemParagraph(
  lines: readonly TextLine[],
  index: number,
  prev: TextLine,
  markerStart: number,
  startOf: (line: TextLine) => number,
  isMarkerAt: (index: number) => boolean,
  /** Where the item's text starts after its marker, when known: a paragraph set in less is no paragraph of it. */
  textStart?: number,
): boolean {
  const line = lines[index]!;
  const em = line.size;
  if (textStart !== undefined && startOf(line) < textStart - 0.3 * em) return false;
  if (Math.abs(line.size - prev.size) > 0.12 * em || line.top - prev.bottom > PARAGRAPH_SPACE_EM * em) return false;
  const setIn = (l: TextLine) => startOf(l) > markerStart + 0.3 * em;
  if (!setIn(line) || isMarkerAt(index)) return false;
  for (let j = index + 1; j < Math.min(lines.length, index + LOOKAHEAD); j++) {
    const next = lines[j]!;
    if (Math.abs(next.size - line.size) > 0.12 * em) return false;
    if (isMarkerAt(j)) return Math.abs(startOf(next) - markerStart) <= 0.3 * em;
    if (!setIn(next)) return false;
  }
  return false;
}
