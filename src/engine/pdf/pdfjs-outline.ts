/**
 * A PDF's outline (its bookmarks) as pdfjs reads it, flattened in document order with each bookmark's depth and the
 * page its destination names (named destinations looked up, as LaTeX's hyperref writes them). Bounded: a damaged
 * or hostile outline yields at most MAX_ENTRIES bookmarks and never fails the document.
 */
import { MAX_BOOKMARK_DEPTH as MAX_DEPTH, MAX_BOOKMARKS as MAX_ENTRIES, type OutlineEntry } from './outline-headings.js';

/** What this module reads of a pdfjs outline node. */
interface OutlineNode {
  title?: unknown;
  dest?: unknown;
  items?: unknown;
}

/** What this module asks of a pdfjs document. */
export interface OutlineSource {
  getOutline(): Promise<unknown>;
  getDestination(id: string): Promise<unknown>;
  getPageIndex(ref: never): Promise<number>;
}


/** The bookmarks, or an empty list when the document has none or they cannot be read. */
export async function pdfjsOutline(doc: OutlineSource): Promise<OutlineEntry[]> {
  const entries: OutlineEntry[] = [];
  try {
    const nodes = await doc.getOutline();
    const walk = async (list: unknown, depth: number): Promise<void> => {
      if (!Array.isArray(list) || depth > MAX_DEPTH) return;
      for (const node of list as OutlineNode[]) {
        if (entries.length >= MAX_ENTRIES) return;
        if (typeof node?.title === 'string') {
          const page = await pageOf(doc, node.dest);
          entries.push(page === undefined ? { title: node.title, depth } : { title: node.title, depth, page });
        }
        await walk(node?.items, depth + 1);
      }
    };
    await walk(nodes, 0);
  } catch {
    // An outline pdfjs cannot read is no outline: the layout's headings stand.
  }
  return entries;
}

/** The 1-based page a destination points to; undefined for an action, a missing name or a damaged reference. */
async function pageOf(doc: OutlineSource, dest: unknown): Promise<number | undefined> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    if (!Array.isArray(explicit)) return undefined;
    const target: unknown = explicit[0];
    if (typeof target === 'number' && Number.isInteger(target)) return target + 1;
    if (typeof target !== 'object' || target === null) return undefined;
    return (await doc.getPageIndex(target as never)) + 1;
  } catch {
    return undefined;
  }
}
