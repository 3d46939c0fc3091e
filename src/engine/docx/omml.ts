/**
 * Word equations (OMML, `m:oMath`) to LaTeX. mammoth ignores OMML entirely (an equation simply vanishes from its
 * HTML), so the DOCX path converts each equation here and puts the LaTeX back into the document as a text run
 * mammoth does read (see equations.ts).
 *
 * Covered: runs (with symbol → command mapping: Greek letters, operators, arrows, set symbols), fractions (bar,
 * linear, no-bar), sub/superscripts (incl. pre-scripts), radicals, n-ary operators (∑ ∏ ∫ ∬ ∭ ∮ ∯ ∰ ⋃ ⋂ ⋀ ⋁ with
 * limits), delimiters, function applications (sin, cos, lim...), lower/upper limits, accents, bars, group
 * characters (over/underbraces), boxes, equation arrays and matrices. Anything else contributes its content.
 */
import { base, LATEX_SPECIALS, operatorName, SYMBOLS, tidyLatex } from '../latex.js';
import { XMLParser } from 'fast-xml-parser';

type OrderedNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  removeNSPrefix: true,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
});

const ACCENTS: Record<string, string> = {
  '\u0302': '\\hat', '\u0303': '\\tilde', '\u0304': '\\bar', '\u0305': '\\overline', '\u0307': '\\dot',
  '\u0308': '\\ddot', '\u20d7': '\\vec', '\u0301': '\\acute', '\u0300': '\\grave', '\u0306': '\\breve',
  '\u030c': '\\check', '\u20d6': '\\overleftarrow', '\u20e1': '\\overleftrightarrow',
};

const DELIMITERS: Record<string, string> = {
  '(': '(', ')': ')', '[': '[', ']': ']', '{': '\\{', '}': '\\}', '|': '|', '‖': '\\|', '⟨': '\\langle',
  '⟩': '\\rangle', '⌈': '\\lceil', '⌉': '\\rceil', '⌊': '\\lfloor', '⌋': '\\rfloor', '': '.',
};

/** LaTeX of one `m:oMath` or `m:oMathPara` element given as XML text. Empty when nothing could be read. */
export function ommlToLatex(xml: string): string {
  let parsed: OrderedNode[];
  try {
    parsed = parser.parse(xml) as OrderedNode[];
  } catch {
    return '';
  }
  return tidyLatex(convertChildren(parsed));
}

function nameOf(node: OrderedNode): string {
  for (const key of Object.keys(node)) if (key !== ':@') return key;
  return '';
}

function childrenOf(node: OrderedNode): OrderedNode[] {
  const value = node[nameOf(node)];
  return Array.isArray(value) ? (value as OrderedNode[]) : [];
}

function attribute(node: OrderedNode | undefined, name: string): string | undefined {
  if (node === undefined) return undefined;
  const attributes = node[':@'] as Record<string, unknown> | undefined;
  const value = attributes?.[`@_${name}`];
  return typeof value === 'string' ? value : undefined;
}

function child(node: OrderedNode, name: string): OrderedNode | undefined {
  return childrenOf(node).find((candidate) => nameOf(candidate) === name);
}

/** `m:val` of a property element under `<xPr>` (e.g. naryPr/chr). */
function property(node: OrderedNode, propertiesName: string, name: string): string | undefined {
  // m:rPr and w:rPr both read as "rPr" once prefixes are removed: look in every match.
  for (const properties of childrenOf(node)) {
    if (nameOf(properties) !== propertiesName) continue;
    const element = child(properties, name);
    if (element !== undefined) return attribute(element, 'val') ?? '';
  }
  return undefined;
}

function isOn(value: string | undefined): boolean {
  return value !== undefined && value !== '0' && value !== 'off' && value !== 'false';
}

function arg(node: OrderedNode, name: string): string {
  const element = child(node, name);
  return element === undefined ? '' : convertChildren(childrenOf(element)).trim();
}

function group(latex: string): string {
  return `{${latex}}`;
}

