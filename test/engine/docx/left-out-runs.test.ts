/** Runs left out: hidden text (w:vanish), as Word neither shows nor prints it, and unfilled content controls' prompts. */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx, paragraph } from './make-docx.js';

const run = (text: string, properties = '') => `<w:r>${properties ? `<w:rPr>${properties}</w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;
const markdownFor = async (body: string) => markdownOf(await convertDocx(input(makeDocx({ body }), {}, 'hidden.docx')));

describe('hidden text', () => {
  it('leaves out hidden runs and keeps runs whose vanish is switched off', async () => {
    const body =
      `<w:p>${run('The fee is ')}${run('[author: check this] ', '<w:b/><w:vanish/>')}${run('due in May', '<w:vanish w:val="false"/>')}${run('.')}</w:p>` +
      `<w:p>${run('Instructions to the author: delete before sending.', '<w:vanish w:val="1"/>')}</w:p>` +
      paragraph('Next paragraph.');
    expect(await markdownFor(body)).toBe('The fee is due in May.\n\nNext paragraph.');
  });

  it('a hidden paragraph mark hides no text; hidden field codes keep the field whole', async () => {
    const body =
      `<w:p><w:pPr><w:rPr><w:vanish/></w:rPr></w:pPr>${run('Kept words.')}</w:p>` +
      `<w:p>${run('Term')}` +
      `<w:r><w:rPr><w:vanish/></w:rPr><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:instrText> XE "Term" </w:instrText></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:fldChar w:fldCharType="end"/></w:r>` +
      `${run(' and ')}<w:hyperlink w:anchor="x">${run('a link', '<w:vanish/>')}${run('shown link')}</w:hyperlink></w:p>`;
    expect(await markdownFor(body)).toBe('Kept words.\n\nTerm and shown link');
  });

  it('hidden text in a table cell leaves the cell empty, not the row short', async () => {
    const cell = (inner: string) => `<w:tc><w:p>${inner}</w:p></w:tc>`;
    const body =
      '<w:tbl><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>' +
      `<w:tr>${cell(run('Item'))}${cell(run('Price'))}</w:tr>` +
      `<w:tr>${cell(run('Pen'))}${cell(run('internal cost 2', '<w:vanish/>'))}</w:tr>` +
      '</w:tbl>';
    expect(await markdownFor(body)).toBe('| Item | Price |\n| --- | --- |\n| Pen |  |');
  });
});

describe('text hidden through a style', () => {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const STYLES =
    `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}">` +
    '<w:style w:type="character" w:styleId="AuthorNote"><w:name w:val="Author Note"/><w:rPr><w:i/><w:vanish/></w:rPr></w:style>' +
    '<w:style w:type="character" w:styleId="StrongNote"><w:name w:val="Strong Note"/><w:basedOn w:val="AuthorNote"/><w:rPr><w:b/></w:rPr></w:style>' +
    '<w:style w:type="paragraph" w:styleId="AnswerKey"><w:name w:val="Answer Key"/><w:rPr><w:vanish/></w:rPr></w:style>' +
    '<w:style w:type="paragraph" w:styleId="ShownAnswer"><w:name w:val="Shown Answer"/><w:basedOn w:val="AnswerKey"/><w:rPr><w:vanish w:val="0"/></w:rPr></w:style>' +
    '</w:styles>';
  const RELS =
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    `<Relationship Id="rId1" Type="${R}/styles" Target="styles.xml"/></Relationships>`;
  const styledMarkdown = async (body: string) =>
    markdownOf(await convertDocx(input(makeDocx({ body, documentRels: RELS, extra: { 'word/styles.xml': STYLES } }), {}, 'styled-hidden.docx')));

  it('leaves out runs in a hidden character style, or one based on it, unless the run shows itself', async () => {
    const body =
      `<w:p>${run('Total: ')}${run('[check with finance] ', '<w:rStyle w:val="AuthorNote"/>')}${run('[urgent] ', '<w:rStyle w:val="StrongNote"/>')}` +
      `${run('1,200', '<w:rStyle w:val="AuthorNote"/><w:vanish w:val="0"/>')}${run(' euros.')}</w:p>`;
    expect(await styledMarkdown(body)).toBe('Total: 1,200 euros.');
  });

  it("leaves out paragraphs in a hidden paragraph style, and keeps those whose style shows them again", async () => {
    const body =
      paragraph('Question 1: name a prime number.') +
      paragraph('Answer: 7', 'AnswerKey') +
      paragraph('Worked example: 2 is prime.', 'ShownAnswer') +
      `<w:p><w:pPr><w:pStyle w:val="AnswerKey"/></w:pPr>${run('Shown in the key paragraph.', '<w:vanish w:val="false"/>')}</w:p>`;
    expect(await styledMarkdown(body)).toBe('Question 1: name a prime number.\n\nWorked example: 2 is prime.\n\nShown in the key paragraph.');
  });
});

describe('content controls showing their prompt', () => {
  const control = (content: string, prompting: boolean) =>
    `<w:sdt><w:sdtPr><w:alias w:val="Name"/>${prompting ? '<w:showingPlcHdr/>' : ''}</w:sdtPr><w:sdtContent>${content}</w:sdtContent></w:sdt>`;

  it('leave out the prompt of a control nobody filled in and keep the answers of filled ones', async () => {
    const cell = (inner: string) => `<w:tc>${inner}</w:tc>`;
    const body =
      `<w:p>${run('Name: ')}${control(run('Click or tap here to enter text.', '<w:rStyle w:val="PlaceholderText"/>'), true)}</w:p>` +
      `<w:p>${run('City: ')}${control(run('Oslo'), false)}</w:p>` +
      control(`<w:p>${run('Choose an item.')}</w:p>`, true) +
      '<w:tbl><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>' +
      `<w:tr>${cell(`<w:p>${run('Field')}</w:p>`)}${cell(`<w:p>${run('Answer')}</w:p>`)}</w:tr>` +
      `<w:tr>${cell(`<w:p>${run('Date')}</w:p>`)}${cell(`<w:p>${control(run('Click or tap to enter a date.'), true)}</w:p>`)}</w:tr>` +
      '</w:tbl>' +
      paragraph('Signed.');
    expect(await markdownFor(body)).toBe('Name:\n\nCity: Oslo\n\n| Field | Answer |\n| --- | --- |\n| Date |  |\n\nSigned.');
  });
});
