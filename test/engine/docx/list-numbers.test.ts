/** Numbers on numbered paragraphs as Word shows them: numbered headings, lists that go on or start elsewhere. */
import { describe, expect, it } from 'vitest';
import { convertDocx } from '../../../src/engine/docx/convert-docx.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeDocx, paragraph } from './make-docx.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const level = (index: number, format: string, text: string, start = 1) =>
  `<w:lvl w:ilvl="${index}"><w:start w:val="${start}"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${text}"/></w:lvl>`;

/**
 * Lists: 1 and 4 share a definition (4 restarts it), 2 numbers legal-style 1, 1.1, 1.1.1, 3 starts at 5, 5 numbers
 * headings through their styles, 6 numbers its second level through the whole list (`w:lvlRestart` 0).
 */
const NUMBERING =
  `<?xml version="1.0" encoding="UTF-8"?><w:numbering xmlns:w="${W}">` +
  `<w:abstractNum w:abstractNumId="0">${level(0, 'decimal', '%1.')}${level(1, 'lowerLetter', '%2)')}</w:abstractNum>` +
  `<w:abstractNum w:abstractNumId="1">${level(0, 'decimal', '%1.')}${level(1, 'decimal', '%1.%2')}${level(2, 'decimal', '%1.%2.%3')}</w:abstractNum>` +
  `<w:abstractNum w:abstractNumId="2">${level(0, 'decimal', '%1.', 5)}</w:abstractNum>` +
  `<w:abstractNum w:abstractNumId="3">${level(0, 'upperRoman', '%1.')}${level(1, 'decimal', '%1.%2')}</w:abstractNum>` +
  `<w:abstractNum w:abstractNumId="4">${level(0, 'upperRoman', 'Part %1')}` +
  '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlRestart w:val="0"/><w:lvlText w:val="Article %2"/></w:lvl></w:abstractNum>' +
  '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>' +
  '<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>' +
  '<w:num w:numId="3"><w:abstractNumId w:val="2"/></w:num>' +
  '<w:num w:numId="4"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>' +
  '<w:num w:numId="5"><w:abstractNumId w:val="3"/></w:num>' +
  '<w:num w:numId="6"><w:abstractNumId w:val="4"/></w:num>' +
  '</w:numbering>';

const headingStyle = (level: number, numbering = '') =>
  `<w:style w:type="paragraph" w:styleId="Heading${level}"><w:name w:val="heading ${level}"/><w:pPr>${numbering}</w:pPr></w:style>`;
const STYLES =
  `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}">` +
  headingStyle(1, '<w:numPr><w:numId w:val="5"/></w:numPr>') +
  headingStyle(2, '<w:numPr><w:ilvl w:val="1"/><w:numId w:val="5"/></w:numPr>') +
  headingStyle(3) +
  // Numbered through the style alone: the list's level does not name the style back.
  '<w:style w:type="paragraph" w:styleId="Step"><w:name w:val="Step"/><w:pPr><w:numPr><w:numId w:val="3"/></w:numPr></w:pPr></w:style>' +
  // A template's own heading style, based on a numbered heading style.
  '<w:style w:type="paragraph" w:styleId="AppendixTitle"><w:name w:val="Appendix Title"/><w:basedOn w:val="Heading1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="LastStep"><w:name w:val="Last Step"/><w:basedOn w:val="Step"/></w:style>' +
  '</w:styles>';

const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  `<Relationship Id="rId1" Type="${R}/numbering" Target="numbering.xml"/><Relationship Id="rId2" Type="${R}/styles" Target="styles.xml"/></Relationships>`;

