/**
 * The ODT converter on the test corpus (odt/) and on packages built here: headings, formatting, lists, tables
 * with spans, notes, frames, pages, headers and footers, metadata, and each refusal with its reason.
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/engine/engine-error.js';
import { NO_TEXT_WARNING } from '../../../src/engine/html/convert-html.js';
import { convertOdt } from '../../../src/engine/odt/convert-odt.js';
import { ZIP_LIMITS } from '../../../src/engine/bytes/zip.js';
import { blocksOf, corpusBytes, corpusText, headingsOf, input, markdownOf, tablesOf } from '../html/helpers.js';
import { h, makeFlatOdt, makeOdt, p, textStyle } from './make-odt.js';
import { cutInside } from '../../helpers/cut-zip.js';

const convert = (bytes: Uint8Array, overrides = {}) => convertOdt(input(bytes, overrides, 'document.odt'));

async function refusal(bytes: Uint8Array): Promise<EngineError> {
  const error = await convert(bytes).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Share of the reference's words (with multiplicity) found in the output. */
function wordRecall(output: string, reference: string): number {
  const available = new Map<string, number>();
  for (const word of words(output)) available.set(word, (available.get(word) ?? 0) + 1);
  const expected = words(reference.replace(/<!-- image -->/g, ''));
  let found = 0;
  for (const word of expected) {
    const count = available.get(word) ?? 0;
    if (count > 0) {
      found += 1;
      available.set(word, count - 1);
    }
  }
  return found / expected.length;
}

describe('odt corpus', () => {
  it('text_document_03.odt: every word and heading of the reference, rich cells as GFM tables, two pages', async () => {
    const model = await convertOdt(input('odt/text_document_03.odt'));
    const markdown = markdownOf(model);
    const expected = corpusText('odt/text_document_03.expected.md');
    expect(wordRecall(markdown, expected)).toBeGreaterThanOrEqual(0.99);
    expect(headingsOf(markdown)).toEqual(headingsOf(expected));
    const tables = tablesOf(model);
    expect(tables[0]?.[0]).toEqual(['Column A', 'Column B']);
    expect(tables[0]?.[1]?.[0]).toBe('This is a list:<br>- A First<br>- A Second<br>- A Third');
    expect(tables[0]?.[2]?.[1]).toContain('with **bold**, ~~strikethrough~~ and *italic* formatting');
    expect(markdown).toContain('![Owner avatar](<Base64-Image-Removed>)');
    // LibreOffice saved a soft page break before "Lists with same numId in different cells".
    expect(model.pages).toHaveLength(2);
    expect(headingsOf(markdownOf({ ...model, pages: [model.pages[1]!] }))[0]).toBe('Lists with same numId in different cells');
    expect(blocksOf(model).every((block) => block.source === 'odt')).toBe(true);
    expect(model.metadata).toMatchObject({ author: 'Cesar Berrospi Ramis', language: 'en-US' });
  });

  it('fake.odt: the paragraph and the 4×4 table; the footer page number is furniture', async () => {
    const model = await convertOdt(input('odt/fake.odt'));
    expect(markdownOf(model).startsWith('Lorem ipsum dolor sit amet.')).toBe(true);
    expect(tablesOf(model)).toEqual([
      [
        ['Header row', 'Mon', 'Wed', 'Fri'],
        ['Color', 'Blue', 'Red', 'Green'],
        ['Time', '1pm', '2pm', '3pm'],
        ['Leader', 'Sarah', 'Mark', 'Ryan'],
      ],
    ]);
    const furniture = blocksOf(model).filter((block) => block.furniture);
    expect(furniture.map((block) => [block.type, block.markdown])).toEqual([['page_number', '1']]);
    expect(markdownOf(model)).not.toMatch(/^1$/m);
  });
});

