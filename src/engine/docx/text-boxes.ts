/**
 * Text boxes for mammoth. Word draws a text box as a DrawingML shape (`wps:wsp` holding `wps:txbx`) inside
 * `mc:AlternateContent`, with a VML copy (`w:pict`, `v:textbox`) as its Fallback for older readers; mammoth reads
 * the Fallback only, and nothing of a drawing but its pictures. A text box written without that copy (by producers
 * that write DrawingML alone, or a Fallback holding only a picture of the shape) would lose its text. Such a box's
 * `w:txbxContent` is given to mammoth as a VML text box would be: a `w:pict` beside the drawing, or in the
 * Fallback, whose paragraphs mammoth writes after the paragraph the box is anchored in.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';

const WORD_NAMESPACES = ['http://schemas.openxmlformats.org/wordprocessingml/2006/main', 'http://purl.oclc.org/ooxml/wordprocessingml/main'];

interface Open {
  /** The element's qualified name (`w:drawing`). */
  name: string;
  start: number;
  /** Where its start tag ends. */
  inner: number;
  /** For a drawing: the text boxes (outermost `w:txbxContent`, as XML) in it. */
  boxes: string[];
  /** For an mc:AlternateContent: its Fallback's place and whether it holds a text box already. */
  fallback?: { start: number; end: number; selfClosed: boolean; hasBox: boolean } | undefined;
  /** For an mc:AlternateContent: the text boxes of the drawings in its Choice. */
  choiceBoxes?: string[] | undefined;
}

interface Edit {
  at: number;
  /** Characters replaced from `at` (0: an insertion). */
  length: number;
  text: string;
}

/** The document XML with every text box that only DrawingML holds also given as VML, and how many were. */
export function exposeTextBoxes(documentXml: string): { xml: string; count: number } {
  const word = prefixOf(documentXml);
  if (word === null || !documentXml.includes(`<${word}:txbxContent`)) return { xml: documentXml, count: 0 };
  const drawing = `${word}:drawing`;
  const textBox = `${word}:txbxContent`;
  const pict = `${word}:pict`;
  const edits: Edit[] = [];
  const stack: Open[] = [];
  const tags = /<(\/?)([\w.-]+:[\w.-]+|[\w.-]+)\b[^>]*?(\/?)>/g;
  for (let match = tags.exec(documentXml); match; match = tags.exec(documentXml)) {
    const [tag, closing, name, selfClosing] = match as unknown as [string, string, string, string];
    const local = name.slice(name.indexOf(':') + 1);
    const end = match.index + tag.length;
    if (selfClosing) {
      if (local === 'Fallback') {
        const alternate = nearest(stack, 'AlternateContent');
        if (alternate) alternate.fallback = { start: match.index, end, selfClosed: true, hasBox: false };
      }
      continue;
    }
    if (!closing) {
      stack.push({ name, start: match.index, inner: end, boxes: [] });
      continue;
    }
    const at = stack.findLastIndex((open) => open.name === name);
    if (at < 0) continue;
    const open = stack[at]!;
    stack.length = at;
    if (name === textBox) {
      // An outermost text box, not one inside VML (which mammoth reads), nor one nested in another.
      if (stack.some((outer) => outer.name === textBox || outer.name === pict)) continue;
      stack.findLast((outer) => outer.name === drawing)?.boxes.push(documentXml.slice(open.start, end));
    } else if (name === drawing && open.boxes.length > 0) {
      const inChoice = stack.some((outer) => localOf(outer.name) === 'Choice');
      if (inChoice) {
        const alternate = nearest(stack, 'AlternateContent');
        if (alternate) (alternate.choiceBoxes ??= []).push(...open.boxes);
      } else {
        edits.push({ at: end, length: 0, text: `<${pict}>${open.boxes.join('')}</${pict}>` });
      }
    } else if (local === 'Fallback') {
      const alternate = nearest(stack, 'AlternateContent');
      if (alternate) alternate.fallback = { start: open.start, end, selfClosed: false, hasBox: documentXml.slice(open.inner, end).includes(`<${textBox}`) };
    } else if (local === 'AlternateContent' && open.choiceBoxes && !open.fallback?.hasBox) {
      const prefix = name.slice(0, name.indexOf(':') + 1);
      const vml = `<${pict}>${open.choiceBoxes.join('')}</${pict}>`;
      const fallback = open.fallback;
      if (!fallback) edits.push({ at: match.index, length: 0, text: `<${prefix}Fallback>${vml}</${prefix}Fallback>` });
      else if (fallback.selfClosed) edits.push({ at: fallback.start, length: fallback.end - fallback.start, text: `<${prefix}Fallback>${vml}</${prefix}Fallback>` });
      else edits.push({ at: fallback.end - `</${prefix}Fallback>`.length, length: 0, text: vml });
    }
  }
  if (edits.length === 0) return { xml: documentXml, count: 0 };
  edits.sort((a, b) => a.at - b.at);
  let xml = '';
  let from = 0;
  for (const edit of edits) {
    xml += documentXml.slice(from, edit.at) + edit.text;
    from = edit.at + edit.length;
  }
  return { xml: xml + documentXml.slice(from), count: edits.length };
}

function localOf(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

function nearest(stack: readonly Open[], local: string): Open | undefined {
  return stack.findLast((open) => localOf(open.name) === local);
}

function prefixOf(xml: string): string | null {
  for (const namespace of WORD_NAMESPACES) {
    const match = new RegExp(`xmlns:(\\w+)="${escapeRegExp(namespace)}"`).exec(xml);
    if (match?.[1] !== undefined) return match[1];
  }
  return null;
}
