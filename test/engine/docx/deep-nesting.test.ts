/**
 * Elements nested thousands deep (tables in tables, content controls, tracked insertions, from a generator or a
 * crafted file) used to overflow mammoth's recursion and fail the whole document; below a generous depth they are
 * unwrapped and what they hold is read in order.
 */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { DEEP_NESTING_WARNING } from '../../../src/engine/docx/deep-nesting.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx, paragraph, table } from './make-docx.js';

/** `depth` tables, each a one-cell table holding its level's paragraph and the next table. */
function nestedTables(depth: number): string {
  let inner = paragraph(`level ${depth}`);
  for (let level = depth - 1; level >= 1; level -= 1) {
    inner = `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol/></w:tblGrid><w:tr><w:trPr><w:cantSplit/></w:trPr><w:tc><w:tcPr><w:tcW w:w="0" w:type="auto"/></w:tcPr>${paragraph(`level ${level}`)}${inner}</w:tc></w:tr></w:tbl>${paragraph('')}`;
  }
  return inner;
}

describe('tables nested in tables', () => {
  it('reads a document nesting 2,000 tables, every level’s text in order, and says what it unwrapped', async () => {
    const model = await convertDocx(input(makeDocx({ body: nestedTables(2000) }), {}, 'nested.docx'));
    const markdown = markdownOf(model);
    const levels = [...markdown.matchAll(/level (\d+)/g)].map((match) => Number(match[1]));
    expect(levels).toEqual(Array.from({ length: 2000 }, (_, index) => index + 1));
    expect(model.warnings).toContain(DEEP_NESTING_WARNING);
  });

  it('keeps a few levels of nesting as tables, with no warning', async () => {
    const body = `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid><w:tr><w:tc>${paragraph('Outer')}${table([['Inner A', 'Inner B'], ['1', '2']])}${paragraph('')}</w:tc><w:tc>${paragraph('Right')}</w:tc></w:tr></w:tbl>`;
    const model = await convertDocx(input(makeDocx({ body }), {}, 'nested.docx'));
    expect(model.warnings ?? []).not.toContain(DEEP_NESTING_WARNING);
    // The inner table is written inside its cell, as a table within a table always is.
    expect(markdownOf(model)).toBe('| Outer<br>Inner A \\| Inner B<br>1 \\| 2 | Right |\n| --- | --- |');
  });

  it('reads paragraphs inside 5,000 nested content controls, and runs inside 5,000 nested tracked insertions', async () => {
    const depth = 5000;
    const controls = `${'<w:sdt><w:sdtPr><w:alias w:val="x"/></w:sdtPr><w:sdtContent>'.repeat(depth)}${paragraph('inside the controls')}${'</w:sdtContent></w:sdt>'.repeat(depth)}`;
    const insertions = `<w:p><w:r><w:t xml:space="preserve">before </w:t></w:r>${'<w:ins w:id="1" w:author="A">'.repeat(depth)}<w:r><w:t>inserted</w:t></w:r>${'</w:ins>'.repeat(depth)}<w:r><w:t xml:space="preserve"> after</w:t></w:r></w:p>`;
    const model = await convertDocx(input(makeDocx({ body: controls + insertions }), {}, 'nested.docx'));
    expect(markdownOf(model)).toBe('inside the controls\n\nbefore inserted after');
    expect(model.warnings).toContain(DEEP_NESTING_WARNING);
  });
});
