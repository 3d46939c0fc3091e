/**
 * Drop caps. Word sets a drop cap (the large first letter of a chapter's opening paragraph) as a paragraph of its
 * own, framed beside the next one (`w:framePr w:dropCap="drop"` or `"margin"`), the rest of the word starting that
 * next paragraph. mammoth writes the two as paragraphs, so the word is split: "T" then "he story begins". The
 * drop cap's runs are moved to the start of the paragraph it drops into, and its own paragraph removed.
 *
 * Only a drop cap paragraph directly followed by a paragraph is joined (white space between them aside); one
 * holding a paragraph of its own (a text box) is left as it is.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { wordPrefix } from './word-prefix.js';

/** The document XML with each drop cap joined to the paragraph it drops into, and how many were. */
export function joinDropCaps(documentXml: string): { xml: string; count: number } {
  const word = wordPrefix(documentXml);
  if (word === null || !documentXml.includes(':dropCap=')) return { xml: documentXml, count: 0 };
  const w = escapeRegExp(word);
  const dropCap = new RegExp(
    `<${w}:p(?:\\s[^>]*)?(?<!/)>\\s*<${w}:pPr>(?:(?!</${w}:pPr>)[\\s\\S])*?<${w}:framePr\\b[^>]*?\\b${w}:dropCap="(?:drop|margin)"[\\s\\S]*?</${w}:pPr>` +
      `((?:(?!<${w}:p[\\s>/])[\\s\\S])*?)</${w}:p>\\s*(<${w}:p\\b[^>]*?>)(\\s*<${w}:pPr\\s*/>|\\s*<${w}:pPr\\b[^>]*>[\\s\\S]*?</${w}:pPr>)?`,
    'g',
  );
  let count = 0;
  const xml = documentXml.replace(dropCap, (whole: string, runs: string, nextStart: string, nextProperties: string | undefined) => {
    // An empty next paragraph, or properties holding their tracked earlier version, are left as they are.
    if (nextStart.endsWith('/>') || runs.includes(`</${word}:pPr>`) || (nextProperties ?? '').includes(`<${word}:pPrChange`)) return whole;
    count += 1;
    return `${nextStart}${nextProperties ?? ''}${runs}`;
  });
  return { xml, count };
}