const item = (text: string, numId: number, ilvl = 0, style?: string) =>
  `<w:p><w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ''}<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;

const markdownFor = async (body: string) =>
  markdownOf(await convertDocx(input(makeDocx({ body, documentRels: RELS, extra: { 'word/numbering.xml': NUMBERING, 'word/styles.xml': STYLES } }), {}, 'numbered.docx')));

describe('numbered lists', () => {
  it('go on with their numbers after a paragraph between their items', async () => {
    const markdown = await markdownFor(item('Unpack the box.', 1) + item('Check the parts.', 1) + paragraph('Note: keep the receipt.') + item('Assemble the frame.', 1));
    expect(markdown).toBe('1. Unpack the box.\n2. Check the parts.\n\nNote: keep the receipt.\n\n3. Assemble the frame.');
  });

  it('start where Word starts them: a start value, a list that restarts its numbering', async () => {
    const markdown = await markdownFor(item('Fifth', 3) + item('Sixth', 3) + paragraph('Between.') + item('One', 1) + item('Two', 1) + paragraph('Again.') + item('One again', 4));
    expect(markdown).toBe('5. Fifth\n6. Sixth\n\nBetween.\n\n1. One\n2. Two\n\nAgain.\n\n1. One again');
  });

  it('a deeper level that never restarts goes on counting under the next item above it', async () => {
    const markdown = await markdownFor(item('Chapter one', 6) + item('First rule', 6, 1) + item('Second rule', 6, 1) + item('Chapter two', 6) + item('Third rule', 6, 1));
    expect(markdown).toBe('1. Chapter one\n   1. First rule\n   2. Second rule\n2. Chapter two\n   3. Third rule');
  });

  it('numbered through their paragraph style (or the style it is based on) are numbered lists, a paragraph that turns its numbering off excepted', async () => {
    const markdown = await markdownFor(
      paragraph('Preheat the oven.', 'Step') +
        paragraph('Mix the flour.', 'Step') +
        paragraph('Tip: sift it first.') +
        paragraph('Knead.', 'Step') +
        '<w:p><w:pPr><w:pStyle w:val="Step"/><w:numPr><w:numId w:val="0"/></w:numPr></w:pPr><w:r><w:t>Unnumbered step text.</w:t></w:r></w:p>' +
        paragraph('Serve.', 'LastStep'),
    );
    expect(markdown).toBe('5. Preheat the oven.\n6. Mix the flour.\n\nTip: sift it first.\n\n7. Knead.\n\nUnnumbered step text.\n\n8. Serve.');
  });

  it('a deeper level restarts under each item above it', async () => {
    const markdown = await markdownFor(item('Scope', 2) + item('Purpose', 2, 1) + item('Audience', 2, 1) + item('Terms', 2) + item('Defined terms', 2, 1));
    expect(markdown).toBe('1. Scope\n   1. Purpose\n   2. Audience\n2. Terms\n   1. Defined terms');
  });
});

describe('numbered headings', () => {
  it('keep the number Word shows, through their style or their own numbering', async () => {
    const markdown = await markdownFor(
      paragraph('Introduction', 'Heading1') +
        paragraph('Text.') +
        paragraph('Background', 'Heading2') +
        paragraph('History', 'Heading2') +
        paragraph('Method', 'Heading1') +
        paragraph('Sampling', 'Heading2') +
        item('Limits', 2, 2, 'Heading3') +
        paragraph('Unnumbered', 'Heading3'),
    );
    expect(markdown).toBe('# I. Introduction\n\nText.\n\n## I.1 Background\n\n## I.2 History\n\n# II. Method\n\n## II.1 Sampling\n\n### 1.1.1 Limits\n\n### Unnumbered');
  });

  it('a level that never restarts (w:lvlRestart 0) counts on through the items above it', async () => {
    const markdown = await markdownFor(
      item('Definitions', 6, 0, 'Heading1') +
        item('Terms', 6, 1, 'Heading2') +
        item('Notices', 6, 1, 'Heading2') +
        item('Obligations', 6, 0, 'Heading1') +
        item('Payment', 6, 1, 'Heading2'),
    );
    expect(markdown).toBe('# Part I Definitions\n\n## Article 1 Terms\n\n## Article 2 Notices\n\n# Part II Obligations\n\n## Article 3 Payment');
  });

  it("a template's own heading style keeps the heading level and the number of the style it is based on", async () => {
    const markdown = await markdownFor(paragraph('Introduction', 'Heading1') + paragraph('Text.') + paragraph('Sources', 'AppendixTitle'));
    expect(markdown).toBe('# I. Introduction\n\nText.\n\n# II. Sources');
  });

  it('a number opening a heading is not escaped as if it began a list', async () => {
    expect(await markdownFor(item('Scope', 2, 0, 'Heading1'))).toBe('# 1. Scope');
  });
});
