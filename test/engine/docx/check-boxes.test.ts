/** Word check boxes (check-box content controls, FORMCHECKBOX fields) read as ☒ / ☐ where they stand. */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx, paragraph } from './make-docx.js';

const W14 = 'http://schemas.microsoft.com/office/word/2010/wordml';
const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
/** A check-box content control as Word 2010 and later write it: the box's glyph in the control's content. */
const checkBox = (checked: boolean) =>
  `<w:sdt><w:sdtPr xmlns:w14="${W14}"><w14:checkbox><w14:checked w14:val="${checked ? 1 : 0}"/></w14:checkbox></w:sdtPr>` +
  `<w:sdtContent><w:r><w:t>${checked ? '☒' : '☐'}</w:t></w:r></w:sdtContent></w:sdt>`;
/** A legacy form field check box: no glyph at all, only the field's data. */
const formCheckBox = (checked: boolean) =>
  `<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:checkBox><w:default w:val="${checked ? 1 : 0}"/></w:checkBox></w:ffData></w:fldChar></w:r>` +
  '<w:r><w:instrText> FORMCHECKBOX </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>';

describe('check boxes', () => {
  it('are ☒ when ticked and ☐ when not, in the text and in table cells', async () => {
    const cell = (inner: string) => `<w:tc><w:p>${inner}</w:p></w:tc>`;
    const body =
      `<w:p>${checkBox(true)}${run(' I agree to the terms')}</w:p>` +
      `<w:p>${checkBox(false)}${run(' Send me the newsletter')}</w:p>` +
      `<w:p>${formCheckBox(true)}${run(' Paid by card')}</w:p>` +
      '<w:tbl><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>' +
      `<w:tr>${cell(run('Task'))}${cell(run('Done'))}</w:tr><w:tr>${cell(run('Order pens'))}${cell(formCheckBox(false))}</w:tr></w:tbl>` +
      paragraph('End.');
    const markdown = markdownOf(await convertDocx(input(makeDocx({ body }), {}, 'form.docx')));
    expect(markdown).toBe('☒ I agree to the terms\n\n☐ Send me the newsletter\n\n☒ Paid by card\n\n| Task | Done |\n| --- | --- |\n| Order pens | ☐ |\n\nEnd.');
  });
});
