/**
 * Equations for mammoth: every OMML equation in the main document is replaced by a plain Word run holding its LaTeX
 * (omml.ts), in a character style mammoth's style map turns into `<span class="docmill-math">` (inline) or
 * `<span class="docmill-math display">` (a display equation, `m:oMathPara`). The HTML path then writes `$...$` and
 * `$$...$$`, and a paragraph holding only a display equation becomes a `formula` block.
 */
import { ommlToLatex } from './omml.js';
import { escapeRegExp } from '../../common/escape-regexp.js';

export const INLINE_MATH_STYLE = 'DocmillMathInline';
export const DISPLAY_MATH_STYLE = 'DocmillMathDisplay';

const MATH_NAMESPACES = ['http://schemas.openxmlformats.org/officeDocument/2006/math', 'http://purl.oclc.org/ooxml/officeDocument/math'];
const WORD_NAMESPACES = ['http://schemas.openxmlformats.org/wordprocessingml/2006/main', 'http://purl.oclc.org/ooxml/wordprocessingml/main'];

export function hasEquations(documentXml: string): boolean {
  const math = prefixFor(documentXml, MATH_NAMESPACES);
  return math !== null && documentXml.includes(`<${math}:oMath`);
}

/** The document XML with equations replaced by LaTeX runs, and how many were replaced. */
export function replaceEquations(documentXml: string): { xml: string; count: number } {
  const math = prefixFor(documentXml, MATH_NAMESPACES);
  const word = prefixFor(documentXml, WORD_NAMESPACES);
  if (math === null || word === null) return { xml: documentXml, count: 0 };
  const declarations = [...documentXml.matchAll(/\sxmlns:\w+="[^"]*"/g)].map((match) => match[0]).join('');
  let count = 0;
  const run = (latex: string, style: string) =>
    `<${word}:r><${word}:rPr><${word}:rStyle ${word}:val="${style}"/></${word}:rPr><${word}:t xml:space="preserve">${escapeXml(latex)}</${word}:t></${word}:r>`;
  const convert = (fragment: string, style: string) => {
    const tag = /^<([\w:]+)/.exec(fragment)?.[1] ?? '';
    // Re-declare the namespaces on the fragment so it parses on its own.
    const wrapped = fragment.replace(new RegExp(`^<${escapeRegExp(tag)}`), `<${tag}${declarations}`);
    const latex = ommlToLatex(wrapped);
    count += 1;
    return latex === '' ? '' : run(latex, style);
  };
  const m = escapeRegExp(math);
  let xml = documentXml.replace(new RegExp(`<${m}:oMathPara\\b[\\s\\S]*?</${m}:oMathPara>`, 'g'), (fragment) => convert(fragment, DISPLAY_MATH_STYLE));
  xml = xml.replace(new RegExp(`<${m}:oMath\\b[\\s\\S]*?</${m}:oMath>`, 'g'), (fragment) => convert(fragment, INLINE_MATH_STYLE));
  return { xml, count };
}

/** mammoth style-map lines for the math runs. */
export const MATH_STYLE_MAP = [
  `r.${INLINE_MATH_STYLE} => span.docmill-math:fresh`,
  `r.${DISPLAY_MATH_STYLE} => span.docmill-math.display:fresh`,
];

function prefixFor(xml: string, namespaces: readonly string[]): string | null {
  for (const namespace of namespaces) {
    const match = new RegExp(`xmlns:(\\w+)="${escapeRegExp(namespace)}"`).exec(xml);
    if (match?.[1] !== undefined) return match[1];
  }
  return null;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Rows that start late (`w:gridBefore`: the first grid columns of the row have no cell) get that many empty cells
 * in front, because mammoth ignores gridBefore: without them the row's cells slide left under the wrong columns and
 * vertical merges land on the wrong cell.
 */
export function fillGridBefore(documentXml: string): { xml: string; count: number } {
  const word = prefixFor(documentXml, WORD_NAMESPACES);
  if (word === null) return { xml: documentXml, count: 0 };
  const w = escapeRegExp(word);
  let count = 0;
  const pattern = new RegExp(`<${w}:trPr\\b[^>]*>(?:(?!</${w}:trPr>)[\\s\\S])*?<${w}:gridBefore\\s+${w}:val="(\\d+)"\\s*/>[\\s\\S]*?</${w}:trPr>`, 'g');
  const xml = documentXml.replace(pattern, (properties: string, columns: string) => {
    const n = Math.min(Number.parseInt(columns, 10) || 0, 63);
    if (n <= 0) return properties;
    count += 1;
    return properties + `<${word}:tc><${word}:p/></${word}:tc>`.repeat(n);
  });
  return { xml, count };
}
