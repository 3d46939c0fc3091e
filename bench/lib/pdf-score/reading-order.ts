/**
 * Reading order (NID), as opendataloader-bench's src/evaluator_reading_order.py scores it: both texts have their
 * pipe tables converted to HTML, whitespace collapsed, and are compared whole with rapidfuzz `fuzz.ratio`
 * (1 − Indel distance / total length). NID-S is the same with every `<table>…</table>` cut out first.
 * A reference with no text has no score.
 */
import { normalizedIndelSimilarity } from './edit-distance.js';
import { convertMarkdownTablesToHtml } from './markdown-tables.js';
import { collapseWhitespace } from './python-text.js';

const HTML_TABLE = /<table[^>]*?>[\s\S]*?<\/table>/gi;

export interface ReadingOrderScores {
  nid: number;
  /** The same without the tables' text. */
  nidS: number;
}

export function readingOrderScores(reference: string, output: string): ReadingOrderScores | undefined {
  const referenceHtml = convertMarkdownTablesToHtml(reference);
  const referenceText = collapseWhitespace(referenceHtml);
  if (!referenceText) return undefined;
  const outputHtml = convertMarkdownTablesToHtml(output);
  return {
    nid: normalizedIndelSimilarity(referenceText, collapseWhitespace(outputHtml)),
    nidS: normalizedIndelSimilarity(
      collapseWhitespace(referenceHtml.replace(HTML_TABLE, ' ')),
      collapseWhitespace(outputHtml.replace(HTML_TABLE, ' ')),
    ),
  };
}