/** True when a node's content is only runs (no structure), so it reads as plain text. */
function onlyRuns(node: OrderedNode): boolean {
  return childrenOf(node).every((item) => {
    const name = nameOf(item);
    return name === 'r' || name.endsWith('Pr') || name === '#text';
  });
}

function convertChildren(nodes: OrderedNode[]): string {
  return nodes.map(convertNode).join('');
}

function textOf(nodes: OrderedNode[]): string {
  let text = '';
  for (const node of nodes) {
    const name = nameOf(node);
    if (name === '#text') text += String(node['#text'] ?? '');
    else if (name === 't') text += textOf(childrenOf(node));
  }
  return text;
}

function convertNode(node: OrderedNode): string {
  const name = nameOf(node);
  switch (name) {
    case '#text':
    case '?xml':
      return '';
    case 'r':
      return convertRun(node);
    case 'f': {
      const type = property(node, 'fPr', 'type');
      const numerator = arg(node, 'num');
      const denominator = arg(node, 'den');
      if (type === 'lin') return `${numerator}/${denominator}`;
      if (type === 'noBar') return `\\genfrac{}{}{0pt}{}${group(numerator)}${group(denominator)}`;
      return `\\frac${group(numerator)}${group(denominator)}`;
    }
    case 'sSup':
      return `${base(arg(node, 'e'))}^${group(arg(node, 'sup'))}`;
    case 'sSub':
      return `${base(arg(node, 'e'))}_${group(arg(node, 'sub'))}`;
    case 'sSubSup':
      return `${base(arg(node, 'e'))}_${group(arg(node, 'sub'))}^${group(arg(node, 'sup'))}`;
    case 'sPre':
      return `{}_${group(arg(node, 'sub'))}^${group(arg(node, 'sup'))}${group(arg(node, 'e'))}`;
    case 'rad': {
      const degree = arg(node, 'deg');
      const hidden = isOn(property(node, 'radPr', 'degHide'));
      return hidden || degree === '' ? `\\sqrt${group(arg(node, 'e'))}` : `\\sqrt[${degree}]${group(arg(node, 'e'))}`;
    }
    case 'nary': {
      const character = property(node, 'naryPr', 'chr') || '∫';
      const operator = SYMBOLS[character] ?? character;
      const sub = isOn(property(node, 'naryPr', 'subHide')) ? '' : arg(node, 'sub');
      const sup = isOn(property(node, 'naryPr', 'supHide')) ? '' : arg(node, 'sup');
      return `${operator}_${group(sub)}^${group(sup)}${arg(node, 'e')}`;
    }
    case 'd': {
      const begin = property(node, 'dPr', 'begChr') ?? '(';
      const end = property(node, 'dPr', 'endChr') ?? ')';
      const separator = property(node, 'dPr', 'sepChr') ?? '|';
      const parts = childrenOf(node)
        .filter((candidate) => nameOf(candidate) === 'e')
        .map((element) => convertChildren(childrenOf(element)).trim());
      const open = DELIMITERS[begin] ?? begin;
      const close = DELIMITERS[end] ?? end;
      return `\\left${open}${parts.join(separator === '|' ? ' \\mid ' : ` ${SYMBOLS[separator] ?? separator} `)}\\right${close}`;
    }
    case 'func': {
      const nameNode = child(node, 'fName');
      const argument = arg(node, 'e');
      if (nameNode === undefined) return argument;
      const word = plainText(nameNode).trim();
      if (onlyRuns(nameNode) && /^[A-Za-z]+$/.test(word)) return `${operatorName(word)}${group(argument)}`;
      return `${convertChildren(childrenOf(nameNode)).trim()}${group(argument)}`;
    }
    case 'limLow': {
      const baseNode = child(node, 'e');
      const limit = arg(node, 'lim');
      const word = baseNode === undefined ? '' : plainText(baseNode).trim();
      if (baseNode !== undefined && onlyRuns(baseNode) && /^[A-Za-z]+$/.test(word)) return `${operatorName(word)}_${group(limit)}`;
      return `\\underset${group(limit)}${group(arg(node, 'e'))}`;
    }
    case 'limUpp':
      return `\\overset${group(arg(node, 'lim'))}${group(arg(node, 'e'))}`;
    case 'acc': {
      const character = property(node, 'accPr', 'chr') ?? '\u0302';
      const command = ACCENTS[character] ?? '\\hat';
      return `${command}${group(arg(node, 'e'))}`;
    }
    case 'bar': {
      const position = property(node, 'barPr', 'pos') ?? 'bot';
      return `${position === 'top' ? '\\overline' : '\\underline'}${group(arg(node, 'e'))}`;
    }
    case 'groupChr': {
      const character = property(node, 'groupChrPr', 'chr') ?? '\u23df';
      const position = property(node, 'groupChrPr', 'pos') ?? 'bot';
      const over = character === '\u23de' || (character !== '\u23df' && position === 'top');
      return `${over ? '\\overbrace' : '\\underbrace'}${group(arg(node, 'e'))}`;
    }
    case 'borderBox':
      return `\\boxed${group(arg(node, 'e'))}`;
    case 'eqArr': {
      const rows = childrenOf(node)
        .filter((candidate) => nameOf(candidate) === 'e')
        .map((element) => convertChildren(childrenOf(element)).trim());
      return rows.length === 1 ? (rows[0] as string) : `\\begin{array}{l}${rows.join(' \\\\ ')}\\end{array}`;
    }
    case 'm': {
      const rows = childrenOf(node)
        .filter((candidate) => nameOf(candidate) === 'mr')
        .map((row) =>
          childrenOf(row)
            .filter((candidate) => nameOf(candidate) === 'e')
            .map((element) => convertChildren(childrenOf(element)).trim())
            .join(' & '),
        );
      return `\\begin{matrix}${rows.join(' \\\\ ')}\\end{matrix}`;
    }
    case 'oMathPara':
      return childrenOf(node)
        .filter((candidate) => nameOf(candidate) === 'oMath')
        .map((element) => convertChildren(childrenOf(element)).trim())
        .join(' \\\\ ');
    default:
      // Property elements carry no content; containers (oMath, e, box, phant...) contribute their children.
      if (name.endsWith('Pr')) return '';
      return convertChildren(childrenOf(node));
  }
}

