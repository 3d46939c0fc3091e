/**
 * Text a drawing stands for, given to mammoth. mammoth reads nothing of a `w:drawing` but its pictures, so what a
 * SmartArt diagram or a chart says (in parts of their own the drawing only points to) was lost. Each such drawing
 * gets its content beside it as a text box's (`w:pict` holding `w:txbxContent`, which mammoth writes after the
 * paragraph the drawing stands in): paragraphs and tables in WordprocessingML, made by the module that reads that
 * kind of drawing (smart-art.ts, charts.ts). A drawing inside `mc:Choice` is left alone: mammoth reads the
 * Fallback instead.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { choiceRanges } from './alternate-content.js';
import { wordPrefix } from './word-prefix.js';

/** The WordprocessingML content a drawing's XML stands for (with the package's prefix `word`), or null for none. */
export type DrawingContent = (drawingXml: string, word: string) => string | null;

/** The document XML with each drawing's content written beside it, and how many drawings got one. */
export function addDrawingContent(documentXml: string, contentOf: DrawingContent): { xml: string; count: number } {
  const word = wordPrefix(documentXml);
  if (word === null) return { xml: documentXml, count: 0 };
  const w = escapeRegExp(word);
  const drawings = new RegExp(`<${w}:drawing\\b[\\s\\S]*?</${w}:drawing>`, 'g');
  const choices = choiceRanges(documentXml);
  let count = 0;
  const xml = documentXml.replace(drawings, (drawing: string, at: number) => {
    if (choices.some(([start, end]) => at > start && at < end)) return drawing;
    const content = contentOf(drawing, word);
    if (content === null || content === '') return drawing;
    count += 1;
    return `${drawing}<${word}:pict><${word}:txbxContent>${content}</${word}:txbxContent></${word}:pict>`;
  });
  return { xml, count };
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
