/**
 * Headings a book sets by its style sheet alone. Many EPUBs never use `<h1>`…`<h6>`: InDesign, LibreOffice and
 * other exporters write a chapter title as `<p class="Chapter-Title">` or `<p class="para0"><span class="span0">`
 * and let the CSS make it large and bold. The HTML path reads headings by their tags, so such a book came out as
 * one flat run of paragraphs. Where no chapter of the book uses a heading tag, each chapter's paragraphs are read
 * for the type their classes give them (font-size, font-weight of simple class rules), and the same rule that finds
 * headings made by hand in Word documents (hand-made-headings.ts) says which are headings and at what level.
 */
import { handMadeHeadingLevels, type ParagraphLook } from '../hand-made-headings.js';
import { type DomDocument, type DomElement, isElement, TEXT_NODE } from '../html/dom.js';

/** What a class sets: a size in ems of the body's type, and the weight; undefined where it says nothing. */
interface ClassType {
  size?: number;
  bold?: boolean;
}

/** The classes a book's style sheets set a size or a weight for, by class name. */
export type ClassTypes = ReadonlyMap<string, ClassType>;

const KEYWORD_SIZES: Readonly<Record<string, number>> = {
  'xx-small': 0.6, 'x-small': 0.75, small: 0.89, medium: 1, large: 1.2, 'x-large': 1.5, 'xx-large': 2, 'xxx-large': 3, smaller: 0.83, larger: 1.2,
};

/** A book's base type: 12pt, 16px. */
const BASE_POINTS = 12;

/** A CSS font-size as ems of the book's base type, or undefined. */
function ems(value: string): number | undefined {
  const keyword = KEYWORD_SIZES[value.trim().toLowerCase()];
  if (keyword !== undefined) return keyword;
  const match = /^(\d*\.?\d+)(em|rem|%|pt|px)$/i.exec(value.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  switch ((match[2] as string).toLowerCase()) {
    case '%':
      return amount / 100;
    case 'pt':
      return amount / BASE_POINTS;
    case 'px':
      return (amount * 0.75) / BASE_POINTS;
    default:
      return amount;
  }
}

/** The class rules of `css` (`.name`, `p.name`, `span.name`, in selector lists) that set a font's size or weight. */
export function readClassTypes(css: string): Map<string, ClassType> {
  const types = new Map<string, ClassType>();
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const rule of withoutComments.matchAll(/([^{}@]+)\{([^{}]*)\}/g)) {
    const declarations = rule[2] as string;
    const size = /(?:^|;)\s*font-size\s*:\s*([^;!]+)/i.exec(declarations)?.[1];
    const weight = /(?:^|;)\s*font-weight\s*:\s*([^;!]+)/i.exec(declarations)?.[1]?.trim().toLowerCase();
    const sizeEms = size === undefined ? undefined : ems(size);
    const bold = weight === undefined ? undefined : weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
    if (sizeEms === undefined && bold === undefined) continue;
    for (const selector of (rule[1] as string).split(',')) {
      const name = /^\s*(?:[a-z][a-z0-9]*)?\.([\w-]+)\s*$/i.exec(selector)?.[1];
      if (name === undefined) continue;
      const type = { ...(types.get(name) ?? {}) };
      if (sizeEms !== undefined) type.size = sizeEms;
      if (bold !== undefined) type.bold = bold;
      types.set(name, type);
    }
  }
  return types;
}

/** Elements a chapter writes a paragraph's text in. */
const PARAGRAPHS = new Set(['p', 'div']);
const BLOCKS = new Set(['p', 'div', 'section', 'article', 'blockquote', 'ul', 'ol', 'li', 'table', 'figure', 'aside', 'header', 'footer', 'nav', 'dl', 'pre', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Turns a chapter's paragraphs whose classes set them as headings into `h1`…`h6`; returns how many were. */
export function markStyledHeadings(document: DomDocument, types: ClassTypes): number {
  const body = document.body;
  if (body === null || types.size === 0) return 0;
  const paragraphs = leafParagraphs(body);
  const looks = paragraphs.map((element) => lookOf(element, types));
  const levels = handMadeHeadingLevels(looks, 1);
  for (const [index, level] of levels) {
    const paragraph = paragraphs[index] as DomElement;
    const heading = document.createElement(`h${level}`);
    for (const child of [...paragraph.childNodes]) heading.appendChild(child);
    paragraph.replaceWith(heading);
  }
  return levels.size;
}

/** The paragraphs holding text and no block inside them, in reading order; other blocks in between count as text. */
function leafParagraphs(body: DomElement): DomElement[] {
  const out: DomElement[] = [];
  const stack: DomElement[] = [body];
  while (stack.length > 0) {
    const element = stack.pop() as DomElement;
    const blocks = [...element.children].filter((child) => BLOCKS.has(child.localName.toLowerCase()));
    if (element !== body && PARAGRAPHS.has(element.localName.toLowerCase()) && blocks.length === 0) {
      out.push(element);
      continue;
    }
    for (let i = blocks.length - 1; i >= 0; i--) stack.push(blocks[i] as DomElement);
  }
  return out;
}

/** A paragraph's type: its classes', or the one of an element wrapping all its text (a span, `b`, `strong`). */
function lookOf(paragraph: DomElement, types: ClassTypes): ParagraphLook {
  const text = (paragraph.textContent ?? '').replace(/\s+/g, ' ').trim();
  let type = typeOf(paragraph, types, { size: 1, bold: false });
  let inner: DomElement | undefined = soleChild(paragraph);
  for (let hops = 0; inner !== undefined && hops < 4; hops++) {
    type = typeOf(inner, types, type);
    inner = soleChild(inner);
  }
  const listed = paragraph.closest('li') !== null;
  return { text, look: `${type.size}|${type.bold}`, size: type.size, bold: type.bold, listed };
}

function typeOf(element: DomElement, types: ClassTypes, outer: { size: number; bold: boolean }): { size: number; bold: boolean } {
  let size = outer.size;
  let bold = outer.bold || /^(?:b|strong)$/i.test(element.localName);
  for (const name of (element.getAttribute('class') ?? '').split(/\s+/)) {
    const type = types.get(name);
    if (type?.size !== undefined) size = type.size;
    if (type?.bold !== undefined) bold = type.bold;
  }
  return { size, bold };
}

/** The one element a paragraph's text is all inside, if there is one. */
function soleChild(element: DomElement): DomElement | undefined {
  let only: DomElement | undefined;
  for (const node of element.childNodes) {
    if (node.nodeType === TEXT_NODE) {
      if ((node.textContent ?? '').trim() !== '') return undefined;
    } else if (isElement(node)) {
      if (only !== undefined) return undefined;
      only = node;
    }
  }
  return only;
}
