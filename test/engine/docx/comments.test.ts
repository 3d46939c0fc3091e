/** Word comments: anchors marked in the text, comments listed with their authors at the end. */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { blocksOf, input, markdownOf } from '../html/helpers.js';
import { makeDocx, paragraph } from './make-docx.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const COMMENTS_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments';

function commented(text: string, id: number): string {
  return (
    `<w:commentRangeStart w:id="${id}"/><w:r><w:t xml:space="preserve">${text}</w:t></w:r><w:commentRangeEnd w:id="${id}"/>` +
    `<w:r><w:commentReference w:id="${id}"/></w:r>`
  );
}

function comment(id: number, author: string, initials: string, text: string): string {
  return `<w:comment w:id="${id}" w:author="${author}" w:initials="${initials}" w:date="2024-05-01T10:00:00Z"><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:comment>`;
}

function documentWithComments(comments: string): Uint8Array {
  return makeDocx({
    body:
      paragraph('Introduction') +
      `<w:p><w:r><w:t xml:space="preserve">Revenue grew by </w:t></w:r>${commented('12 %', 7)}<w:r><w:t xml:space="preserve"> in 2023.</w:t></w:r></w:p>` +
      `<w:p>${commented('Costs fell.', 3)}</w:p>`,
    documentRels:
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rId9" Type="${COMMENTS_TYPE}" Target="comments.xml"/></Relationships>`,
    extra: { 'word/comments.xml': `<?xml version="1.0" encoding="UTF-8"?><w:comments xmlns:w="${W}">${comments}</w:comments>` },
  });
}

describe('DOCX comments', () => {
  it('marks each anchor as [comment N] and lists the comments with their authors at the end', async () => {
    const bytes = documentWithComments(
      comment(3, 'Bo Berg', 'BB', 'Which costs?') +
        comment(7, 'Ann O&apos;Neil', 'AO', 'Source: *annual* report &amp; notes') +
        comment(9, 'Cy', 'C', 'A comment nothing points at'),
    );
    const model = await convertDocx(input(bytes, {}, 'review.docx'));
    expect(markdownOf(model)).toBe(
      'Introduction\n\nRevenue grew by 12 %[comment 1] in 2023.\n\nCosts fell.[comment 2]\n\n' +
        '**Comments:**\n' +
        "- [comment 1] (Ann O'Neil): Source: \\*annual\\* report & notes\n" +
        '- [comment 2] (Bo Berg): Which costs?\n' +
        '- unanchored (Cy): A comment nothing points at',
    );
    expect(blocksOf(model).at(-1)).toMatchObject({ type: 'text', label: 'comments', source: 'docx' });
    // mammoth's own comment list (initials only) is gone.
    expect(markdownOf(model)).not.toMatch(/\[AO1\]|Comment \[/);
  });

  it('a document without a comments part is unchanged', async () => {
    const model = await convertDocx(input(makeDocx({ body: paragraph('Plain [comment] text') }), {}, 'plain.docx'));
    expect(markdownOf(model)).toBe('Plain [comment] text');
  });
});
