/**
 * Superscript and subscript written as a run raised or lowered by a distance in a smaller size (`w:position` with
 * `w:sz`), as LibreOffice exports an escapement it was given in percent (`E = mc²` typed in a web page it opened,
 * a footnote mark set by hand). mammoth reads only `w:vertAlign`, so `mc2` would read as a number; the run gets the
 * vertical alignment its position means. A run moved at its own size is left alone: that is a typographic nudge
 * (a symbol or a bullet set a little higher), not superscript.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { wordPrefix } from './word-prefix.js';

/** The document XML with such runs given `w:vertAlign`, and how many were. */
export function alignRaisedRuns(documentXml: string): { xml: string; count: number } {
  const word = wordPrefix(documentXml);
  if (word === null) return { xml: documentXml, count: 0 };
  const w = escapeRegExp(word);
  if (!documentXml.includes(`<${word}:position `)) return { xml: documentXml, count: 0 };
  let count = 0;
  const runProperties = new RegExp(`<${w}:rPr>((?:(?!</${w}:rPr>)[\\s\\S])*?<${w}:position ${w}:val="(-?\\d+)"\\s*/>(?:(?!</${w}:rPr>)[\\s\\S])*?)</${w}:rPr>`, 'g');
  const xml = documentXml.replace(runProperties, (whole, inner: string, value: string) => {
    const shift = Number(value);
    if (shift === 0 || !new RegExp(`<${w}:sz\\s`).test(inner) || new RegExp(`<${w}:vertAlign\\s`).test(inner)) return whole;
    count += 1;
    return `<${word}:rPr>${inner}<${word}:vertAlign ${word}:val="${shift > 0 ? 'superscript' : 'subscript'}"/></${word}:rPr>`;
  });
  return { xml, count };
}
