/**
 * Headings (MHS), as opendataloader-bench's src/evaluator_heading_level.py scores them. Its tree is not an outline:
 * every heading line (`#`…`######`, then whitespace) is a child of the document root whatever its level, and the
 * non-empty lines after it, whitespace-collapsed and joined by spaces, form one `content` child of that heading
 * (lines before the first heading: a `content` child of the root). Tables count as content, pipe tables converted
 * to HTML first. A heading's label is its text after the `#`s, whitespace-collapsed; the level is dropped.
 *
 * MHS = 1 − TED/max(nodes of either tree), clamped to [0, 1], where a rename costs 1 between a heading and
 * content, else the normalised Levenshtein distance of the two texts; MHS-S renames for free when the kinds agree.
 * A reference without headings has no score; an output without headings scores 0.
 */
import { normalizedLevenshtein } from './edit-distance.js';
import { convertMarkdownTablesToHtml } from './markdown-tables.js';
import { collapseWhitespace, PY_WHITESPACE_CLASS, pySplitLines } from './python-text.js';
import { countNodes, treeEditDistance, type Tree } from './tree-edit-distance.js';

export interface SectionLabel {
  kind: 'document' | 'heading' | 'content';
  text: string;
}

interface MutableTree {
  value: SectionLabel;
  children: MutableTree[];
}

const HEADING = new RegExp(`^(#{1,6})${PY_WHITESPACE_CLASS}+(.*)$`);

/** The evaluator's section tree of a Markdown text (already with HTML tables). */
export function sectionTree(markdown: string): Tree<SectionLabel> {
  const root: MutableTree = { value: { kind: 'document', text: '' }, children: [] };
  let container = root;
  let pending: string[] = [];
  const flush = () => {
    const text = collapseWhitespace(pending.join(' '));
    if (text) container.children.push({ value: { kind: 'content', text }, children: [] });
    pending = [];
  };
  for (const line of pySplitLines(markdown)) {
    const match = HEADING.exec(line);
    if (match) {
      flush();
      const heading: MutableTree = { value: { kind: 'heading', text: collapseWhitespace(match[2] ?? '') }, children: [] };
      root.children.push(heading);
      container = heading;
      continue;
    }
    const text = collapseWhitespace(line);
    if (text) pending.push(text);
  }
  flush();
  return root;
}

const hasHeading = (tree: Tree<SectionLabel>) => tree.children.some((child) => child.value.kind === 'heading');

export interface HeadingScores {
  mhs: number;
  /** The same with text ignored: structure only. */
  mhsS: number;
}

export function headingScores(reference: string, output: string): HeadingScores | undefined {
  const referenceTree = sectionTree(convertMarkdownTablesToHtml(reference));
  if (!hasHeading(referenceTree)) return undefined;
  const outputTree = sectionTree(convertMarkdownTablesToHtml(output));
  if (!hasHeading(outputTree)) return { mhs: 0, mhsS: 0 };
  const nodes = Math.max(countNodes(referenceTree), countNodes(outputTree), 1);
  const withText = treeEditDistance(referenceTree, outputTree, {
    rename: (a: SectionLabel, b: SectionLabel) => (a.kind !== b.kind ? 1 : normalizedLevenshtein(a.text, b.text)),
  });
  const structure = treeEditDistance(referenceTree, outputTree, {
    rename: (a: SectionLabel, b: SectionLabel) => (a.kind !== b.kind ? 1 : 0),
  });
  const clamp = (x: number) => Math.max(0, Math.min(1, x));
  return { mhs: clamp(1 - withText / nodes), mhsS: clamp(1 - structure / nodes) };
}
