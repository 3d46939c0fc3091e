/**
 * MathML (`<math>`, in EPUB 3 books and web pages) as LaTeX. Read as HTML, an equation's elements are only text run
 * together: `√x + ½` read `x+12`, `E = mc²` read `E=mc2`. Each `<math>` becomes the span the Markdown writer gives
 * as `$…$` (`$$…$$` for `display="block"`), as Word's equations are (docx/omml.ts).
 *
 * A TeX annotation the page carries (`<annotation encoding="application/x-tex">`, as Wikipedia writes one) is used
 * as it is. Otherwise: tokens (`mi`, `mn`, `mo`, `mtext`, symbols as commands: `\alpha`, `\leq`), scripts (`msup`,
 * `msub`, `msubsup`, `mmultiscripts`' base), fractions, roots, over- and underscripts (accents, limits of sums and
 * integrals), fenced groups, tables (a `matrix`). Anything else gives its content.
 */
import { base, KNOWN_FUNCTIONS, LATEX_SPECIALS, operatorName, SYMBOLS, tidyLatex } from '../latex.js';
import { ELEMENT_NODE, type DomDocument, type DomElement } from './dom.js';
import { MATH_CLASS } from './markdown.js';

const TEX_ENCODINGS = new Set(['application/x-tex', 'application/x-latex', 'tex', 'latex', 'text/x-tex']);
/** Nesting followed: deeper markup (a hostile page) gives its text. */
const MAX_DEPTH = 64;

/** Over-script characters read as accents on their base. */
const ACCENTS: Readonly<Record<string, string>> = {
  '^': '\\hat', 'ˆ': '\\hat', '̂': '\\hat', '~': '\\tilde', '˜': '\\tilde', '¯': '\\bar', '‾': '\\overline', '―': '\\overline',
  '→': '\\vec', '⃗': '\\vec', '˙': '\\dot', '.': '\\dot', '¨': '\\ddot', '⏞': '\\overbrace',
};
const UNDER_ACCENTS: Readonly<Record<string, string>> = { '_': '\\underline', '‾': '\\underline', '¯': '\\underline', '⏟': '\\underbrace' };
/** Operators whose under- and overscripts are limits (`\sum_{i=1}^{n}`). */
const LIMIT_OPERATORS = /^\\(?:sum|prod|coprod|int|iint|iiint|oint|bigcup|bigcap|bigwedge|bigvee|lim|max|min|sup|inf|limsup|liminf)\b/;

/** Replaces each `<math>` of the document with its LaTeX, in the span the Markdown writer reads as an equation. */
export function writeMathAsLatex(document: DomDocument): void {
  for (const math of [...document.getElementsByTagName('math')]) {
    const latex = mathToLatex(math);
    if (latex === '') continue;
    removeFallbackPicture(math);
    const span = document.createElement('span');
    span.setAttribute('class', math.getAttribute('display') === 'block' || math.getAttribute('mode') === 'display' ? `${MATH_CLASS} display` : MATH_CLASS);
    span.textContent = latex;
    math.replaceWith(span);
  }
}

/**
 * A picture of the equation set beside it for readers without MathML (MediaWiki's fallback image), its alt text
 * the equation's own TeX: the equation is read once.
 */
function removeFallbackPicture(math: DomElement): void {
  const sources = new Set(
    [math.getAttribute('alttext') ?? '', ...[...math.getElementsByTagName('annotation')].map((annotation) => annotation.textContent ?? '')]
      .map((text) => text.trim())
      .filter((text) => text !== ''),
  );
  const next = math.nextElementSibling;
  if (next !== null && next.tagName === 'IMG' && sources.has((next.getAttribute('alt') ?? '').trim())) next.remove();
}

/** The LaTeX of one `<math>` element; empty when it holds nothing. */
export function mathToLatex(math: DomElement): string {
  for (const annotation of math.getElementsByTagName('annotation')) {
    if (TEX_ENCODINGS.has((annotation.getAttribute('encoding') ?? '').toLowerCase())) {
      // Wikipedia wraps its TeX in `{\displaystyle …}`.
      const tex = (annotation.textContent ?? '')
        .trim()
        .replace(/^\{\\(?:display|text)style\s*([\s\S]*)\}$/, '$1')
        .replace(/^\\(?:display|text)style\s*/, '')
        .trim();
      if (tex !== '') return tex;
    }
  }
  return tidyLatex(children(math, 0));
}

function nameOf(element: DomElement): string {
  return element.localName.toLowerCase().replace(/^[\w.-]+:/, '');
}

function elementsOf(element: DomElement): DomElement[] {
  return [...element.childNodes].filter((node): node is DomElement => node.nodeType === ELEMENT_NODE);
}

function children(element: DomElement, depth: number): string {
  return elementsOf(element)
    .map((child) => convert(child, depth + 1))
    .join('');
}

/** The n-th element child's LaTeX. */
function argument(element: DomElement, index: number, depth: number): string {
  const child = elementsOf(element)[index];
  return child === undefined ? '' : convert(child, depth + 1).trim();
}

