/**
 * Figures drawn with vector paths (charts, diagrams): the page's path boxes gathered into clusters of paths that
 * touch or nearly touch, kept when a cluster looks like a drawing rather than page furniture, then grown to take
 * in the short text around and inside it (axis labels, a legend, tick values), so the rendered figure shows its
 * labels. Pure: tests feed it boxes.
 *
 * Not a figure: a cluster of a few paths (a rule, a heading's bar, a box around a note); one made only of thin
 * rules (a table's or a form's grid, which the table path reads as text); one over or against a table the layout
 * found (its shaded header band); one holding running text (a shaded sidebar); a frame around the whole page.
 */
import type { Rect } from '../types.js';

/** A text block of the page as the layout gave it, in page units. */
export interface PageText {
  rect: Rect;
  chars: number;
  /** A table the layout found: a cluster over it is its grid. */
  table?: boolean;
  /** A caption: never taken in as a label. */
  caption?: boolean;
  /** A heading: taken in only beside the drawing (a bold axis label), never above or below it (the next section). */
  heading?: boolean;
}

/** Paths whose boxes come this close (points) are one drawing. */
const GAP = 6;
/** Fewest paths in a figure. */
export const MIN_PATHS = 3;
/** Smallest side of a figure, in points. */
const MIN_SIDE = 36;
/** A path thinner than this (points) both ways is a rule, not a shape. */
const RULE_THICKNESS = 2;
/** A cluster over more than this share of the page in both directions is a page frame. */
const PAGE_FRAME = 0.9;
/** Text blocks of at most this many characters near a drawing are its labels. */
const MAX_LABEL_CHARS = 80;
/** How far (points) from the drawing a label may sit (a y axis's values, a legend beside it). */
const LABEL_REACH = 24;
/** A cluster holding more characters of text than this, or one block longer than a label, is a text box. */
const MAX_TEXT_CHARS = 400;
/** Paths looked at on a page: a drawing of more is still found from its first paths. */
const MAX_PATHS = 5_000;

function area(rect: Rect): number {
  return Math.max(0, rect.x1 - rect.x0) * Math.max(0, rect.y1 - rect.y0);
}

function intersection(p: Rect, q: Rect): number {
  return area({ x0: Math.max(p.x0, q.x0), y0: Math.max(p.y0, q.y0), x1: Math.min(p.x1, q.x1), y1: Math.min(p.y1, q.y1) });
}

function near(p: Rect, q: Rect, gap: number): boolean {
  return p.x0 - gap <= q.x1 && q.x0 - gap <= p.x1 && p.y0 - gap <= q.y1 && q.y0 - gap <= p.y1;
}

function union(p: Rect, q: Rect): Rect {
  return { x0: Math.min(p.x0, q.x0), y0: Math.min(p.y0, q.y0), x1: Math.max(p.x1, q.x1), y1: Math.max(p.y1, q.y1) };
}

/** `q` sits just above or below `p` over most of its width: a band of the same table. */
function against(p: Rect, q: Rect): boolean {
  const overlap = Math.min(p.x1, q.x1) - Math.max(p.x0, q.x0);
  const aboveOrBelow = q.y1 <= p.y0 + GAP || q.y0 >= p.y1 - GAP;
  return aboveOrBelow && near(p, q, GAP) && overlap > 0.5 * Math.min(p.x1 - p.x0, q.x1 - q.x0);
}

interface Cluster {
  rect: Rect;
  paths: number;
  shapes: number;
}

/** Paths gathered by proximity: a path joins (and merges) every cluster it comes within GAP of. */
function clusters(paths: readonly Rect[], width: number, height: number): Cluster[] {
  let found: Cluster[] = [];
  for (const path of paths.slice(0, MAX_PATHS)) {
    const [across, down] = [path.x1 - path.x0, path.y1 - path.y0];
    if (across > PAGE_FRAME * width && down > PAGE_FRAME * height) continue;
    // A side of a frame drawn round the page as four rules: it would join every drawing near the page's edge.
    if ((across > PAGE_FRAME * width && down < RULE_THICKNESS) || (down > PAGE_FRAME * height && across < RULE_THICKNESS)) continue;
    const shape = path.x1 - path.x0 >= RULE_THICKNESS && path.y1 - path.y0 >= RULE_THICKNESS ? 1 : 0;
    let merged: Cluster = { rect: path, paths: 1, shapes: shape };
    const rest: Cluster[] = [];
    for (const cluster of found) {
      if (near(cluster.rect, merged.rect, GAP)) merged = { rect: union(cluster.rect, merged.rect), paths: cluster.paths + merged.paths, shapes: cluster.shapes + merged.shapes };
      else rest.push(cluster);
    }
    rest.push(merged);
    found = rest;
  }
  // A merge can bring a cluster within reach of one it passed: settle until none touch.
  for (let i = 0; i < found.length; i++) {
    for (let j = i + 1; j < found.length; j++) {
      const [a, b] = [found[i]!, found[j]!];
      if (!near(a.rect, b.rect, GAP)) continue;
      found[i] = { rect: union(a.rect, b.rect), paths: a.paths + b.paths, shapes: a.shapes + b.shapes };
      found.splice(j, 1);
      // Grown, it may now reach one already passed.
      j = i;
    }
  }
  return found;
}

/** Text blocks mostly inside `rect`. */
function textInside(rect: Rect, texts: readonly PageText[]): PageText[] {
  return texts.filter((text) => intersection(text.rect, rect) > 0.5 * area(text.rect));
}

/** The page's vector figures, in page units, top to bottom. */
export function figureRegions(paths: readonly Rect[], texts: readonly PageText[], width: number, height: number): Rect[] {
  const regions: Rect[] = [];
  for (const cluster of clusters(paths, width, height)) {
    const { rect } = cluster;
    if (cluster.paths < MIN_PATHS || cluster.shapes === 0) continue;
    if (rect.x1 - rect.x0 < MIN_SIDE || rect.y1 - rect.y0 < MIN_SIDE) continue;
    if (rect.x1 - rect.x0 > PAGE_FRAME * width && rect.y1 - rect.y0 > PAGE_FRAME * height) continue;
    // A table the layout found inside a larger drawing is the drawing's labels read as one: the drawing stays.
    if (texts.some((text) => text.table && (intersection(text.rect, rect) > 0.5 * area(rect) || against(text.rect, rect)))) continue;
    const inside = textInside(rect, texts).filter((text) => !text.table);
    const chars = inside.reduce((sum, text) => sum + text.chars, 0);
    if (chars > MAX_TEXT_CHARS || inside.some((text) => text.chars > MAX_LABEL_CHARS && !text.caption)) continue;
    let grown = rect;
    for (const text of texts) {
      if (text.caption || text.chars > MAX_LABEL_CHARS || !near(text.rect, rect, LABEL_REACH)) continue;
      if (text.table && intersection(text.rect, rect) < 0.5 * area(text.rect)) continue;
      const middle = (text.rect.y0 + text.rect.y1) / 2;
      if (text.heading && (middle < rect.y0 || middle > rect.y1)) continue;
      grown = union(grown, text.rect);
    }
    regions.push(grown);
  }
  // Regions grown into each other are one figure.
  const merged: Rect[] = [];
  for (const region of regions.sort((a, b) => a.y0 - b.y0)) {
    const overlapping = merged.findIndex((other) => intersection(other, region) > 0);
    if (overlapping >= 0) merged[overlapping] = union(merged[overlapping]!, region);
    else merged.push(region);
  }
  return merged;
}
