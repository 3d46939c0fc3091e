/**
 * Tables (TEDS, Zhong et al. 2020), as opendataloader-bench's src/evaluator_table.py scores them (its code derives
 * from PubTabNet's TEDS):
 * - Pipe tables become HTML first; every `<table>` of a text is collected in document order (BeautifulSoup
 *   `find_all`, nested tables too).
 * - Several tables are not paired one by one: `wrap_tables_in_html` joins them in one body, and `calc_table_score`
 *   wraps that in one more `<table>`, so lxml reads a single tree whose root table has the document's tables as its
 *   children, in order. One tree edit distance covers them all: a missing, extra or reordered table costs its nodes.
 * - `<thead>`/`<tbody>` (without attributes) are unwrapped and `<th>` becomes `<td>`.
 * - Tree: every element is a node, except that a `td` is a leaf labelled with tag, colspan, rowspan (default 1) and
 *   its content: its text and its inline markup as written tokens (`a<b>x</b>` → "a<b>x</b>", `<br>` → "<br></br>").
 * - Rename cost: 1 when tag, colspan or rowspan differ; between two cells, the Levenshtein distance of their
 *   contents over the longer one's length, after `html.unescape`, `<br>` → newline and whitespace collapse (0 when
 *   both are empty). Insert and delete cost 1.
 * - TEDS = 1 − TED / max(n), where n counts the elements below the wrapping root (inline elements inside cells
 *   included, the root itself not): not clamped, as the evaluator does not clamp it.
 * - TEDS-S: the same with cell contents ignored.
 * A reference without tables has no score; an output without tables scores 0.
 */
import { levenshtein } from './edit-distance.js';
import { findTables, parseHtml, type HtmlElement, type HtmlNode } from './html-tables.js';
import { convertMarkdownTablesToHtml } from './markdown-tables.js';
import { codePoints, collapseWhitespace, PY_WHITESPACE_CLASS, pyHtmlUnescape } from './python-text.js';
import { treeEditDistance, type Tree } from './tree-edit-distance.js';

export interface TableLabel {
  tag: string;
  /** Cells only. */
  colspan?: number;
  rowspan?: number;
  /** Cells only: their content as the evaluator tokenises it, before normalisation ('' when empty or structure-only). */
  content?: string;
}

const BREAK = new RegExp(`<br${PY_WHITESPACE_CLASS}*/?>`, 'g');

/** A cell's content, normalised as the rename cost compares it. */
export function normalizeCellText(content: string): string {
  return collapseWhitespace(pyHtmlUnescape(content).replace(BREAK, '\n'));
}

const cellTag = (tag: string) => (tag === 'th' ? 'td' : tag);

/** `<thead>` and `<tbody>` without attributes give way to their children (the evaluator deletes those tags). */
function unwrapSections(nodes: HtmlNode[]): HtmlNode[] {
  return nodes.flatMap((node) => {
    if (typeof node === 'string') return [node];
    const children = unwrapSections(node.children);
    if ((node.tag === 'thead' || node.tag === 'tbody') && node.attributes.size === 0) return children;
    return [{ ...node, children }];
  });
}

/** The evaluator's `tokenize` of a cell, joined: text, and each inner element as `<tag>…</tag>`. */
function cellContent(nodes: HtmlNode[]): string {
  let out = '';
  for (const node of nodes) {
    if (typeof node === 'string') out += node;
    else out += `<${cellTag(node.tag)}>${cellContent(node.children)}${node.tag === 'unk' ? '' : `</${cellTag(node.tag)}>`}`;
  }
  return out;
}

/** Python's `int()` of an attribute; a value it would refuse counts as 1 here (the evaluator would drop the page). */
function span(value: string | undefined): number {
  const text = value?.trim() ?? '1';
  return /^[+-]?\d+$/.test(text) ? parseInt(text, 10) : 1;
}

function tableTree(node: HtmlElement, structureOnly: boolean): Tree<TableLabel> {
  const tag = cellTag(node.tag);
  if (tag === 'td') {
    return {
      value: {
        tag,
        colspan: span(node.attributes.get('colspan')),
        rowspan: span(node.attributes.get('rowspan')),
        content: structureOnly ? '' : cellContent(node.children),
      },
      children: [],
    };
  }
  const children: Tree<TableLabel>[] = [];
  for (const child of node.children) if (typeof child !== 'string') children.push(tableTree(child, structureOnly));
  return { value: { tag }, children };
}

function countElements(nodes: HtmlNode[]): number {
  let n = 0;
  for (const node of nodes) if (typeof node !== 'string') n += 1 + countElements(node.children);
  return n;
}

function renameCost(a: TableLabel, b: TableLabel): number {
  if (a.tag !== b.tag || a.colspan !== b.colspan || a.rowspan !== b.rowspan) return 1;
  if (a.tag !== 'td' || (!a.content && !b.content)) return 0;
  const x = codePoints(normalizeCellText(a.content ?? ''));
  const y = codePoints(normalizeCellText(b.content ?? ''));
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 0 : levenshtein(x, y) / longest;
}

/** The tables of a Markdown text (pipe tables converted), their sections unwrapped. */
export function documentTables(markdown: string): HtmlElement[] {
  const tables = findTables(parseHtml(convertMarkdownTablesToHtml(markdown)));
  return tables.map((table) => ({ ...table, children: unwrapSections(table.children) }));
}

export interface TableScores {
  teds: number;
  /** The same with cell contents ignored: structure only. */
  tedsS: number;
}

export function tableScoresOf(referenceTables: HtmlElement[], outputTables: HtmlElement[]): TableScores | undefined {
  if (referenceTables.length === 0) return undefined;
  if (outputTables.length === 0) return { teds: 0, tedsS: 0 };
  const wrap = (tables: HtmlElement[]): HtmlElement => ({ tag: 'table', attributes: new Map(), children: tables });
  const reference = wrap(referenceTables);
  const output = wrap(outputTables);
  const nodes = Math.max(countElements(reference.children), countElements(output.children));
  const score = (structureOnly: boolean) =>
    1 - treeEditDistance(tableTree(output, structureOnly), tableTree(reference, structureOnly), { rename: renameCost }) / nodes;
  return { teds: score(false), tedsS: score(true) };
}

export function tableScores(reference: string, output: string): TableScores | undefined {
  return tableScoresOf(documentTables(reference), documentTables(output));
}
