/**
 * A page whose text is slanted a few degrees alike, as a scan's OCR text layer follows a picture scanned askew,
 * is read square: its items are placed through the page's view turned back by the slant round the page's centre,
 * so its lines read level (at 1.2°, a long line's ends stand 9 pt apart down the page, and its words ran into the
 * lines above and below). The blocks' boxes stay in that square frame, within a few points of the page as shown (a
 * degree moves a point 300 pt from the centre by 5 pt).
 */
import { weightedMedian } from './measure.js';
import { multiply, type RawTextItem } from './text-items.js';
import { countCodePointsBesideSpaces } from './white-space.js';

/** Text slanted up to this many degrees off level is a page's text scanned askew, not text set at an angle. */
export const MAX_SLANT = 5;
/** Slants under this many degrees are left as they are: a line's ends stay within a point of its baseline. */
const MIN_SLANT = 0.1;
/** The share of the page's characters that must be slanted alike (within MAX_SLANT, beyond MIN_SLANT). */
const MOST = 0.5;

/** The item's slant in degrees in the view, where it is one a scan askew gives; else undefined. */
function slantOf(item: RawTextItem, viewTransform: readonly number[]): number | undefined {
  const [a = 0, b = 0] = multiply(viewTransform, item.transform);
  const degrees = (Math.atan2(b, a) * 180) / Math.PI;
  return Math.abs(degrees) > MAX_SLANT || Math.abs(degrees) < MIN_SLANT ? undefined : degrees;
}

/**
 * The turn that makes the page's text read level, where most of its characters are slanted a few degrees (the
 * slant the median of its characters'): round the page's centre, back by the slant, in the view's units (a matrix
 * [a, b, c, d, e, f] as the PDF's, applied after the view's transform); undefined for a page that is square or
 * turned further.
 */
export function squaringTurn(items: readonly RawTextItem[], view: { transform: readonly number[]; width: number; height: number }): number[] | undefined {
  // Most pages have no item off level: one pass that reads only the angles.
  if (!items.some((item) => slantOf(item, view.transform) !== undefined)) return undefined;
  const slants: { value: number; weight: number }[] = [];
  let all = 0;
  let slanted = 0;
  for (const item of items) {
    const chars = countCodePointsBesideSpaces(item.str);
    all += chars;
    const degrees = slantOf(item, view.transform);
    if (degrees === undefined) continue;
    slanted += chars;
    slants.push({ value: degrees, weight: chars });
  }
  if (all === 0 || slanted < MOST * all) return undefined;
  const slant = ((weightedMedian(slants) ?? 0) * Math.PI) / 180;
  // Turned back by the slant round the page's centre (x' = x cos + y sin, y' = −x sin + y cos about it).
  const cos = Math.cos(slant);
  const sin = Math.sin(slant);
  const cx = view.width / 2;
  const cy = view.height / 2;
  return [cos, -sin, sin, cos, cx - cos * cx - sin * cy, cy + sin * cx - cos * cy];
}
