/**
 * A tagged PDF's structure on a page pdfjs reads (right-to-left script, fonts LiteParse boxes badly): pdfjs gives
 * the page's structure tree (`getStructTree`, roles mapped) and, asked to, the marked content each text item is
 * drawn in (`beginMarkedContentProps` … `endMarkedContent` among the items). The same runs as LiteParse's pages
 * give (page-items.ts), so headings and artifacts are read the same way on every page. Pure.
 */
import type { TaggedRun } from './liteparse/page-items.js';
import { structureRoles, type StructureElement } from './liteparse/structure-roles.js';
import { multiply } from './text-items.js';
import { countCodePointsBesideSpaces } from './white-space.js';

/** A node of pdfjs's structure tree: an element (`role`, `children`) or a leaf (`type: 'content'`, `id`). */
export interface PdfjsStructNode {
  role?: string;
  type?: string;
  id?: string;
  children?: PdfjsStructNode[];
}

/** A marked content id as pdfjs names it: the page's reference, then `_mc` and the number (`p3R_mc12`). */
const CONTENT_ID = /_mc(\d+)$/;

/** pdfjs's tree as the structure elements `structureRoles` reads (iterative: a hostile tree may nest deeply). */
export function structureElementsOf(root: PdfjsStructNode): StructureElement[] {
  const converted = new Map<PdfjsStructNode, StructureElement & { children: StructureElement[]; markedContentIds: number[] }>();
  const order: PdfjsStructNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (converted.has(node)) continue;
    converted.set(node, { elementType: node.role ?? '', markedContentIds: [], children: [] });
    order.push(node);
    for (const child of node.children ?? []) if (child.role !== undefined) stack.push(child);
  }
  for (const node of order) {
    const element = converted.get(node)!;
    for (const child of node.children ?? []) {
      if (child.role !== undefined) element.children.push(converted.get(child)!);
      else if (child.type === 'content' && child.id) {
        const number = CONTENT_ID.exec(child.id);
        if (number) element.markedContentIds.push(Number(number[1]));
      }
    }
  }
  return [converted.get(root)!];
}

interface MarkedItem {
  type?: string;
  id?: string | null;
  str?: string;
  width?: number;
  transform?: number[];
}

/** Within this share of the em, a run's matrix is level (no rotation to speak of). */
const LEVEL = 0.01;

/**
 * The page's text runs with their marks: each text item in the marked content it is drawn in (the innermost that
 * has an id), placed in viewport space by `viewportTransform` (the page's, at scale 1). Items of no tagged marked
 * content, or not level, are left out.
 */
export function pdfjsTaggedRuns(items: readonly unknown[], tree: PdfjsStructNode, viewportTransform: readonly number[]): TaggedRun[] {
  const marks = structureRoles(structureElementsOf(tree));
  const runs: TaggedRun[] = [];
  if (marks.size === 0) return runs;
  const open: (number | null)[] = [];
  const [va = 1] = viewportTransform;
  for (const raw of items as MarkedItem[]) {
    if (raw.type === 'beginMarkedContentProps' || raw.type === 'beginMarkedContent') {
      const number = raw.id ? CONTENT_ID.exec(raw.id) : null;
      open.push(number ? Number(number[1]) : null);
      continue;
    }
    if (raw.type === 'endMarkedContent') {
      open.pop();
      continue;
    }
    if (typeof raw.str !== 'string' || !raw.transform) continue;
    let mcid: number | null = null;
    for (let i = open.length - 1; i >= 0 && mcid === null; i--) mcid = open[i]!;
    const mark = mcid === null ? undefined : marks.get(mcid);
    const chars = countCodePointsBesideSpaces(raw.str, true);
    if (!mark || chars === 0) continue;
    // The item's matrix in viewport space, as normaliseItems places items (text-items.ts).
    const [ta = 1, tb = 0, tc = 0, td = 1, x = 0, baseline = 0] = multiply(viewportTransform, raw.transform);
    const size = Math.hypot(tc, td);
    if (!(size > 0) || Math.abs(tb) > LEVEL * Math.abs(ta)) continue;
    const width = Math.abs((raw.width ?? 0) * (va || 1));
    runs.push({ x0: x, x1: x + width, baseline, size, chars, role: mark.role, element: mark.element });
  }
  return runs;
}