describe('odt structure', () => {
  it('headings by outline level (deeper than 6 stays 6); the first level 1 is the title', async () => {
    const body = [h('Report', 1), h('Scope', 2), h('Detail', 3), h('Deep', 7), p('Text.'), h('Second top', 1)].join('');
    const model = await convert(makeOdt({ body }));
    expect(markdownOf(model)).toBe('# Report\n\n## Scope\n\n### Detail\n\n###### Deep\n\nText.\n\n# Second top');
    expect(blocksOf(model).map((block) => block.type)).toEqual(['title', 'section_header', 'section_header', 'section_header', 'text', 'section_header']);
  });

  it('bold, italic and strike-through from automatic styles; a bold paragraph style; Title, Subtitle and Quotations styles', async () => {
    const automaticStyles =
      textStyle('T1', 'fo:font-weight="bold"') +
      textStyle('T2', 'fo:font-style="italic"') +
      textStyle('T3', 'style:text-line-through-style="solid"') +
      '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Standard"><style:text-properties fo:font-weight="700"/></style:style>';
    const styles =
      '<style:style style:name="Title" style:family="paragraph"/><style:style style:name="Subtitle" style:family="paragraph"/>' +
      '<style:style style:name="Quotations" style:family="paragraph"/>' +
      '<style:style style:name="Heading" style:family="paragraph"><style:text-properties fo:font-weight="bold"/></style:style>' +
      '<style:style style:name="Strong_20_Emphasis" style:display-name="Strong Emphasis" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>';
    const body =
      p('The Book', 'Title') +
      p('A subtitle', 'Subtitle') +
      p('Plain <text:span text:style-name="T1">bold</text:span>, <text:span text:style-name="T2">italic</text:span> and <text:span text:style-name="T3">gone</text:span>.') +
      p('All of it bold', 'P1') +
      p('Styled <text:span text:style-name="Strong_20_Emphasis">strongly</text:span>', 'Heading') +
      p('To be or not to be', 'Quotations');
    const markdown = markdownOf(await convert(makeOdt({ body, automaticStyles, styles })));
    expect(markdown).toBe(
      '# The Book\n\n## A subtitle\n\nPlain **bold**, *italic* and ~~gone~~.\n\n**All of it bold**\n\nStyled **strongly**\n\n> To be or not to be',
    );
  });

  it("reads a paragraph in a built-in Heading N style that lost its outline level (LibreOffice's import of a web page's <h1>) as a heading of that level", async () => {
    const styles =
      '<style:style style:name="Heading" style:family="paragraph"/>' +
      '<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:parent-style-name="Heading"/>' +
      '<style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph" style:parent-style-name="Heading" style:default-outline-level="2"/>';
    const automaticStyles = '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Heading_20_1" style:master-page-name="HTML"/>';
    const body = p('Annual Report', 'P1') + p('Intro.') + h('Sources', 2) + p('Styled heading only', 'Heading');
    expect(markdownOf(await convert(makeOdt({ body, automaticStyles, styles })))).toBe('# Annual Report\n\nIntro.\n\n## Sources\n\nStyled heading only');
  });

  it('keeps the outline of a document that uses no heading: short lines set in bold or a larger type read as headings, levels by type', async () => {
    const sentence = 'Sales rose by ten percent over the period, led by the northern region.';
    const automaticStyles =
      '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Standard"><style:text-properties fo:font-size="20pt" fo:font-weight="bold"/></style:style>' +
      '<style:style style:name="P2" style:family="paragraph" style:parent-style-name="Standard"><style:text-properties fo:font-size="14pt"/></style:style>' +
      textStyle('T1', 'fo:font-weight="bold"');
    const styles = '<style:default-style style:family="paragraph"><style:text-properties fo:font-size="11pt"/></style:default-style><style:style style:name="Standard" style:family="paragraph"/>';
    const body =
      p('Quarterly Report', 'P1') +
      p('Introduction', 'P2') +
      p(sentence) +
      p('<text:span text:style-name="T1">Regional detail</text:span>') +
      p(sentence) +
      p('<text:span text:style-name="T1">Note:</text:span> the figures are provisional until the audit.');
    expect(markdownOf(await convert(makeOdt({ body, automaticStyles, styles })))).toBe(
      `# Quarterly Report\n\n## Introduction\n\n${sentence}\n\n### Regional detail\n\n${sentence}\n\n**Note:** the figures are provisional until the audit.`,
    );
  });

  it('puts sections made by hand in bold under a paragraph in the Title style', async () => {
    const sentence = 'Sales rose by ten percent over the period, led by the northern region.';
    const styles = '<style:style style:name="Title" style:family="paragraph"/><style:style style:name="Standard" style:family="paragraph"/>';
    const body = p('Annual Report', 'Title') + p('<text:span text:style-name="T1">Overview</text:span>') + p(sentence) + p('<text:span text:style-name="T1">Outlook</text:span>') + p(sentence);
    expect(markdownOf(await convert(makeOdt({ body, automaticStyles: textStyle('T1', 'fo:font-weight="bold"'), styles })))).toBe(
      `# Annual Report\n\n## Overview\n\n${sentence}\n\n## Outlook\n\n${sentence}`,
    );
  });

  it('raised and lowered digits read as superscripts and subscripts (x², H₂O); a style set back on the line wins', async () => {
    const automaticStyles =
      textStyle('T1', 'style:text-position="super 58%"') +
      textStyle('T2', 'style:text-position="-33% 58%"') +
      textStyle('T3', 'style:text-position="33% 58%"') +
      '<style:style style:name="T4" style:family="text" style:parent-style-name="Raised"><style:text-properties style:text-position="0% 100%"/></style:style>';
    const styles = textStyle('Raised', 'style:text-position="super 58%"');
    const span = (style: string, text: string) => `<text:span text:style-name="${style}">${text}</text:span>`;
    const body = p(`E = mc${span('T1', '2')}, water is H${span('T2', '2')}O, the 2${span('T3', 'nd')} try, room 10${span('T4', '4')}.`);
    expect(markdownOf(await convert(makeOdt({ body, automaticStyles, styles })))).toBe('E = mc², water is H₂O, the 2nd try, room 104.');
  });

  it('formula and chart objects read as LaTeX and as a caption and a table, in place of their picture; other objects keep their picture', async () => {
    const formula =
      '<?xml version="1.0" encoding="UTF-8"?><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow>' +
      '<mi>x</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>b</mi><mo>±</mo><msqrt><mrow><msup><mi>b</mi><mn>2</mn></msup><mo>−</mo><mn>4</mn><mi>a</mi><mi>c</mi></mrow></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac>' +
      '</mrow><annotation encoding="StarMath 5.0">x = {-b +- sqrt{b^2 - 4ac}} over {2a}</annotation></semantics></math>';
    // A bar chart as LibreOffice embeds one (the corpus deck's), its data table kept in the object.
    const chart = unzipSync(corpusBytes('odp/odf_presentation_02.odp'))['Object 1/content.xml'] as Uint8Array;
    const frame = (object: string, alt: string) =>
      `<draw:frame draw:name="${object}" text:anchor-type="as-char" svg:width="3cm" svg:height="1cm"><draw:object xlink:href="./${object}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/>` +
      `<draw:image xlink:href="./ObjectReplacements/${object}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/><svg:title>${alt}</svg:title></draw:frame>`;
    const body = p(`The roots are ${frame('Object 1', 'formula')} for any a.`) + p(`Results: ${frame('Object 2', 'Results chart')}`) + p(`A sketch: ${frame('Object 3', 'Sketch')}`);
    const picture = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const extra = {
      'Object 1/content.xml': strToU8(formula),
      'ObjectReplacements/Object 1': picture,
      'Object 2/content.xml': chart,
      'ObjectReplacements/Object 2': picture,
      'Object 3/content.xml': strToU8('<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"><office:body><office:drawing/></office:body></office:document-content>'),
      'ObjectReplacements/Object 3': picture,
    };
    expect(markdownOf(await convert(makeOdt({ body, extra })))).toBe(
      'The roots are $x=\\frac{-b\\pm \\sqrt{b^{2}-4ac}}{2a}$ for any a.\n\nResults:\n\n*Chart*\n\n' +
        '|  | Column 1 | Column 2 | Column 3 |\n| --- | --- | --- | --- |\n| Row 1 | 9.1 | 3.2 | 4.54 |\n| Row 2 | 2.4 | 8.8 | 9.65 |\n| Row 3 | 3.1 | 1.5 | 3.7 |\n| Row 4 | 4.3 | 9.02 | 6.2 |\n\n' +
        'A sketch: ![Sketch](<Base64-Image-Removed>)',
    );
  });

  it('nested bullet lists and numbered lists from the list style, with start values and continued numbering', async () => {
    const automaticStyles =
      '<text:list-style style:name="L1"><text:list-level-style-bullet text:level="1" text:bullet-char="•"/>' +
      '<text:list-level-style-number text:level="2" style:num-format="1"/></text:list-style>' +
      '<text:list-style style:name="L2"><text:list-level-style-number text:level="1" style:num-format="1" text:start-value="3"/></text:list-style>';
    const item = (content: string) => `<text:list-item>${content}</text:list-item>`;
    const body =
      `<text:list text:style-name="L1">${item(p('Fruit') + `<text:list>${item(p('Apple'))}${item(p('Pear'))}</text:list>`)}${item(p('Vegetables'))}</text:list>` +
      `<text:list text:style-name="L2" xml:id="list1">${item(p('Third'))}<text:list-header>${p('(unnumbered)')}</text:list-header>${item(p('Fourth'))}</text:list>` +
      p('An interruption.') +
      `<text:list text:style-name="L2" text:continue-list="list1">${item(p('Fifth'))}</text:list>`;
    const model = await convert(makeOdt({ body, automaticStyles }));
    expect(markdownOf(model)).toBe('- Fruit\n  1. Apple\n  2. Pear\n- Vegetables\n\n3. Third  \n   (unnumbered)\n4. Fourth\n\nAn interruption.\n\n5. Fifth');
    expect(blocksOf(model).filter((block) => block.label === 'list')).toHaveLength(3);
  });

  it('headings inside numbered lists, at any level (converted numbered headings), leave the list', async () => {
    const automaticStyles = '<text:list-style style:name="L1"><text:list-level-style-number text:level="1" style:num-format="1"/></text:list-style>';
    const body =
      `<text:list text:style-name="L1"><text:list-item>${h('Introduction', 1)}</text:list-item><text:list-item>${p('A point')}</text:list-item></text:list>` +
      `<text:list text:style-name="L1"><text:list-item><text:list><text:list-item>${h('Background', 2)}` +
      `<text:list><text:list-item>${p('a detail')}</text:list-item></text:list></text:list-item></text:list></text:list-item></text:list>`;
    const model = await convert(makeOdt({ body, automaticStyles }));
    expect(markdownOf(model)).toBe('# Introduction\n\n2. A point\n\n## Background\n\n- a detail');
    expect(blocksOf(model).map((block) => block.type)).toEqual(['title', 'text', 'section_header', 'text']);
  });

  it('spanned and covered cells repeat the merged text like the DOCX converter; header rows; repeated cells', async () => {
    const cell = (text: string, attributes = '') => `<table:table-cell${attributes}>${p(text)}</table:table-cell>`;
    const covered = '<table:covered-table-cell/>';
    const body =
      '<table:table table:name="T1"><table:table-column table:number-columns-repeated="3"/>' +
      `<table:table-header-rows><table:table-row>${cell('Name')}${cell('Q1 and Q2', ' table:number-columns-spanned="2"')}${covered}</table:table-row></table:table-header-rows>` +
      `<table:table-row>${cell('North', ' table:number-rows-spanned="2"')}${cell('1')}${cell('2')}</table:table-row>` +
      `<table:table-row>${covered}${cell('3')}${cell('4')}</table:table-row>` +
      `<table:table-row>${cell('Same', ' table:number-columns-repeated="3"')}</table:table-row>` +
      `<table:table-row table:number-rows-repeated="5">${cell('', ' table:number-columns-repeated="3"')}</table:table-row>` +
      '</table:table>';
    const model = await convert(makeOdt({ body }));
    expect(tablesOf(model)).toEqual([
      [
        ['Name', 'Q1 and Q2', 'Q1 and Q2'],
        ['North', '1', '2'],
        ['North', '3', '4'],
        ['Same', 'Same', 'Same'],
      ],
    ]);
  });

  it('a table with a table in a cell stays a table, the nested one flattened into its cell', async () => {
    const cell = (content: string) => `<table:table-cell>${content}</table:table-cell>`;
    const nested = `<table:table table:name="T2"><table:table-column table:number-columns-repeated="2"/><table:table-row>${cell(p('A'))}${cell(p('B'))}</table:table-row><table:table-row>${cell(p('1'))}${cell(p('2'))}</table:table-row></table:table>`;
    const body =
      '<table:table table:name="T1"><table:table-column table:number-columns-repeated="2"/>' +
      `<table:table-row>${cell(p('Field'))}${cell(p('Value'))}</table:table-row>` +
      `<table:table-row>${cell(p('Totals'))}${cell(p('Sums') + nested)}</table:table-row></table:table>`;
    const model = await convert(makeOdt({ body }));
    expect(tablesOf(model)).toEqual([
      [
        ['Field', 'Value'],
        ['Totals', 'Sums<br>A \\| B<br>1 \\| 2'],
      ],
    ]);
  });

  it('footnotes and endnotes: markers in the text, the note bodies in footnote blocks at the end', async () => {
    const note = (id: number, kind: string, text: string) =>
      `<text:note text:id="ftn${id}" text:note-class="${kind}"><text:note-citation>${id}</text:note-citation><text:note-body>${p(text)}</text:note-body></text:note>`;
    const body = p(`A claim${note(1, 'footnote', 'The source.')} and another${note(2, 'endnote', 'Said at the end.')}.`) + p('More text.');
    const model = await convert(makeOdt({ body }));
    expect(markdownOf(model)).toBe('A claim[^1] and another[^e1].\n\nMore text.\n\n[^1]: The source.\n\n[^e1]: Said at the end.');
    expect(blocksOf(model).filter((block) => block.label === 'footnote')).toHaveLength(2);
  });

  it('frames: a text box in reading order after its paragraph; image alt text from svg:title and svg:desc', async () => {
    const body =
      p(
        'Before the box.' +
          '<draw:frame draw:name="Box" text:anchor-type="paragraph"><draw:text-box>' +
          p('Inside the box.') +
          '</draw:text-box></draw:frame>',
      ) +
      p(
        '<draw:frame draw:name="Picture"><draw:image xlink:href="Pictures/chart.png"/><svg:title>Sales chart</svg:title><svg:desc>Bars by quarter</svg:desc></draw:frame>',
      ) +
      p('<draw:frame><draw:image xlink:href="Pictures/logo.png"/><svg:desc>Company logo</svg:desc></draw:frame>') +
      p('After.');
    const model = await convert(makeOdt({ body, extra: { 'Pictures/chart.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47]) } }));
    expect(markdownOf(model)).toBe(
      'Before the box.\n\nInside the box.\n\n![Sales chart](<Base64-Image-Removed> "Bars by quarter")\n\n![Company logo](<Base64-Image-Removed>)\n\nAfter.',
    );
    expect(blocksOf(model).filter((block) => block.type === 'figure')).toHaveLength(2);

    const kept = await convert(makeOdt({ body, extra: { 'Pictures/chart.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47]) } }), { removeBase64Images: false });
    expect(markdownOf(kept)).toContain('![Sales chart](data:image/png;base64,iVBORw== "Bars by quarter")');
  });

  it('soft page breaks and page-break styles start new pages; a block stays on the page where it starts', async () => {
    const automaticStyles =
      '<style:style style:name="Break" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style>';
    const body =
      p('Page one.') +
      p('<text:soft-page-break/>Page two.') +
      '<text:soft-page-break/>' +
      p('Page three.') +
      p('Page four, forced.', 'Break');
    const model = await convert(makeOdt({ body, automaticStyles }));
    expect(model.pages.map((page) => [page.pageNumber, markdownOf({ ...model, pages: [page] })])).toEqual([
      [1, 'Page one.'],
      [2, 'Page two.'],
      [3, 'Page three.'],
      [4, 'Page four, forced.'],
    ]);
    const single = await convert(makeOdt({ body: p('One.') + p('Two.') }));
    expect(single.pages).toHaveLength(1);
  });

  it('a table running over pages stays on its first page; a forced break and a soft one at the same place count once', async () => {
    const automaticStyles =
      '<style:style style:name="Landscape" style:family="paragraph" style:master-page-name="Landscape"/>';
    const row = (text: string) => `<table:table-row><table:table-cell>${p(text)}</table:table-cell><table:table-cell>${p('x')}</table:table-cell></table:table-row>`;
    const body =
      p('Intro.') +
      `<table:table>${row('Row 1')}<text:soft-page-break/>${row('Row 2')}<text:soft-page-break/>${row('Row 3')}</table:table>` +
      p('<text:soft-page-break/>After the table.') +
      `<text:p text:style-name="Landscape"><text:soft-page-break/>Landscape page.</text:p>`;
    const model = await convert(makeOdt({ body, automaticStyles }));
    const pages = model.pages.map((page) => markdownOf({ ...model, pages: [page] }));
    expect(pages).toHaveLength(5);
    expect(pages[0]).toMatch(/^Intro\.\n\n\| Row 1 \| x \|[\s\S]*Row 3/);
    expect(pages.slice(1)).toEqual(['', '', 'After the table.', 'Landscape page.']);
  });

  it('preformatted paragraphs are one code block with their spacing; a monospace font is inline code; a table of contents gives its entries', async () => {
    const styles =
      '<style:style style:name="Preformatted_20_Text" style:display-name="Preformatted Text" style:family="paragraph"/>' +
      '<style:style style:name="C1" style:family="text"><style:text-properties style:font-name="Courier New"/></style:style>';
    const body =
      p('if (ready) {', 'Preformatted_20_Text') +
      p('<text:s text:c="2"/>go();', 'Preformatted_20_Text') +
      p('}', 'Preformatted_20_Text') +
      p('Call <text:span text:style-name="C1">go()</text:span> once.') +
      '<text:table-of-content><text:table-of-content-source><text:index-title-template>Contents</text:index-title-template></text:table-of-content-source>' +
      `<text:index-body><text:index-title>${p('Contents')}</text:index-title>${p('Introduction<text:tab/>1')}</text:index-body></text:table-of-content>`;
    const model = await convert(makeOdt({ body, styles }));
    expect(markdownOf(model)).toBe('```\nif (ready) {\n  go();\n}\n```\n\nCall `go()` once.\n\nContents\n\nIntroduction 1');
    expect(blocksOf(model)[0]?.label).toBe('code');
  });

  it('headers and footers of the used master page are furniture on every page; unused ones are left out', async () => {
    const masterStyles =
      '<style:master-page style:name="Standard"><style:header>' +
      p('Quarterly report') +
      '</style:header><style:footer>' +
      p('Page <text:page-number>1</text:page-number>') +
      '</style:footer></style:master-page>' +
      `<style:master-page style:name="Landscape"><style:header>${p('Never used')}</style:header></style:master-page>`;
    const model = await convert(makeOdt({ body: p('First.') + p('<text:soft-page-break/>Second.'), masterStyles }));
    expect(model.pages).toHaveLength(2);
    for (const page of model.pages) {
      expect(page.blocks.map((block) => [block.type, block.markdown, block.furniture ?? false])).toEqual([
        ['page_header', 'Quarterly report', true],
        ['text', page.pageNumber === 1 ? 'First.' : 'Second.', false],
        ['page_number', 'Page 1', true],
      ]);
    }
    expect(markdownOf(model)).toBe('First.\n\nSecond.');
  });

  it('metadata from meta.xml: title, author (initial creator), last modifier, language, description, keywords', async () => {
    const meta =
      '<dc:title>Annual plan</dc:title><meta:initial-creator>Ada Author</meta:initial-creator><dc:creator>Eddie Editor</dc:creator>' +
      '<dc:language>fr-FR</dc:language><dc:description>What we will do</dc:description><meta:keyword>plan</meta:keyword><meta:keyword>2026</meta:keyword>';
    const model = await convert(makeOdt({ body: p('Text.'), meta }));
    expect(model.metadata).toMatchObject({
      title: 'Annual plan',
      author: 'Ada Author',
      lastModifiedBy: 'Eddie Editor',
      language: 'fr-FR',
      description: 'What we will do',
      keywords: 'plan, 2026',
    });
  });

  it('a flat OpenDocument XML document named .odt is read too', async () => {
    const model = await convert(makeFlatOdt(h('Flat', 1) + p('Single &amp; XML &#233;t&#xE9;.'), '<dc:title>Flat file</dc:title>'));
    expect(markdownOf(model)).toBe('# Flat\n\nSingle & XML été.');
    expect(model.metadata['title']).toBe('Flat file');
  });

  it('an empty document is a result without blocks and a warning, as for DOCX', async () => {
    const model = await convert(makeOdt({ body: p('') + p('   ') }));
    expect(blocksOf(model)).toEqual([]);
    expect(model.warnings).toEqual([NO_TEXT_WARNING]);
  });
});

describe('odt refusals', () => {
  it('a password-protected document is ENCRYPTED_DOCUMENT', async () => {
    const contentEntry =
      '<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"><manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="y"/></manifest:encryption-data>';
    const error = await refusal(makeOdt({ body: p('Secret'), contentEntry }));
    expect(error.apiCode).toBe('ENCRYPTED_DOCUMENT');
    expect(error.message).toContain('password-protected');
  });

  it('a zip cut short, or bytes that are no document, are CORRUPT_DOCUMENT; text is UNSUPPORTED_FILE', async () => {
    const whole = makeOdt({ body: p('Text') });
    // Cut inside content.xml: what is whole before it is no document (a later cut is read: bytes/zip-repair.test.ts).
    const cut = await refusal(cutInside(whole, 'content.xml'));
    expect(cut.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(cut.message).toMatch(/damaged or truncated: it is an OpenDocument text document \(\.odt\) without its content \(content\.xml\), cut short before that part ended/);
    const garbage = await refusal(new Uint8Array([0, 1, 2, 3, 0, 0, 255, 7, 9, 9]));
    expect(garbage.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(garbage.message).toMatch(/not an OpenDocument text/);
    const text = await refusal(strToU8('this is plain text, not a document'));
    expect(text.apiCode).toBe('UNSUPPORTED_FILE');
    expect(text.message).toBe('the file is a text file (CSV or plain text), not an OpenDocument text document (.odt)');
  });

  it('a spreadsheet named .odt is UNSUPPORTED_FILE naming what it is', async () => {
    const error = await refusal(makeOdt({ body: p('x'), mimetype: 'application/vnd.oasis.opendocument.spreadsheet' }));
    expect(error.apiCode).toBe('UNSUPPORTED_FILE');
    expect(error.message).toContain('an OpenDocument spreadsheet');
  });

  it('malformed content.xml is CORRUPT_DOCUMENT; nesting beyond the bound is DOCUMENT_TOO_COMPLEX', async () => {
    const broken = zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.text'), 'content.xml': strToU8('<office:document-content><office:body>') });
    expect((await refusal(broken)).apiCode).toBe('CORRUPT_DOCUMENT');
    const deep = makeOdt({ body: `${'<text:section>'.repeat(400)}${p('deep')}${'</text:section>'.repeat(400)}` });
    const error = await refusal(deep);
    expect(error.apiCode).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error.message).toMatch(/nested deeper/);
  });

  it('a part declaring more than 64 MiB is DOCUMENT_TOO_COMPLEX before anything is inflated', async () => {
    const bytes = makeOdt({ body: p('Text') });
    // Rewrite the declared (uncompressed) size of content.xml in the central directory to 100 MiB.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const name = strToU8('content.xml');
    for (let at = 0; at + 46 < bytes.length; at += 1) {
      if (view.getUint32(at, true) !== 0x02014b50) continue;
      const length = view.getUint16(at + 28, true);
      if (length === name.length && name.every((byte, index) => bytes[at + 46 + index] === byte)) view.setUint32(at + 24, 100 * 1024 * 1024, true);
    }
    const error = await refusal(bytes);
    expect(error.apiCode).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error.message).toMatch(/content\.xml inflates to 100 MiB/);
  });

  it('a package with more parts than the bound is DOCUMENT_TOO_COMPLEX', async () => {
    const extra: Record<string, Uint8Array> = {};
    for (let index = 0; index < ZIP_LIMITS.entries; index += 1) extra[`Pictures/${index}.txt`] = new Uint8Array(0);
    const error = await refusal(makeOdt({ body: p('Text'), extra }));
    expect(error.apiCode).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error.message).toMatch(/more than 20,000 parts/);
  });
});
