/**
 * SmartArt for mammoth. Word draws a SmartArt diagram (a process, a hierarchy, a cycle) as a `w:drawing` whose
 * graphic only points to the diagram's parts (`dgm:relIds`); its text lives in the data part (`dgm:dataModel`).
 * mammoth reads nothing of a drawing but its pictures, so every word of the diagram was lost.
 *
 * The diagram's text is read as the slide converter reads it (slides/pptx/diagram.ts: its nodes as a list nested
 * by the diagram's hierarchy) and given to mammoth beside the drawing as a text box's content (`w:pict` holding
 * `w:txbxContent`, which mammoth writes after the paragraph the drawing stands in), each node a paragraph in a
 * list style of its depth (`DIAGRAM_STYLE_MAP`). A drawing inside `mc:Choice` is left alone: mammoth reads the
 * Fallback instead.
 */
import { escapeRegExp } from '../../common/escape-regexp.js';
import { diagramParagraphs } from '../slides/pptx/diagram.js';
import { parseXml } from '../slides/xml.js';
import type { Paragraph } from '../slides/slide-model.js';
import { choiceRanges } from './alternate-content.js';
import { wordPrefix } from './word-prefix.js';

/** The paragraph style (by id, which no package defines) of a diagram node that many levels deep (1-based). */
const DIAGRAM_STYLE_PREFIX = 'DocmillDiagramLevel';
const MAX_DIAGRAM_LEVEL = 6;

/** Style map lines: a diagram node at level N is an item of a bulleted list N deep. */
export const DIAGRAM_STYLE_MAP = Array.from(
  { length: MAX_DIAGRAM_LEVEL },
  (_, index) => `p.${DIAGRAM_STYLE_PREFIX}${index + 1} => ${Array.from({ length: index + 1 }, () => 'ul > li').join(' > ')}:fresh`,
);

/**
 * The document XML with each SmartArt diagram's text given beside its drawing, and how many diagrams were.
 * `dataModelXml` gives the data part a relationship id points to (undefined when missing or unreadable).
 */
export function exposeSmartArt(documentXml: string, dataModelXml: (relationshipId: string) => string | undefined): { xml: string; count: number } {
  const word = wordPrefix(documentXml);
  if (word === null || !/<[\w.-]+:relIds\b/.test(documentXml)) return { xml: documentXml, count: 0 };
  const w = escapeRegExp(word);
  const drawings = new RegExp(`<${w}:drawing\\b[\\s\\S]*?</${w}:drawing>`, 'g');
  const choices = choiceRanges(documentXml);
  let count = 0;
  const xml = documentXml.replace(drawings, (drawing: string, at: number) => {
    const dataId = /<[\w.-]+:relIds\b[^>]*?\s[\w.-]+:dm="([^"]+)"/.exec(drawing)?.[1];
    if (dataId === undefined || choices.some(([start, end]) => at > start && at < end)) return drawing;
    const dataXml = dataModelXml(dataId);
    const model = dataXml === undefined ? null : parseXml(dataXml);
    if (model === null) return drawing;
    const paragraphs = diagramParagraphs(model, { listStyles: [], relationships: [], slideNumber: 0 });
    const content = paragraphs.map((paragraph) => wordParagraph(paragraph, word)).join('');
    if (content === '') return drawing;
    count += 1;
    return `${drawing}<${word}:pict><${word}:txbxContent>${content}</${word}:txbxContent></${word}:pict>`;
  });
  return { xml, count };
}

function wordParagraph(paragraph: Paragraph, word: string): string {
  const level = Math.min((paragraph.list?.level ?? 0) + 1, MAX_DIAGRAM_LEVEL);
  const runs = paragraph.runs
    .filter((run) => run.text !== '')
    .map((run) => {
      const properties = `${run.bold ? `<${word}:b/>` : ''}${run.italic ? `<${word}:i/>` : ''}`;
      return `<${word}:r>${properties ? `<${word}:rPr>${properties}</${word}:rPr>` : ''}<${word}:t xml:space="preserve">${escapeXml(run.text)}</${word}:t></${word}:r>`;
    })
    .join('');
  return `<${word}:p><${word}:pPr><${word}:pStyle ${word}:val="${DIAGRAM_STYLE_PREFIX}${level}"/></${word}:pPr>${runs}</${word}:p>`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
