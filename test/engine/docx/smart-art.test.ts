/** SmartArt in Word documents: the diagram's text, which mammoth drops with the drawing, read as a nested list. */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { smartArt } from '../slides/make-deck.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx, paragraph } from './make-docx.js';

const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A paragraph holding an inline SmartArt drawing whose data part is relationship `rIdDm`, as Word writes it. */
const diagramParagraph =
  '<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="5486400" cy="3200400"/>' +
  '<wp:docPr id="1" name="Diagram 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">' +
  '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram">' +
  '<dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rIdDm" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/>' +
  '</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>';

const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  `<Relationship Id="rIdDm" Type="${R}/diagramData" Target="diagrams/data1.xml"/></Relationships>`;

describe('SmartArt', () => {
  it('reads the diagram text as a list nested like the diagram, where the diagram stands', async () => {
    const { part } = smartArt({ x: 0, y: 0, w: 1, h: 1 }, [
      ['plan', 'root', 'Plan &amp; scope'],
      ['goals', 'plan', 'Set goals'],
      ['budget', 'plan', 'Agree budget'],
      ['build', 'root', 'Build'],
      ['ship', 'root', 'Ship'],
    ]);
    const bytes = makeDocx({
      body: paragraph('Our process has three stages.') + diagramParagraph + paragraph('Each stage ends with a review.'),
      documentRels: RELS,
      extra: { 'word/diagrams/data1.xml': part },
    });
    expect(markdownOf(await convertDocx(input(bytes, {}, 'process.docx')))).toBe(
      'Our process has three stages.\n\n- Plan & scope\n  - Set goals\n  - Agree budget\n- Build\n- Ship\n\nEach stage ends with a review.',
    );
  });

  it('a diagram whose data part is missing costs its text only', async () => {
    const bytes = makeDocx({ body: paragraph('Before.') + diagramParagraph + paragraph('After.'), documentRels: RELS });
    expect(markdownOf(await convertDocx(input(bytes, {}, 'missing.docx')))).toBe('Before.\n\nAfter.');
  });
});
