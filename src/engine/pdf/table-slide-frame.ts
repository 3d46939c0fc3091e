/**
 * A "table" another reader found (LiteParse) that is a slide's frame: a template's panel drawn round the slide's
 * text, or its art along the page's edges, read as a table's border. Its first row is then the slide's title and
 * the text under it is cut into columns at whatever gaps its lines happen to leave ("the faster times. Several
 * asked… | delivery a clearer"), the footer taken in with it. Such a box opens with a title: its top line is one run
 * of display type, set much larger than all the text under it, where a table's header row is set about as large as
 * its body. The page's own reading (aligned text, paragraphs, lists) stands there instead. Pure.
 */
import type { TextLine } from './types.js';

/** The title's type is at least this many times the size of the largest line under it. */
const TITLE_OVER_BODY = 1.2;

/**
 * Whether a found table's box is a slide's frame: its top line a title in type larger than all the rest. `lines`
 * are the lines of the text inside the box.
 */
export function isSlideFrame(lines: readonly TextLine[]): boolean {
  const [top, ...rest] = lines;
  if (!top || rest.length === 0 || top.cells.length !== 1) return false;
  const largestBelow = Math.max(...rest.map((line) => line.size));
  return top.size >= TITLE_OVER_BODY * largestBelow;
}
