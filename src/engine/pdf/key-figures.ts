/**
 * Key figures set side by side (a report's or a brochure's "42% / of residents visited / a library this year"):
 * each a figure in display type over a line or two of small text saying what it counts. Aligned like a table's
 * cells, read row by row they gave the figures in one line and their words mixed in the next (`42% 18,300 7` /
 * `of residents visited books lent branches open`). Read figure by figure instead, each with its words. Pure.
 */
import type { Rect, TextLine } from './types.js';

/** The figures' type is this many times the size of their words, at least. */
const DISPLAY_STEP = 1.5;
/** Figures side by side: at least two, at most this many. */
const MAX_FIGURES = 6;
/** Words in a figure's cell, at most (`£2.4 million`, `1 in 3`). */
const MAX_FIGURE_WORDS = 4;
/** Lines of words under the figures, at most. */
const MAX_WORD_LINES = 4;
/** A line of words stands at most this many of its heights under the one above it. */
const STACK_GAP = 1.2;
/** The first line of words stands at most this many of the figures' heights under them. */
const FIGURE_GAP = 1;
/** A cell belongs to the figure it starts under (or is centred under) within this many ems of its own size. */
const UNDER_EM = 1;

/** Where key figures stand among a region's lines, and each figure read with its words. */
export interface KeyFigures {
  start: number;
  end: number;
  /** Each figure and its words, one string each, left to right. */
  tiles: string[];
  rect: Rect;
}

function isFigure(text: string): boolean {
  const words = text.trim().split(/\s+/);
  return /\d/.test(text) && words.length <= MAX_FIGURE_WORDS;
}

/** Two words or more, in lower case at least in part. */
function isPhrase(text: string): boolean {
  return text.trim().split(/\s+/).length >= 2 && /\p{Ll}/u.test(text);
}

/** The key figures among a region's lines (top to bottom). */
export function findKeyFigures(lines: readonly TextLine[]): KeyFigures[] {
  const found: KeyFigures[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i]!;
    if (head.cells.length < 2 || head.cells.length > MAX_FIGURES || !head.cells.every((cell) => isFigure(cell.text))) continue;
    const words: string[][] = head.cells.map(() => []);
    let end = i + 1;
    let size = 0;
    while (end < lines.length && end - i - 1 < MAX_WORD_LINES) {
      const line = lines[end]!;
      const above = lines[end - 1]!;
      const gap = line.top - above.bottom;
      if (gap > (end === i + 1 ? FIGURE_GAP * head.size : STACK_GAP * line.size)) break;
      if (head.size < DISPLAY_STEP * line.size || (size > 0 && Math.abs(line.size - size) > 0.12 * size)) break;
      const placed: (string | undefined)[] = head.cells.map(() => undefined);
      const fits = line.cells.every((cell) => {
        const col = head.cells.findIndex(
          (figure) => Math.abs(cell.x0 - figure.x0) <= UNDER_EM * line.size || Math.abs((cell.x0 + cell.x1 - figure.x0 - figure.x1) / 2) <= UNDER_EM * line.size,
        );
        if (col < 0 || placed[col] !== undefined) return false;
        placed[col] = cell.text;
        return true;
      });
      if (!fits) break;
      placed.forEach((text, col) => {
        if (text) words[col]!.push(text);
      });
      size = line.size;
      end++;
    }
    // What each figure counts is a phrase (`books lent`), not a chart's category in capitals (`AGREE`).
    if (end === i + 1 || !words.every((column) => isPhrase(column.join(' ')))) continue;
    const block = lines.slice(i, end);
    found.push({
      start: i,
      end,
      tiles: head.cells.map((figure, col) => [figure.text, ...words[col]!].join(' ')),
      rect: { x0: Math.min(...block.map((line) => line.x0)), y0: head.top, x1: Math.max(...block.map((line) => line.x1)), y1: block[block.length - 1]!.bottom },
    });
    i = end - 1;
  }
  return found;
}
