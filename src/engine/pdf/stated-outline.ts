/**
 * A PDF's outline (bookmarks) read from the bytes, in the clear as Word and LibreOffice write them or packed in
 * object streams as pdfTeX and pdf-lib do, so that pdfjs need not open the document for it, and before LiteParse
 * does (a looping outline never lets PDFium's walk of it end): the catalogue's /Outlines tree in document order,
 * each bookmark once, its title decoded as pdfjs decodes text strings, its depth, and the page its destination
 * names (explicit, or by name in the catalogue's /Dests or its /Names tree; a GoTo action's too). Undefined where
 * only pdfjs can tell (encryption, a filter or a tree this reader does not follow): pdfjs-outline.ts reads it then.
 * Bounded as pdfjs-outline.ts is.
 */
import { MAX_BOOKMARK_DEPTH as MAX_DEPTH, MAX_BOOKMARKS as MAX_ENTRIES, type OutlineEntry } from './outline-headings.js';
import { clearCatalog, decodeTextString, isDict, isRef, MAX_TREE_DEPTH, MAX_TREE_NODES, pageLeaves, Unsure, type Ref, type Value } from './stated-info.js';


type Deref = (value: Value | undefined) => Value | undefined;

const refKey = (ref: Ref): string => `${ref.num} ${ref.gen}`;
const nameOf = (value: Value | undefined): string | undefined => (typeof value === 'object' && value !== null && 'name' in value ? value.name : undefined);
const stringOf = (value: Value | undefined): string | undefined => (typeof value === 'object' && value !== null && 'bytes' in value ? value.bytes : undefined);

/**
 * The bookmarks, each once, as pdfjs reads them. `loops`: a bookmark's /First or /Next leads back to one read before,
 * which PDFium's bookmark iteration, as LiteParse walks it, follows for ever (convert-pdf.ts leaves such a file to pdfjs).
 */
export interface StatedOutline {
  entries: OutlineEntry[];
  loops: boolean;
}

/** The bookmarks in the clear, none where there are none; undefined where pdfjs must read them. */
export function readStatedOutline(bytes: Uint8Array): StatedOutline | undefined {
  try {
    const { catalog, deref } = clearCatalog(bytes);
    const root = deref(catalog.get('Outlines'));
    if (!isDict(root)) return { entries: [], loops: false };
    let pages: Map<string, number> | undefined;
    let named: Map<string, Value> | undefined;
    const pageOf = (dest: Value | undefined): number | undefined => {
      let target = deref(dest);
      const string = stringOf(target);
      const name = nameOf(target) ?? (string === undefined ? undefined : decodeTextString(string));
      if (name !== undefined) {
        named ??= namedDestinations(catalog, deref);
        target = deref(named.get(name));
      }
      if (isDict(target)) target = deref(target.get('D'));
      if (!Array.isArray(target)) return undefined;
      const page = target[0];
      if (typeof page === 'number' && Number.isInteger(page)) return page + 1;
      if (!isRef(page)) return undefined;
      pages ??= pageNumbers(catalog, deref);
      return pages.get(refKey(page));
    };
    const entries: OutlineEntry[] = [];
    const seen = new Set<string>();
    let loops = false;
    const walk = (first: Value | undefined, depth: number): void => {
      let at = first;
      while (isRef(at) && entries.length < MAX_ENTRIES) {
        if (seen.has(refKey(at))) {
          loops = true;
          return;
        }
        seen.add(refKey(at));
        const item = deref(at);
        if (!isDict(item)) throw new Unsure();
        const title = stringOf(deref(item.get('Title')));
        if (title !== undefined) {
          const action = deref(item.get('A'));
          const dest = item.get('Dest') ?? (isDict(action) && nameOf(action.get('S')) === 'GoTo' ? action.get('D') : undefined);
          const page = dest === undefined ? undefined : pageOf(dest);
          const text = decodeTextString(title);
          entries.push(page === undefined ? { title: text, depth } : { title: text, depth, page });
        }
        if (depth < MAX_DEPTH) walk(item.get('First'), depth + 1);
        at = item.get('Next');
      }
    };
    walk(root.get('First'), 0);
    return { entries, loops };
  } catch {
    return undefined;
  }
}

/** Each page object's 1-based number, from the catalogue's page tree. */
function pageNumbers(catalog: Map<string, Value>, deref: Deref): Map<string, number> {
  return new Map(pageLeaves(catalog, deref).map((leaf, i) => [refKey(leaf.ref), i + 1]));
}

/** The named destinations, by name or decoded string: the catalogue's /Dests dictionary (PDF 1.1) and its /Names /Dests tree. */
function namedDestinations(catalog: Map<string, Value>, deref: Deref): Map<string, Value> {
  const named = new Map<string, Value>();
  const old = deref(catalog.get('Dests'));
  if (isDict(old)) for (const [key, value] of old) named.set(key, value);
  const names = deref(catalog.get('Names'));
  const tree = isDict(names) ? deref(names.get('Dests')) : undefined;
  let nodes = 0;
  const visit = (node: Value | undefined, depth: number): void => {
    if (!isDict(node) || depth > MAX_TREE_DEPTH || ++nodes > MAX_TREE_NODES) throw new Unsure();
    const pairs = deref(node.get('Names'));
    if (Array.isArray(pairs)) {
      for (let i = 0; i + 1 < pairs.length; i += 2) {
        const key = stringOf(deref(pairs[i]));
        if (key !== undefined && !named.has(decodeTextString(key))) named.set(decodeTextString(key), pairs[i + 1]!);
      }
    }
    const kids = deref(node.get('Kids'));
    if (Array.isArray(kids)) for (const kid of kids) visit(deref(kid), depth + 1);
  };
  if (tree !== undefined) visit(tree, 0);
  return named;
}