/** Text of the runs under a node, without conversion (function names). */
function plainText(node: OrderedNode): string {
  let text = '';
  for (const item of childrenOf(node)) {
    const name = nameOf(item);
    if (name === 'r') text += textOf(childrenOf(item).filter((candidate) => nameOf(candidate) === 't'));
    else if (!name.endsWith('Pr')) text += plainText(item);
  }
  return text;
}

/** Stands for a space of the run while it is converted (a private-use character never found in equations). */
const SPACE_MARK = '\uE000';

function convertRun(run: OrderedNode): string {
  const text = textOf(childrenOf(run).filter((candidate) => nameOf(candidate) === 't'));
  const nor = property(run, 'rPr', 'nor');
  // <m:nor/> with no value means on.
  const normalText = nor !== undefined && (nor === '' || isOn(nor));
  let latex = '';
  for (const character of text) {
    const symbol = SYMBOLS[character];
    if (symbol !== undefined) {
      latex += /^\\[A-Za-z]+$/.test(symbol) ? `${symbol} ` : symbol;
    } else if (LATEX_SPECIALS[character] !== undefined) {
      latex += LATEX_SPECIALS[character];
    } else if (character === ' ') {
      latex += SPACE_MARK;
    } else {
      latex += character;
    }
  }
  // A space between words is a real space in the equation (`group\\ with\\ braces`); others are layout.
  latex = latex
    .replace(new RegExp(`(?<=[A-Za-z0-9])${SPACE_MARK}+(?=[A-Za-z0-9])`, 'g'), '\\ ')
    .replaceAll(SPACE_MARK, normalText ? '\\ ' : ' ');
  return latex;
}
