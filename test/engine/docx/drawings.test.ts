/**
 * Drawings that stand for text in Word documents, which mammoth drops with the drawing: SmartArt (its text as a nested
 * list) and charts (a caption and their data table).
 */
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

const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';

/** A paragraph holding an inline chart drawing whose part is relationship `rIdChart`, as Word writes it. */
const chartParagraph =
  '<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="5486400" cy="3200400"/>' +
  '<wp:docPr id="2" name="Chart 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">' +
  `<a:graphicData uri="${C}"><c:chart xmlns:c="${C}" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

const points = (values: string[]) => `<c:ptCount val="${values.length}"/>${values.map((value, index) => `<c:pt idx="${index}"><c:v>${value}</c:v></c:pt>`).join('')}`;
const series = (name: string, categories: string[], values: string[]) =>
  `<c:ser><c:tx><c:strRef><c:strCache>${points([name])}</c:strCache></c:strRef></c:tx>` +
  `<c:cat><c:strRef><c:strCache>${points(categories)}</c:strCache></c:strRef></c:cat>` +
  `<c:val><c:numRef><c:numCache>${points(values)}</c:numCache></c:numRef></c:val></c:ser>`;
const CHART =
  `<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="${C}" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart>` +
  '<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Sales by quarter</a:t></a:r></a:p></c:rich></c:tx></c:title>' +
  `<c:plotArea><c:barChart>${series('North', ['Q1', 'Q2'], ['10', '12'])}${series('South', ['Q1', 'Q2'], ['7', '9'])}</c:barChart></c:plotArea></c:chart></c:chartSpace>`;

describe('charts', () => {
  it('read as a caption and a table of their data where the chart stands', async () => {
    const rels =
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rIdChart" Type="${R}/chart" Target="charts/chart1.xml"/></Relationships>`;
    const bytes = makeDocx({
      body: paragraph('Sales rose in both regions.') + chartParagraph + paragraph('The north led.'),
      documentRels: rels,
      extra: { 'word/charts/chart1.xml': CHART },
    });
    expect(markdownOf(await convertDocx(input(bytes, {}, 'sales.docx')))).toBe(
      'Sales rose in both regions.\n\n*Chart: Sales by quarter*\n\n|  | North | South |\n| --- | --- | --- |\n| Q1 | 10 | 7 |\n| Q2 | 12 | 9 |\n\nThe north led.',
    );
  });
});
