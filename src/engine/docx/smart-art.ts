/**
 * SmartArt for mammoth. Word draws a SmartArt diagram (a process, a hierarchy, a cycle) as a `w:drawing` whose
 * graphic only points to the diagram's parts (`dgm:relIds`); its text lives in the data part (`dgm:dataModel`).
 * mammoth reads nothing of a drawing but its pictures, so every word of the diagram was lost.
 *
 * The diagram's text is read as the slide converter reads it (slides/pptx/diagram.ts: its nodes as a list nested
 * by the diagram's hierarchy) and given to mammoth beside the drawing (drawing-content.ts), each node a paragraph
 * in a list style of its depth (`DIAGRAM_STYLE_MAP`).
 */
import { diagramParagraphs } from '../slides/pptx/diagram.js';
import { parseXml } from '../slides/xml.js';
import type { Paragraph } from '../slides/slide-model.js';
import { escapeXml } from './drawing-content.js';

/** The paragraph style (by id, which no package defines) of a diagram node that many levels deep (1-based). */
const DIAGRAM_STYLE_PREFIX = 'DocmillDiagramLevel';
const MAX_DIAGRAM_LEVEL = 6;

/** Style map lines: a diagram node at level N is an item of a bulleted list N deep. */
export const DIAGRAM_STYLE_MAP = Array.from(
  { length: MAX_DIAGRAM_LEVEL },
  (_, index) => `p.${DIAGRAM_STYLE_PREFIX}${index + 1} => ${Array.from({ length: index + 1 }, () => 'ul > li').join(' > ')}:fresh`,
);

/**
 * The diagram's text as WordprocessingML paragraphs, when the drawing is a SmartArt diagram whose data part
 * (`dataModelXml`, by relationship id) can be read; null otherwise.
 */
export function smartArtContent(drawingXml: string, word: string, dataModelXml: (relationshipId: string) => string | undefined): string | null {
  const dataId = /<[\w.-]+:relIds\b[^>]*?\s[\w.-]+:dm="([^"]+)"/.exec(drawingXml)?.[1];
  if (dataId === undefined) return null;
  const dataXml = dataModelXml(dataId);
  const model = dataXml === undefined ? null : parseXml(dataXml);
  if (model === null) return null;
  const paragraphs = diagramParagraphs(model, { listStyles: [], relationships: [], slideNumber: 0 });
  return paragraphs.map((paragraph) => wordParagraph(paragraph, word)).join('');
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
