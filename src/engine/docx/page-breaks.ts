/**
 * A page or column break inside a paragraph (Ctrl+Enter typed mid-text) starts the rest of the paragraph on the next
 * page or column, but mammoth writes nothing for it, so the words on either side run together ("one.Chapter
 * two"). Each becomes a line break, which mammoth writes as `<br>`; one at a paragraph's start or end, as Word
 * usually places them, vanishes there.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { wordPrefix } from './word-prefix.js';

/** The document XML with page and column breaks written as line breaks, and how many were. */
export function breakLinesAtPageBreaks(documentXml: string): { xml: string; count: number } {
  const word = wordPrefix(documentXml);
  if (word === null) return { xml: documentXml, count: 0 };
  const w = escapeRegExp(word);
  let count = 0;
  const xml = documentXml.replace(new RegExp(`<${w}:br\\b[^>]*?\\b${w}:type=["'](?:page|column)["'][^>]*?/>`, 'g'), () => {
    count += 1;
    return `<${word}:br/>`;
  });
  return { xml, count };
}
