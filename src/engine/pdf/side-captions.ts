/**
 * Captions set beside their figure, as textbooks set them: `Figure 1.1.` and its description in a narrow column to
 * the right (or the left) of a chart, from its top down. Such a caption is its figure's (the alt text of its
 * picture), and one on the right is read after the figure, as the left of two columns is read before the right;
 * the text layer alone puts it first when it starts above the figure's first line of text. Pure; boxes in any one
 * unit, with the page's width in that unit.
 */
import type { Rect } from './types.js';

/** How far from its figure (a share of the page's width) a side caption may stand. */
const SIDE_REACH = 0.06;
/** How far above the figure's top (a share of the page's width) a side caption may start: set level with it. */
const LEVEL = 0.02;

/**
 * A side caption is a narrow column beside its figure: at most this share of the figure's width. A caption as wide as
 * the figure level with it is another column's (a two-column paper's `Table 2:` beside the other column's chart).
 */
const NARROW = 0.75;

/** Which side of `figure` `caption` stands on, and how far from it (a share of the page's width); undefined: neither. */
export function sideOf(figure: Rect, caption: Rect, pageWidth: number): { side: 'left' | 'right'; distance: number } | undefined {
  if (caption.y0 < figure.y0 - LEVEL * pageWidth || caption.y0 >= figure.y1) return undefined;
  if (caption.x1 - caption.x0 > NARROW * (figure.x1 - figure.x0)) return undefined;
  const right = (caption.x0 - figure.x1) / pageWidth;
  if (right >= -0.01 && right <= SIDE_REACH) return { side: 'right', distance: Math.max(0, right) };
  const left = (figure.x0 - caption.x1) / pageWidth;
  if (left >= -0.01 && left <= SIDE_REACH) return { side: 'left', distance: Math.max(0, left) };
  return undefined;
}

/**
 * Where a figure's blocks go among `blocks` when a caption stands on its right: before that caption (-1: none).
 * `captionBox` gives a caption block's box, undefined for any other block.
 */
export function beforeRightCaption<T>(blocks: readonly T[], figure: Rect, pageWidth: number, captionBox: (block: T) => Rect | undefined): number {
  return blocks.findIndex((block) => {
    const box = captionBox(block);
    return box !== undefined && sideOf(figure, box, pageWidth)?.side === 'right';
  });
}
