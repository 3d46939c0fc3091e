/** Links to bookmarks inside the document (contents entries, cross-references) keep their text without a dead link. */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx } from './make-docx.js';

const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const field = (code: string, result: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve">${code}</w:instrText></w:r>` +
  `<w:r><w:fldChar w:fldCharType="separate"/></w:r>${run(result)}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;
/** A contents entry as Word's TOC field writes it: a link to the heading's bookmark, a tab, its page number. */
const contentsEntry = (text: string, bookmark: string, page: string) =>
  `<w:p><w:hyperlink w:anchor="${bookmark}" w:history="1">${run(text)}<w:r><w:tab/></w:r>${field(` PAGEREF ${bookmark} \\h `, page)}</w:hyperlink></w:p>`;

describe('links to bookmarks', () => {
  it('a table of contents and cross-references keep their text; links out of the document stay links', async () => {
    const body =
      `<w:p>${field(' TOC \\o "1-3" \\h \\z \\u ', '')}</w:p>` +
      contentsEntry('Introduction', '_Toc101', '1') +
      contentsEntry('Results', '_Toc102', '4') +
      `<w:p><w:bookmarkStart w:id="0" w:name="_Toc101"/>${run('Introduction')}<w:bookmarkEnd w:id="0"/></w:p>` +
      `<w:p>${run('As ')}<w:hyperlink w:anchor="_Ref7">${run('Table 2')}</w:hyperlink>${run(' shows, see ')}<w:hyperlink r:id="rId5">${run('the site')}</w:hyperlink>${run('.')}</w:p>`;
    const documentRels =
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rId5" Type="${R}/hyperlink" Target="https://example.org/" TargetMode="External"/></Relationships>`;
    const model = await convertDocx(input(makeDocx({ body, documentRels }), {}, 'contents.docx'));
    expect(markdownOf(model)).toBe('Introduction 1\n\nResults 4\n\nIntroduction\n\nAs Table 2 shows, see [the site](https://example.org/).');
    expect(model.links).toEqual(['https://example.org/']);
  });
});
