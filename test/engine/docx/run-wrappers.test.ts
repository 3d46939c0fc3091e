/**
 * Words Word keeps inside run-level elements mammoth does not read (simple fields, direction wrappers, ruby,
 * carriage returns, positional tabs): each must reach the Markdown.
 */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { headerFooterText } from '../../../src/engine/docx/package.js';
import { exposeWrappedRuns } from '../../../src/engine/docx/run-wrappers.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx } from './make-docx.js';

const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const markdownFor = async (body: string) => markdownOf(await convertDocx(input(makeDocx({ body }), {}, 'fields.docx')));

describe('simple fields (w:fldSimple)', () => {
  it('show their cached result: a caption keeps its number', async () => {
    const body = `<w:p>${run('Figure ')}<w:fldSimple w:instr=" SEQ Figure \\* ARABIC "><w:r><w:t>3</w:t></w:r></w:fldSimple>${run(': Sales by region')}</w:p>`;
    expect(await markdownFor(body)).toBe('Figure 3: Sales by region');
  });

  it('a HYPERLINK field is a link; a field with no result shows nothing', async () => {
    const body =
      `<w:p>${run('See ')}<w:fldSimple w:instr=" HYPERLINK &quot;https://example.org/report&quot; "><w:r><w:t>the report</w:t></w:r></w:fldSimple>${run('.')}</w:p>` +
      `<w:p>${run('Page')}<w:fldSimple w:instr=" PAGE "/>${run(' end')}</w:p>`;
    expect(await markdownFor(body)).toBe('See [the report](https://example.org/report).\n\nPage end');
  });
});

describe('runs mammoth would drop with their wrapper', () => {
  it('keeps runs set in a direction (w:dir, w:bdo)', async () => {
    const body = `<w:p>${run('Shalom: ')}<w:dir w:val="rtl">${run('שלום')}</w:dir>${run(', code ')}<w:bdo w:val="ltr">${run('A-12')}</w:bdo></w:p>`;
    expect(await markdownFor(body)).toBe('Shalom: שלום, code A-12');
  });

  it('keeps the base text of ruby, not its reading', async () => {
    const body = `<w:p>${run('Kanji ')}<w:r><w:ruby><w:rubyPr/><w:rt><w:r><w:t>かん</w:t></w:r></w:rt><w:rubyBase><w:r><w:rPr><w:b/></w:rPr><w:t>漢</w:t></w:r></w:rubyBase></w:ruby></w:r>${run(' here')}</w:p>`;
    expect(await markdownFor(body)).toBe('Kanji 漢 here');
  });

  it('a carriage return inside a run breaks the line', async () => {
    expect(await markdownFor('<w:p><w:r><w:t>first line</w:t><w:cr/><w:t>second line</w:t></w:r></w:p>')).toMatch(/^first line\s*\n\s*second line$/);
  });

  it('a positional tab keeps the words on either side apart, in the body and in a header', async () => {
    const ptab = '<w:r><w:ptab w:relativeTo="margin" w:alignment="right" w:leader="none"/></w:r>';
    expect(await markdownFor(`<w:p>${run('Annual Report')}${ptab}${run('2024')}</w:p>`)).toBe('Annual Report 2024');
    const header = `<w:hdr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:p>${run('Acme Ltd')}${ptab}${run('Confidential')}</w:p></w:hdr>`;
    expect(headerFooterText(header)).toBe('Acme Ltd Confidential');
  });

  it('leaves a document without such elements untouched', () => {
    const xml = `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p>${run('plain')}</w:p></w:body></w:document>`;
    expect(exposeWrappedRuns(xml)).toEqual({ xml, count: 0 });
  });
});
