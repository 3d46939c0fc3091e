/** Headings by outline level: a template's own heading styles read as headings, as Word's navigation pane shows them. */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx, paragraph } from './make-docx.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const STYLES =
  `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}">` +
  '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="ChapterTitle"><w:name w:val="Chapter Title"/><w:basedOn w:val="Heading1"/><w:rPr><w:caps/></w:rPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="SectionHead"><w:name w:val="Section Head"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Minor"><w:name w:val="Minor Head"/><w:basedOn w:val="SectionHead"/><w:pPr><w:outlineLvl w:val="7"/></w:pPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="BodyText"><w:name w:val="Body Text"/><w:basedOn w:val="Heading1"/><w:pPr><w:outlineLvl w:val="9"/></w:pPr></w:style>' +
  '</w:styles>';

const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  `<Relationship Id="rId1" Type="${R}/styles" Target="styles.xml"/></Relationships>`;

describe('headings by outline level', () => {
  it("read a template's heading styles (based on a heading style, or with an outline level of their own) as headings; body text level stays text", async () => {
    const body =
      paragraph('The Voyage', 'ChapterTitle') +
      paragraph('We sailed at dawn.') +
      paragraph('Provisions', 'SectionHead') +
      paragraph('Water and bread.', 'BodyText') +
      paragraph('A footnote-sized heading', 'Minor') +
      paragraph('The end.');
    const bytes = makeDocx({ body, documentRels: RELS, extra: { 'word/styles.xml': STYLES } });
    expect(markdownOf(await convertDocx(input(bytes, {}, 'voyage.docx')))).toBe(
      '# The Voyage\n\nWe sailed at dawn.\n\n## Provisions\n\nWater and bread.\n\n###### A footnote-sized heading\n\nThe end.',
    );
  });
});
