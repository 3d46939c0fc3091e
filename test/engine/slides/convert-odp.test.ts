/**
 * The OpenDocument presentation converter on the corpus (odp/) and on decks built here: titles, reading order,
 * groups, tables, lists by list style, notes, annotations, furniture, hidden pages, pictures, errors.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../src/engine/engine.js';
import type { DocumentModel } from '../../../src/engine/model.js';
import { renderDocument } from '../../../src/engine/render.js';
import { convertOdp } from '../../../src/engine/slides/convert-odp.js';
import { blocksOf, corpusBytes, corpusText, headingsOf, input, markdownOf, options, tablesOf } from '../html/helpers.js';
import { makeOdp, type OdpDeck, odpFrame } from './make-deck.js';
import { wordRecall } from './word-recall.js';
import { cutInside } from '../../helpers/cut-zip.js';

const convertDeck = (deck: OdpDeck, overrides = {}) => convertOdp(input(makeOdp(deck), overrides, 'deck.odp'));
const pageMarkdown = (model: DocumentModel, pageNumber: number) =>
  (model.pages.find((page) => page.pageNumber === pageNumber)?.blocks ?? [])
    .filter((block) => !block.furniture)
    .map((block) => block.markdown)
    .join('\n\n');

const LIST_STYLES =
  '<text:list-style style:name="LB"><text:list-level-style-bullet text:level="1" text:bullet-char="•"/><text:list-level-style-bullet text:level="2" text:bullet-char="–"/></text:list-style>' +
  '<text:list-style style:name="LN"><text:list-level-style-number text:level="1" style:num-format="1" style:num-suffix="."/><text:list-level-style-number text:level="2" style:num-format="a" style:num-suffix=")"/></text:list-style>' +
  '<text:list-style style:name="L0"><text:list-level-style-number text:level="1" style:num-format=""/></text:list-style>' +
  '<style:style style:name="TB" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>' +
  '<style:style style:name="TI" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>';

const p = (text: string) => `<text:p>${text}</text:p>`;
const items = (style: string, ...entries: string[]) => `<text:list text:style-name="${style}">${entries.map((entry) => `<text:list-item>${entry}</text:list-item>`).join('')}</text:list>`;

describe('corpus: odp/odf_presentation_01.odp', () => {
  it('gives titles, the merged table, lists and notes per slide', async () => {
    const model = await convertOdp(input('odp/odf_presentation_01.odp'));
    expect(model.pages).toHaveLength(3);
    expect(model.metadata).toMatchObject({ numPages: 3, author: 'Cesar Berrospi Ramis', title: 'Test Table Slide' });
    const markdown = markdownOf(model);
    expect(headingsOf(markdown)).toEqual(['Test Table Slide', 'Second slide title']);
    expect(tablesOf(model)[0]?.[1]).toEqual(['', 'A merged with B', 'A merged with B', 'C', 'A', 'B', 'C']);
    // The subtitle sits inside the lower part of the table's frame (drawn taller than its rows): it comes after.
    expect(pageMarkdown(model, 1)).toMatch(/^# Test Table Slide\n\n\|[^]*\|\n\nWith footnote$/);
    // "Let’s introduce a list" has a numbering style with no number format: a plain paragraph.
    expect(pageMarkdown(model, 2)).toContain('Let’s introduce a list\n\n- With foo\n- Bar\n- And baz things');
    expect(pageMarkdown(model, 2)).toContain('**Notes:**\n\nSome notes on the second slide.');
    expect(pageMarkdown(model, 3)).toContain('1. List1\n2. List2\n3. List3');
    expect(wordRecall(corpusText('odp/odf_presentation_01.expected.md'), markdown)).toBeGreaterThan(0.95);
    expect(blocksOf(model).every((block) => block.source === 'odp')).toBe(true);
  });
});

describe('corpus: odp/odf_presentation_02.odp', () => {
  it('reads chart objects as tables, nested lists with levels, and titles placed where the master has them', async () => {
    const model = await convertOdp(input('odp/odf_presentation_02.odp'));
    const markdown = markdownOf(model);
    expect(headingsOf(markdown)).toEqual(['Text', 'Chart', 'Table', 'Photo', 'Complex list', 'Table with pictures']);
    expect(tablesOf(model)[0]).toEqual([
      ['', 'Column 1', 'Column 2', 'Column 3'],
      ['Row 1', '9.1', '3.2', '4.54'],
      ['Row 2', '2.4', '8.8', '9.65'],
      ['Row 3', '3.1', '1.5', '3.7'],
      ['Row 4', '4.3', '9.02', '6.2'],
    ]);
    expect(pageMarkdown(model, 5)).toContain('- List item 2\n  1. Nested list item a\n     1. Triple nested\n  2. Nested list item b\n- closing');
    expect(wordRecall(corpusText('odp/odf_presentation_02.expected.md'), markdown)).toBeGreaterThan(0.9);
  });
});

describe('slides', () => {
  it('read frames in reading order, groups included, with bboxes against the page layout', async () => {
    const model = await convertDeck({
      pages: [
        {
          content:
            odpFrame({ x: 2, y: 16, w: 20, h: 2 }, p('Bottom')) +
            `<draw:g>${odpFrame({ x: 15, y: 5.2, w: 10, h: 6 }, p('Right, grouped'))}</draw:g>` +
            odpFrame({ x: 1, y: 1, w: 26, h: 2 }, p('Heading'), 'title') +
            odpFrame({ x: 2, y: 5, w: 10, h: 6 }, p('Left')),
        },
      ],
    });
    expect(markdownOf(model)).toBe('# Heading\n\nLeft\n\nRight, grouped\n\nBottom');
    expect(model.pages[0]).toMatchObject({ width: 793.7, height: 595.28 });
    expect(blocksOf(model).find((block) => block.markdown === 'Left')?.bbox).toEqual([0.0714, 0.2381, 0.4286, 0.5238]);
  });

  it('read a group as one: cards set side by side each read heading then text', async () => {
    const card = (x: number, heading: string, text: string) =>
      `<draw:g>${odpFrame({ x, y: 5, w: 7, h: 1.5 }, p(heading))}${odpFrame({ x, y: 7, w: 7, h: 6 }, p(text))}</draw:g>`;
    const model = await convertDeck({
      pages: [{ content: odpFrame({ x: 1, y: 1, w: 26, h: 2 }, p('Plans'), 'title') + card(1, 'Basic', 'One user.') + card(10, 'Team', 'Ten users.') + card(19, 'Enterprise', 'Any number.') }],
    });
    expect(markdownOf(model)).toBe('# Plans\n\nBasic\n\nOne user.\n\nTeam\n\nTen users.\n\nEnterprise\n\nAny number.');
  });

  it('read raised and lowered digits as x² and H₂O; a raised word stays as written', async () => {
    const automaticStyles =
      '<style:style style:name="T1" style:family="text"><style:text-properties style:text-position="super 58%"/></style:style>' +
      '<style:style style:name="T2" style:family="text"><style:text-properties style:text-position="-33% 58%"/></style:style>';
    const span = (style: string, text: string) => `<text:span text:style-name="${style}">${text}</text:span>`;
    const model = await convertDeck({
      automaticStyles,
      pages: [{ content: odpFrame({ x: 1, y: 4, w: 26, h: 3 }, p(`Area: 20 m${span('T1', '2')} of H${span('T2', '2')}O, the 1${span('T1', 'st')} floor`)) }],
    });
    expect(markdownOf(model)).toBe('Area: 20 m² of H₂O, the 1st floor');
  });

  it('give lists by their list style: bullets, numbering with levels, and unnumbered paragraphs', async () => {
    const model = await convertDeck({
      automaticStyles: LIST_STYLES,
      pages: [
        {
          content: odpFrame(
            { x: 1, y: 1, w: 20, h: 10 },
            items('L0', p('Intro line')) +
              items('LB', p('Apples'), p('Pears') + items('LB', p('Green'))) +
              items('LN', p('First'), `<text:list>${'<text:list-item>' + p('Nested') + '</text:list-item>'}</text:list>`, p('Second')),
          ),
        },
      ],
    });
    expect(markdownOf(model)).toBe('Intro line\n\n- Apples\n- Pears\n  - Green\n1. First\n   1. Nested\n2. Second');
  });

  it('keep bold and italic spans and links', async () => {
    const model = await convertDeck({
      automaticStyles: LIST_STYLES,
      pages: [
        {
          content: odpFrame(
            { x: 1, y: 1, w: 20, h: 10 },
            '<text:p><text:span text:style-name="TB">Bold</text:span> and <text:span text:style-name="TI">italic</text:span>,<text:s text:c="2"/><text:a xlink:href="https://example.org/x">a link</text:a></text:p>',
          ),
        },
      ],
    });
    expect(markdownOf(model)).toBe('**Bold** and *italic*, [a link](https://example.org/x)');
  });

  it('give tables with merged cells repeated', async () => {
    const table =
      '<draw:frame svg:x="1cm" svg:y="1cm" svg:width="10cm" svg:height="5cm"><table:table>' +
      '<table:table-row><table:table-cell><text:p>Name</text:p></table:table-cell><table:table-cell table:number-columns-spanned="2"><text:p>Scores</text:p></table:table-cell><table:covered-table-cell/></table:table-row>' +
      '<table:table-row><table:table-cell><text:p>Ann</text:p></table:table-cell><table:table-cell><text:p>1</text:p></table:table-cell><table:table-cell><text:p>2</text:p></table:table-cell></table:table-row>' +
      '</table:table></draw:frame>';
    const model = await convertDeck({ pages: [{ content: table }] });
    expect(tablesOf(model)).toEqual([
      [
        ['Name', 'Scores', 'Scores'],
        ['Ann', '1', '2'],
      ],
    ]);
  });

  it('give pictures their title and description as a figure', async () => {
    const picture =
      '<draw:frame svg:x="1cm" svg:y="1cm" svg:width="10cm" svg:height="5cm"><draw:image xlink:href="Pictures/a.png"/>' +
      '<svg:title>Harbour</svg:title><svg:desc>Boats at dawn</svg:desc></draw:frame>';
    const model = await convertDeck({ pages: [{ content: picture }] });
    expect(blocksOf(model)[0]).toMatchObject({ type: 'figure', markdown: '*Image: Harbour — Boats at dawn*' });
  });
});

describe('notes, comments, furniture, hidden pages', () => {
  const deck: OdpDeck = {
    automaticStyles:
      '<style:style style:name="dpShow" style:family="drawing-page"><style:drawing-page-properties presentation:display-footer="true" presentation:display-page-number="true" presentation:display-date-time="false"/></style:style>' +
      '<style:style style:name="dpHidden" style:family="drawing-page"><style:drawing-page-properties presentation:visibility="hidden" presentation:display-footer="false" presentation:display-page-number="false"/></style:style>',
    declarations: '<presentation:footer-decl presentation:name="ftr1">Team ACME</presentation:footer-decl>',
    masterContent:
      odpFrame({ x: 1, y: 1, w: 26, h: 2 }, '', 'title') +
      odpFrame({ x: 1, y: 19, w: 10, h: 1 }, '<text:p><presentation:footer/></text:p>', 'footer') +
      odpFrame({ x: 20, y: 19, w: 5, h: 1 }, '<text:p><text:page-number>&lt;number&gt;</text:page-number></text:p>', 'page-number'),
    pages: [
      {
        attributes: 'draw:style-name="dpShow" presentation:use-footer-name="ftr1"',
        content:
          odpFrame({ x: 1, y: 1, w: 26, h: 2 }, p('Plan'), 'title') +
          odpFrame({ x: 1, y: 5, w: 26, h: 5 }, p('Ship it.')) +
          '<officeooo:annotation svg:x="1cm" svg:y="1cm"><dc:creator>Erin Editor</dc:creator><dc:date>2024-01-01T00:00:00</dc:date><text:p>Needs a date</text:p></officeooo:annotation>' +
          `<presentation:notes>${odpFrame({ x: 1, y: 1, w: 10, h: 10 }, p('Mention the budget.'), 'notes')}</presentation:notes>`,
      },
      {
        attributes: 'draw:style-name="dpHidden"',
        content: odpFrame({ x: 1, y: 1, w: 26, h: 2 }, p('Backup'), 'title') + odpFrame({ x: 1, y: 5, w: 26, h: 5 }, p('Extra data.')),
      },
    ],
    meta: '<dc:title>Roadmap</dc:title><meta:initial-creator>Fay Founder</meta:initial-creator><meta:keyword>plan</meta:keyword><meta:keyword>2025</meta:keyword>',
  };

  it('put notes and comments under their slide and master footers in furniture', async () => {
    const model = await convertDeck(deck);
    expect(pageMarkdown(model, 1)).toBe('# Plan\n\nShip it.\n\n**Notes:**\n\nMention the budget.\n\n**Comments:**\n\n- **Erin Editor:** Needs a date');
    const furniture = model.pages[0]?.blocks.filter((block) => block.furniture).map((block) => [block.type, block.markdown]);
    expect(furniture).toEqual([
      ['page_footer', 'Team ACME'],
      ['page_number', '1'],
    ]);
    // The hidden page shows neither footer nor number.
    expect(model.pages[1]?.blocks.filter((block) => block.furniture).map((block) => block.label)).toEqual(['hidden-slide']);
    expect(model.warnings?.join(' ')).toMatch(/slide 2 is hidden/);
    expect(model.metadata).toMatchObject({ title: 'Roadmap', author: 'Fay Founder', keywords: 'plan, 2025', numPages: 2 });
  });

  it('shows furniture with onlyMainContent false, and page markers through the engine', async () => {
    const withFurniture = renderDocument(await convertDeck(deck), options({ onlyMainContent: false }), { contentType: 'x' });
    expect(withFurniture.markdown).toContain('Ship it.\n\nTeam ACME\n\n1\n\n**Notes:**');
    const data = await parseDocument({ bytes: makeOdp(deck), fileName: 'deck.odp', options: options({ parsers: [{ type: 'pdf', pages: true, pageMarkers: true }] }) });
    expect(data.markdown).toContain('\n\n---\n\n<!-- page 2 -->\n\n## Backup\n\nExtra data.');
    expect(data.pages?.map((page) => page.pageNumber)).toEqual([1, 2]);
  });
});

describe('master-page text that shows on the slides', () => {
  const furnitureOf = (model: DocumentModel, pageNumber: number) =>
    (model.pages.find((page) => page.pageNumber === pageNumber)?.blocks ?? []).filter((block) => block.furniture).map((block) => [block.type, block.markdown]);
  const PROMPTS = /Click to edit/;
  // The master as LibreOffice writes one converted from PowerPoint: prompts in its title and outline placeholders.
  const master =
    odpFrame({ x: 1, y: 1, w: 26, h: 2 }, p('Click to edit the title text format'), 'title') +
    odpFrame({ x: 1, y: 4, w: 26, h: 12 }, p('Click to edit the outline text format'), 'outline') +
    `<draw:g>${odpFrame({ x: 1, y: 0.2, w: 12, h: 0.6 }, p('Quarterly Review 2025'))}</draw:g>` +
    odpFrame({ x: 1, y: 19, w: 10, h: 1 }, p('ACME Confidential'), 'footer') +
    odpFrame({ x: 12, y: 19, w: 5, h: 1 }, p('12 June 2026'), 'date-time') +
    odpFrame({ x: 20, y: 19, w: 5, h: 1 }, '<text:p><text:page-number>&lt;number&gt;</text:page-number></text:p>', 'page-number');

  it('a text box drawn on the master, and its footer and date on a page that states nothing, reach the slide as furniture', async () => {
    const deck: OdpDeck = {
      automaticStyles:
        '<style:style style:name="dpNumbered" style:family="drawing-page"><style:drawing-page-properties presentation:display-footer="false" presentation:display-page-number="true"/></style:style>' +
        '<style:style style:name="dpBare" style:family="drawing-page"><style:drawing-page-properties presentation:background-objects-visible="false" presentation:display-footer="false" presentation:display-date-time="false"/></style:style>',
      masterContent: master,
      pages: [
        // No drawing-page style: LibreOffice shows the master's footer and date, not the slide number.
        { content: odpFrame({ x: 2, y: 5, w: 20, h: 5 }, p('Revenue grew.')) },
        { attributes: 'draw:style-name="dpNumbered"', content: odpFrame({ x: 2, y: 5, w: 20, h: 5 }, p('Costs fell.')) },
        { attributes: 'draw:style-name="dpBare"', content: odpFrame({ x: 2, y: 5, w: 20, h: 5 }, p('Appendix')) },
      ],
    };
    const model = await convertDeck(deck);
    expect(furnitureOf(model, 1)).toEqual([
      ['page_header', 'Quarterly Review 2025'],
      ['page_footer', 'ACME Confidential'],
      ['page_footer', '12 June 2026'],
    ]);
    expect(furnitureOf(model, 2)).toEqual([
      ['page_header', 'Quarterly Review 2025'],
      ['page_footer', '12 June 2026'],
      ['page_number', '2'],
    ]);
    expect(furnitureOf(model, 3)).toEqual([]);
    expect(markdownOf(model)).toBe('Revenue grew.\n\nCosts fell.\n\nAppendix');
    const withFurniture = renderDocument(model, options({ onlyMainContent: false }), { contentType: 'x' });
    expect(withFurniture.markdown).toBe(
      'Revenue grew.\n\nQuarterly Review 2025\n\nACME Confidential\n\n12 June 2026\n\nCosts fell.\n\nQuarterly Review 2025\n\n12 June 2026\n\n2\n\nAppendix',
    );
    // The master's title and outline placeholders are prompts, drawn on no slide.
    expect(blocksOf(model).some((block) => PROMPTS.test(block.markdown))).toBe(false);
    expect(model.warnings).toBeUndefined();
  });

  it('a deck whose only text is on its master: the text is kept as furniture and the warning says so, not "no text"', async () => {
    const model = await convertDeck({ masterContent: master, pages: [{ content: '' }, { content: '' }] });
    expect(furnitureOf(model, 2)).toEqual([
      ['page_header', 'Quarterly Review 2025'],
      ['page_footer', 'ACME Confidential'],
      ['page_footer', '12 June 2026'],
    ]);
    expect(model.warnings).toEqual([expect.stringMatching(/^the presentation has no text of its own: its only text is what its masters show on the slides/)]);
    const data = await parseDocument({ bytes: makeOdp({ masterContent: master, pages: [{ content: '' }] }), fileName: 'deck.odp', options: options({ onlyMainContent: false }) });
    expect(data.markdown).toBe('Quarterly Review 2025\n\nACME Confidential\n\n12 June 2026');
    expect(data.markdown).not.toMatch(PROMPTS);
  });
});

describe('errors', () => {
  it('an encrypted package is ENCRYPTED_DOCUMENT', async () => {
    await expect(convertDeck({ pages: [{ content: '' }], encrypted: true })).rejects.toMatchObject({
      apiCode: 'ENCRYPTED_DOCUMENT',
      message: expect.stringMatching(/password-protected/),
    });
  });

  it('no pages is EMPTY_DOCUMENT', async () => {
    await expect(convertDeck({ pages: [] })).rejects.toMatchObject({ apiCode: 'EMPTY_DOCUMENT' });
  });

  it('another OpenDocument type or Office package is UNSUPPORTED_FILE', async () => {
    await expect(convertDeck({ pages: [{ content: '' }], mimetype: 'application/vnd.oasis.opendocument.text' })).rejects.toMatchObject({
      apiCode: 'UNSUPPORTED_FILE',
      message: expect.stringMatching(/OpenDocument text document/),
    });
    await expect(convertOdp(input(corpusBytes('pptx/powerpoint_sample.pptx'), {}, 'deck.odp'))).rejects.toMatchObject({ apiCode: 'UNSUPPORTED_FILE' });
  });

  it('not a zip, or a zip cut short, is CORRUPT_DOCUMENT; text is UNSUPPORTED_FILE', async () => {
    await expect(convertOdp(input(new Uint8Array([0, 1, 2, 3, 0, 0, 255, 7, 9, 9]), {}, 'x.odp'))).rejects.toMatchObject({ apiCode: 'CORRUPT_DOCUMENT' });
    await expect(convertOdp(input(strToU8('not a presentation at all'), {}, 'x.odp'))).rejects.toMatchObject({ apiCode: 'UNSUPPORTED_FILE' });
    const whole = corpusBytes('odp/odf_presentation_01.odp');
    // Cut inside content.xml: what is whole before it is no presentation (a later cut is read: bytes/zip-repair.test.ts).
    await expect(convertOdp(input(cutInside(whole, 'content.xml'), {}, 'cut.odp'))).rejects.toMatchObject({ apiCode: 'CORRUPT_DOCUMENT' });
    const noContent = zipSync({ mimetype: [strToU8('application/vnd.oasis.opendocument.presentation'), { level: 0 }], 'META-INF/manifest.xml': strToU8('<manifest/>') });
    await expect(convertOdp(input(noContent, {}, 'y.odp'))).rejects.toMatchObject({ apiCode: 'CORRUPT_DOCUMENT' });
  });
});