function convert(element: DomElement, depth: number): string {
  if (depth > MAX_DEPTH) return escapeText(element.textContent ?? '');
  const name = nameOf(element);
  switch (name) {
    case 'mi': {
      const text = (element.textContent ?? '').trim();
      if (text.length > 1 && /^[A-Za-z]+$/.test(text)) return KNOWN_FUNCTIONS.has(text) ? `${operatorName(text)} ` : `\\mathrm{${text}}`;
      return token(text);
    }
    case 'mn':
      return token((element.textContent ?? '').trim());
    case 'mo': {
      const text = (element.textContent ?? '').trim();
      return /^[A-Za-z]+$/.test(text) ? `${operatorName(text)} ` : token(text);
    }
    case 'mtext':
    case 'ms': {
      const text = (element.textContent ?? '').replace(/\s+/g, ' ');
      return text.trim() === '' ? ' ' : `\\text{${text.replace(/[{}\\]/g, '')}}`;
    }
    case 'mspace':
      return ' ';
    case 'annotation':
    case 'annotation-xml':
    case 'mphantom':
    case 'none':
    case 'mprescripts':
      return '';
    case 'semantics':
      return argument(element, 0, depth);
    case 'msup':
      return `${base(argument(element, 0, depth))}^{${argument(element, 1, depth)}}`;
    case 'msub':
      return `${base(argument(element, 0, depth))}_{${argument(element, 1, depth)}}`;
    case 'msubsup':
      return `${base(argument(element, 0, depth))}_{${argument(element, 1, depth)}}^{${argument(element, 2, depth)}}`;
    case 'mmultiscripts': {
      const scripts = elementsOf(element);
      const sub = scripts[1] === undefined || nameOf(scripts[1]) === 'none' ? '' : `_{${argument(element, 1, depth)}}`;
      const sup = scripts[2] === undefined || nameOf(scripts[2]) === 'none' ? '' : `^{${argument(element, 2, depth)}}`;
      return `${base(argument(element, 0, depth))}${sub}${sup}`;
    }
    case 'mfrac':
      return /^0/.test(element.getAttribute('linethickness') ?? '')
        ? `\\binom{${argument(element, 0, depth)}}{${argument(element, 1, depth)}}`
        : `\\frac{${argument(element, 0, depth)}}{${argument(element, 1, depth)}}`;
    case 'msqrt':
      return `\\sqrt{${children(element, depth).trim()}}`;
    case 'mroot':
      return `\\sqrt[${argument(element, 1, depth)}]{${argument(element, 0, depth)}}`;
    case 'mover':
      return over(element, depth);
    case 'munder':
      return under(element, depth);
    case 'munderover': {
      const operator = argument(element, 0, depth);
      if (LIMIT_OPERATORS.test(operator)) return `${operator}_{${argument(element, 1, depth)}}^{${argument(element, 2, depth)}}`;
      return `\\overset{${argument(element, 2, depth)}}{\\underset{${argument(element, 1, depth)}}{${operator}}}`;
    }
    case 'mfenced': {
      const open = element.getAttribute('open') ?? '(';
      const close = element.getAttribute('close') ?? ')';
      const separator = (element.getAttribute('separators') ?? ',').trim().charAt(0);
      const parts = elementsOf(element).map((child) => convert(child, depth + 1).trim());
      return `\\left${delimiter(open)}${parts.join(`${separator} `)}\\right${delimiter(close)}`;
    }
    case 'mtable': {
      const rows = elementsOf(element)
        .filter((row) => nameOf(row) === 'mtr' || nameOf(row) === 'mlabeledtr')
        .map((row) =>
          elementsOf(row)
            .filter((cell) => nameOf(cell) === 'mtd')
            .map((cell) => children(cell, depth + 1).trim())
            .join(' & '),
        );
      return `\\begin{matrix}${rows.join(' \\\\ ')}\\end{matrix}`;
    }
    default:
      // math, mrow, mstyle, mpadded, menclose, merror, maction, and what this reader does not know: the content.
      return elementsOf(element).length > 0 ? children(element, depth) : escapeText(element.textContent ?? '');
  }
}

function over(element: DomElement, depth: number): string {
  const baseLatex = argument(element, 0, depth);
  const overText = (elementsOf(element)[1]?.textContent ?? '').trim();
  const accent = ACCENTS[overText];
  if (accent !== undefined) return `${accent}{${baseLatex}}`;
  if (LIMIT_OPERATORS.test(baseLatex)) return `${baseLatex}^{${argument(element, 1, depth)}}`;
  return `\\overset{${argument(element, 1, depth)}}{${baseLatex}}`;
}

function under(element: DomElement, depth: number): string {
  const baseLatex = argument(element, 0, depth);
  const underText = (elementsOf(element)[1]?.textContent ?? '').trim();
  const accent = UNDER_ACCENTS[underText];
  if (accent !== undefined) return `${accent}{${baseLatex}}`;
  if (LIMIT_OPERATORS.test(baseLatex)) return `${baseLatex}_{${argument(element, 1, depth)}}`;
  return `\\underset{${argument(element, 1, depth)}}{${baseLatex}}`;
}

/** A token's characters: symbols as commands, LaTeX's reserved characters escaped. */
function token(text: string): string {
  let latex = '';
  for (const character of text) {
    const symbol = SYMBOLS[character];
    if (symbol !== undefined) latex += /^\\[A-Za-z]+$/.test(symbol) ? `${symbol} ` : symbol;
    else latex += LATEX_SPECIALS[character] ?? character;
  }
  return latex;
}

function escapeText(text: string): string {
  return token(text.replace(/\s+/g, ' '));
}

function delimiter(character: string): string {
  if (character === '') return '.';
  if (character === '{' || character === '}') return `\\${character}`;
  return token(character).trim() || '.';
}
