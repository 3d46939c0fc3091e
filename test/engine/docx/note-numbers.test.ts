/** Footnotes and endnotes numbered 1, 2, 3 as Word shows them, whatever ids the package gives them. */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx } from './make-docx.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** Notes as LibreOffice writes them: the separators take ids 0 and 1, the first note 2. */
const notesPart = (kind: 'footnote' | 'endnote', notes: Record<number, string>) =>
  `<?xml version="1.0" encoding="UTF-8"?><w:${kind}s xmlns:w="${W}">` +
  `<w:${kind} w:id="0" w:type="separator"><w:p><w:r><w:separator/></w:r></w:p></w:${kind}>` +
  `<w:${kind} w:id="1" w:type="continuationSeparator"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:${kind}>` +
  Object.entries(notes)
    .map(([id, text]) => `<w:${kind} w:id="${id}"><w:p><w:r><w:${kind}Ref/></w:r><w:r><w:t xml:space="preserve"> ${text}</w:t></w:r></w:p></w:${kind}>`)
    .join('') +
  `</w:${kind}s>`;

const reference = (kind: 'footnote' | 'endnote', id: number) =>
  `<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:${kind}Reference w:id="${id}"/></w:r>`;
const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;

const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  `<Relationship Id="rId1" Type="${R}/footnotes" Target="footnotes.xml"/><Relationship Id="rId2" Type="${R}/endnotes" Target="endnotes.xml"/></Relationships>`;

describe('note numbers', () => {
  it('number footnotes and endnotes from 1 in the order their references come, not by their ids', async () => {
    const body =
      `<w:p>${run('Revenue grew')}${reference('footnote', 3)}${run(' and costs fell')}${reference('footnote', 2)}${run('.')}${reference('endnote', 2)}</w:p>`;
    const bytes = makeDocx({
      body,
      documentRels: RELS,
      extra: {
        'word/footnotes.xml': notesPart('footnote', { 2: 'Costs: unaudited.', 3: 'Revenue: audited.' }),
        'word/endnotes.xml': notesPart('endnote', { 2: 'Sources at the end.' }),
      },
    });
    expect(markdownOf(await convertDocx(input(bytes, {}, 'notes.docx')))).toBe(
      'Revenue grew[^1] and costs fell[^2].[^e1]\n\n[^1]: Revenue: audited.\n\n[^2]: Costs: unaudited.\n\n[^e1]: Sources at the end.',
    );
  });
});
