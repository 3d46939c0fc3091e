/** Page and column breaks inside a paragraph part its words; one before a heading's text leaves the heading whole. */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx } from './make-docx.js';

const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const STYLES =
  '<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
  '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>';
const RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/styles" Target="styles.xml"/></Relationships>`;
const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const pageBreak = (type: 'page' | 'column') => `<w:r><w:br w:type="${type}"/></w:r>`;

describe('page and column breaks', () => {
  it('inside a paragraph break the line instead of running its words together', async () => {
    const body =
      `<w:p>${run('The end of part one.')}${pageBreak('page')}${run('Part two begins.')}</w:p>` +
      `<w:p>${run('Left column text')}${pageBreak('column')}${run('right column text')}</w:p>` +
      `<w:p>${pageBreak('page')}</w:p>` +
      `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${pageBreak('page')}${run('Chapter Two')}</w:p>` +
      `<w:p>${run('Its first paragraph.')}${pageBreak('page')}</w:p>`;
    const model = await convertDocx(input(makeDocx({ body, documentRels: RELS, extra: { 'word/styles.xml': STYLES } }), {}, 'breaks.docx'));
    expect(markdownOf(model)).toBe('The end of part one.  \nPart two begins.\n\nLeft column text  \nright column text\n\n# Chapter Two\n\nIts first paragraph.');
  });

  it('a line break inside a heading of a web page leaves one heading line', () => {
    const model = htmlToModel('<html><body><h1><br>Annual report<br>2024</h1><p>Text.</p></body></html>', { onlyMainContent: false });
    expect(markdownOf(model)).toBe('# Annual report 2024\n\nText.');
  });
});
