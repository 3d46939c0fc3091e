/**
 * The PowerPoint converter on the corpus (pptx/, pptm/) and on decks built here: slide order, titles, reading
 * order, groups, tables, lists, notes, comments, furniture, hidden slides, page markers, bboxes, errors.
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../src/engine/engine.js';
import type { DocumentModel } from '../../../src/engine/model.js';
import { renderDocument } from '../../../src/engine/render.js';
import { convertPptx } from '../../../src/engine/slides/convert-pptx.js';
import { blocksOf, corpusBytes, corpusText, headingsOf, input, markdownOf, options, tablesOf } from '../html/helpers.js';
import {
  bullet,
  group,
  makePptx,
  numbered,
  para,
  picture,
  placeholder,
  type PptxDeck,
  SLIDE_HEIGHT,
  SLIDE_WIDTH,
  smartArt,
  tableFrame,
  textBox,
} from './make-deck.js';
import { wordRecall } from './word-recall.js';
import { cutInside } from '../../helpers/cut-zip.js';

const convert = (file: string, overrides = {}) => convertPptx(input(file, overrides));
const convertDeck = (deck: PptxDeck, overrides = {}) => convertPptx(input(makePptx(deck), overrides, 'deck.pptx'));
const pageMarkdown = (model: DocumentModel, pageNumber: number) =>
  (model.pages.find((page) => page.pageNumber === pageNumber)?.blocks ?? [])
    .filter((block) => !block.furniture)
    .map((block) => block.markdown)
    .join('\n\n');

const W = SLIDE_WIDTH;
const H = SLIDE_HEIGHT;

describe('corpus: pptx/powerpoint_sample.pptx', () => {
  it('gives one page per slide, titles as headings, the merged table, lists and notes', async () => {
    const model = await convert('pptx/powerpoint_sample.pptx');
    expect(model.pages.map((page) => page.pageNumber)).toEqual([1, 2, 3]);
    expect(model.metadata).toMatchObject({ numPages: 3, author: 'Maxim Lysak' });
    const markdown = markdownOf(model);
    expect(headingsOf(markdown)).toEqual(['Test Table Slide', 'Second slide title']);
    expect(markdown).toMatch(/^# Test Table Slide/);
    expect(markdown).toContain('## Second slide title');
    const [table] = tablesOf(model);
    expect(table?.[0]).toEqual(['', 'Class1', 'Class1', 'Class1', 'Class2', 'Class2', 'Class2']);
    expect(table?.[2]).toEqual(['R1', 'True', 'False', '', 'False', 'True', 'True']);
    // The body placeholder's bullets come from the master; its first paragraph says buNone.
    expect(pageMarkdown(model, 2)).toContain('Let’s introduce a list\n\n- With foo\n- Bar\n- And baz things');
    expect(pageMarkdown(model, 3)).toContain('1. List item4\n2. List item5\n3. List item6');
    expect(pageMarkdown(model, 2)).toContain('**Notes:**\n\nSome notes on the second slide.');
    expect(pageMarkdown(model, 3)).toContain('**Notes:**\n\nFinal notes on the third slide.\n\nSecond line of notes.');
    expect(wordRecall(corpusText('pptx/powerpoint_sample.expected.md'), markdown)).toBeGreaterThan(0.95);
    expect(blocksOf(model).every((block) => block.source === 'pptx')).toBe(true);
  });
});

describe('corpus: charts, macros and pictures', () => {
  it('reads a chart as its title and a table of its cached data (pptx/pptx_chart.pptx)', async () => {
    const model = await convert('pptx/pptx_chart.pptx');
    const markdown = markdownOf(model);
    expect(markdown).toContain('*Chart: Wild Duck Observations by Year*');
    expect(tablesOf(model)[0]).toEqual([
      ['', 'Freshwater Ducks', 'Saltwater Ducks'],
      ['2019', '120', '80'],
      ['2020', '130', '95'],
      ['2021', '150', '110'],
      ['2022', '175', '130'],
    ]);
    expect(headingsOf(markdown)).toEqual(['Quarterly Duck Survey', 'Quarterly revenue']);
    expect(wordRecall(corpusText('pptx/pptx_chart.expected.md'), markdown)).toBeGreaterThan(0.85);
  });

  it('converts macro-enabled decks, ignoring the macros (pptm/)', async () => {
    const simple = await convertPptx(input('pptm/SimpleMacro.pptm'));
    expect(markdownOf(simple)).toMatch(/^# This is a macro slideshow!!/);
    expect(simple.metadata).toMatchObject({ numPages: 1, author: 'Javen ONeal' });
    const attachments = await convertPptx(input('pptm/PPTWithAttachments.pptm'));
    // Pictures keep their alt text as a figure.
    expect(blocksOf(attachments).filter((block) => block.type === 'figure').map((block) => block.markdown)).toContain('*Image: Суҳбатда, восемнадцать, zeal*');
  });

  it('a date placeholder is furniture (pptx/fake-power-point-malformed.pptx)', async () => {
    const model = await convert('pptx/fake-power-point-malformed.pptx');
    expect(markdownOf(model)).toBe('# Test Slide');
    expect(blocksOf(model).find((block) => block.furniture)).toMatchObject({ type: 'page_footer', markdown: 'Problem Date Placeholder' });
  });
});

describe('slides', () => {
  it('follow sldIdLst, not the part names', async () => {
    const model = await convertDeck({
      slides: [{ shapes: placeholder('title', para('Written first')) }, { shapes: placeholder('title', para('Shown first')) }],
      order: [1, 0],
    });
    expect(headingsOf(markdownOf(model))).toEqual(['Shown first', 'Written first']);
    expect(model.pages[0]?.blocks[0]).toMatchObject({ type: 'title', markdown: '# Shown first', label: 'heading-1' });
    expect(model.pages[1]?.blocks[0]).toMatchObject({ type: 'section_header', markdown: '## Written first' });
  });

  it('read shapes top to bottom, and left to right along a row, whatever their order in the file', async () => {
    const model = await convertDeck({
      slides: [
        {
          shapes:
            textBox({ x: W / 10, y: (H * 7) / 10, w: W / 2, h: H / 10 }, para('Bottom line')) +
            textBox({ x: W / 2, y: H / 4 + H / 40, w: W / 3, h: H / 3 }, para('Right column')) +
            placeholder('title', para('The title'), { x: W / 10, y: H / 20, w: (W * 8) / 10, h: H / 8 }) +
            textBox({ x: W / 10, y: H / 4, w: W / 3, h: H / 4 }, para('Left column')),
        },
      ],
    });
    expect(markdownOf(model)).toBe('# The title\n\nLeft column\n\nRight column\n\nBottom line');
  });

  it('put a caption after the frame it sits under, even inside the frame\'s lower half', async () => {
    const model = await convertDeck({
      slides: [
        {
          shapes:
            textBox({ x: W / 20, y: (H * 7) / 10, w: W / 2, h: H / 20 }, para('Table 1: sales')) +
            tableFrame({ x: W / 10, y: H / 5, w: (W * 8) / 10, h: (H * 6) / 10 }, [['Year', 'Sales'], ['2024', '12']]),
        },
      ],
    });
    expect(markdownOf(model)).toBe('| Year | Sales |\n| --- | --- |\n| 2024 | 12 |\n\nTable 1: sales');
  });

  it('flatten groups, placing members through the group transform', async () => {
    // The member sits at the top of the group's child space, but the group is scaled into the lower half of the
    // slide: it must come after the text in the middle, and its bbox must be where it is drawn.
    const member = textBox({ x: 0, y: 0, w: 1000, h: 500 }, para('Inside the group'));
    const model = await convertDeck({
      slides: [
        {
          shapes:
            group({ x: W / 2, y: (H * 3) / 4, w: W / 4, h: H / 8 }, { x: 0, y: 0, w: 1000, h: 1000 }, group({ x: 0, y: 0, w: 1000, h: 1000 }, { x: 0, y: 0, w: 2000, h: 2000 }, member + textBox({ x: 0, y: 1500, w: 2000, h: 500 }, para('Second member')))) +
            textBox({ x: W / 10, y: H / 2, w: W / 2, h: H / 10 }, para('Middle text')),
        },
      ],
    });
    expect(markdownOf(model)).toBe('Middle text\n\nInside the group\n\nSecond member');
    const inside = blocksOf(model).find((block) => block.markdown === 'Inside the group');
    // Child space 2000 → 1000 → W/4 × H/8: the member (1000 × 500 at 0,0) covers the left half, top quarter.
    expect(inside?.bbox).toEqual([0.5, 0.75, 0.625, 0.7813]);
  });

  it('read a group as one: cards set side by side each read heading then text, not all headings then all texts', async () => {
    const card = (column: number, heading: string, text: string) =>
      group(
        { x: W / 20 + (column * W) / 3, y: H / 4, w: W / 4, h: H / 2 },
        { x: 0, y: 0, w: 1000, h: 2000 },
        textBox({ x: 0, y: 0, w: 1000, h: 300 }, para(heading)) + textBox({ x: 0, y: 400, w: 1000, h: 1200 }, para(text)),
      );
    const model = await convertDeck({
      slides: [
        {
          shapes:
            placeholder('title', para('Why us'), { x: W / 20, y: H / 20, w: (W * 9) / 10, h: H / 8 }) +
            card(0, 'Fast', 'Ships in a day.') +
            card(1, 'Secure', 'Encrypted at rest.') +
            card(2, 'Cheap', 'Half the price.') +
            textBox({ x: W / 20, y: (H * 8) / 10, w: (W * 9) / 10, h: H / 10 }, para('Ask for a demo.')),
        },
      ],
    });
    expect(markdownOf(model)).toBe('# Why us\n\nFast\n\nShips in a day.\n\nSecure\n\nEncrypted at rest.\n\nCheap\n\nHalf the price.\n\nAsk for a demo.');
  });

  it('read raised and lowered digits as x² and H₂O; a raised word stays as written', async () => {
    const run = (text: string, baseline?: number) => `<a:r><a:rPr lang="en-US"${baseline === undefined ? '' : ` baseline="${baseline}"`}/><a:t>${text}</a:t></a:r>`;
    const paragraphs = `<a:p>${run('E = mc')}${run('2', 30000)}${run(', CO')}${run('2', -25000)}${run(', the 1')}${run('st', 30000)}${run(' run')}</a:p>`;
    const model = await convertDeck({ slides: [{ shapes: textBox({ x: W / 10, y: H / 3, w: (W * 8) / 10, h: H / 5 }, paragraphs) }] });
    expect(markdownOf(model)).toBe('E = mc², CO₂, the 1st run');
  });

  it('normalise bboxes against the slide size and give the page size in points', async () => {
    const model = await convertDeck({ slides: [{ shapes: textBox({ x: W / 4, y: H / 2, w: W / 2, h: H / 4 }, para('Box')) }] });
    expect(model.pages[0]).toMatchObject({ width: 960, height: 540 });
    expect(blocksOf(model)[0]?.bbox).toEqual([0.25, 0.5, 0.75, 0.75]);
  });

  it('give tables as GFM tables, merged cells repeated', async () => {
    const model = await convertDeck({
      slides: [
        {
          shapes: tableFrame({ x: 0, y: 0, w: W / 2, h: H / 2 }, [
            ['Region', { text: 'Sales', attrs: 'gridSpan="2"' }, { text: '', attrs: 'hMerge="1"' }],
            [{ text: 'North', attrs: 'rowSpan="2"' }, '10', '20'],
            [{ text: '', attrs: 'vMerge="1"' }, '30', '4|0'],
          ]),
        },
      ],
    });
    expect(blocksOf(model)[0]?.type).toBe('table');
    expect(markdownOf(model)).toBe('| Region | Sales | Sales |\n| --- | --- | --- |\n| North | 10 | 20 |\n| North | 30 | 4\\|0 |');
  });

  it('give lists with their levels, numbering, and bullets inherited from the master for body placeholders', async () => {
    const model = await convertDeck({
      slides: [
        {
          shapes:
            placeholder('title', para('Agenda'), { x: 0, y: 0, w: W, h: H / 10 }) +
            // No bullet in the paragraphs: a body placeholder takes the master's bodyStyle (• at level 1, – at 2).
            placeholder(null, para('First point') + para('Detail', { attrs: 'lvl="1"' }) + para('Second point') + para('Plain line', { inner: '<a:buNone/>' }), { x: 0, y: H / 5, w: W / 2, h: H / 2 }, 1) +
            textBox({ x: W / 2 + 1, y: H / 5, w: W / 2 - 1, h: H / 2 }, numbered('One') + numbered('Sub a', 1) + numbered('Sub b', 1) + numbered('Two') + bullet('Loose', 0)),
        },
      ],
    });
    const markdown = markdownOf(model);
    expect(markdown).toContain('- First point\n  - Detail\n- Second point\n\nPlain line');
    expect(markdown).toContain('1. One\n   1. Sub a\n   2. Sub b\n2. Two\n- Loose');
    expect(blocksOf(model).filter((block) => block.label === 'list')).toHaveLength(2);
  });

  it('keep bold, italic and links', async () => {
    const rels = '<Relationship Id="rIdLink" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/a" TargetMode="External"/>';
    const paragraph =
      '<a:p><a:r><a:rPr b="1"/><a:t>Bold </a:t></a:r><a:r><a:rPr i="1"/><a:t>italic</a:t></a:r><a:r><a:rPr/><a:t> and </a:t></a:r>' +
      '<a:r><a:rPr><a:hlinkClick r:id="rIdLink"/></a:rPr><a:t>a link</a:t></a:r><a:r><a:rPr/><a:t> with *stars*</a:t></a:r></a:p>';
    const model = await convertDeck({ slides: [{ shapes: textBox({ x: 0, y: 0, w: W, h: H }, paragraph), rels }] });
    expect(markdownOf(model)).toBe('**Bold** *italic* and [a link](https://example.com/a) with \\*stars\\*');
  });

  it('give SmartArt text as a list nested like the diagram', async () => {
    const diagram = smartArt({ x: 0, y: H / 4, w: W, h: H / 2 }, [
      ['plan', 'root', 'Plan'],
      ['scope', 'plan', 'Scope'],
      ['budget', 'plan', 'Budget'],
      ['build', 'root', 'Build'],
    ]);
    const model = await convertDeck({
      slides: [{ shapes: placeholder('title', para('Process'), { x: 0, y: 0, w: W, h: H / 10 }) + diagram.frame, rels: diagram.rels }],
      extra: { 'ppt/diagrams/data1.xml': diagram.part },
    });
    expect(markdownOf(model)).toBe('# Process\n\n- Plan\n  - Scope\n  - Budget\n- Build');
  });

  it('give pictures their alt text as a figure', async () => {
    const model = await convertDeck({ slides: [{ shapes: picture({ x: 0, y: 0, w: W / 2, h: H / 2 }, 'A duck on a pond') + picture({ x: 0, y: H / 2, w: 10, h: 10 }, '') }] });
    const figures = blocksOf(model).filter((block) => block.type === 'figure');
    expect(figures.map((figure) => figure.markdown)).toEqual(['*Image: A duck on a pond*', '']);
    expect(markdownOf(model)).toBe('*Image: A duck on a pond*');
  });
});

describe('slides without a title placeholder', () => {
  const top = { x: W / 20, y: H / 20, w: (W * 9) / 10, h: H / 8 };
  const body = { x: W / 20, y: H / 4, w: W / 2, h: H / 2 };

  it("reads a slide's first line set large or bold, alone at its top, as its title, as a deck a program wrote sets it", async () => {
    const model = await convertDeck({
      slides: [
        { shapes: textBox(top, para('Quarterly Review', {}, 'sz="3600" b="1"')) + textBox(body, bullet('Revenue up 12%') + bullet('Costs flat')) },
        { shapes: textBox(top, para('Results by region', {}, 'b="1"')) + tableFrame({ x: W / 20, y: H / 3, w: W / 2, h: H / 3 }, [['Region', 'Sales'], ['North', '12']]) },
        { shapes: textBox(top, para('Not a title: a sentence.', {}, 'sz="3600"')) + textBox(body, para('Body text', {}, 'sz="1800"')) },
      ],
    });
    expect(pageMarkdown(model, 1)).toBe('# Quarterly Review\n\n- Revenue up 12%\n- Costs flat');
    expect(pageMarkdown(model, 2)).toMatch(/^## Results by region\n\n\| Region \| Sales \|/);
    expect(pageMarkdown(model, 3)).toBe('Not a title: a sentence.\n\nBody text');
  });

  it('leaves a first line in the same type as the rest of the slide as text', async () => {
    const model = await convertDeck({ slides: [{ shapes: textBox(top, para('First line', {}, 'sz="1800"')) + textBox(body, para('Second line', {}, 'sz="1800"')) }] });
    expect(pageMarkdown(model, 1)).toBe('First line\n\nSecond line');
  });
});

describe('notes and comments', () => {
  it('come under their own slide, with comment authors (legacy and threaded comments)', async () => {
    const model = await convertDeck({
      commentAuthors: ['Alice Reviewer'],
      authors: { '{AUTHOR-B}': 'Bob Modern', '{AUTHOR-C}': 'Carol Reply' },
      slides: [
        { shapes: placeholder('title', para('One')) },
        { shapes: placeholder('title', para('Two')), notes: para('Say hello first.') + para('Then the numbers.'), legacyComments: [{ author: 0, text: 'Check this figure' }] },
        {
          shapes: placeholder('title', para('Three')),
          modernComments: [{ author: '{AUTHOR-B}', text: 'Is this final?', replies: [{ author: '{AUTHOR-C}', text: 'Yes, approved.' }] }],
        },
      ],
    });
    expect(pageMarkdown(model, 1)).toBe('# One');
    expect(pageMarkdown(model, 2)).toBe(
      '## Two\n\n**Notes:**\n\nSay hello first.\n\nThen the numbers.\n\n**Comments:**\n\n- **Alice Reviewer:** Check this figure',
    );
    expect(pageMarkdown(model, 3)).toBe('## Three\n\n**Comments:**\n\n- **Bob Modern:** Is this final?\n  - **Carol Reply:** Yes, approved.');
    expect(model.pages[1]?.blocks.map((block) => block.label)).toEqual(['heading-2', 'notes', 'comments']);
  });
});

describe('furniture', () => {
  const deck: PptxDeck = {
    slides: [
      {
        shapes:
          placeholder('title', para('Results'), { x: 0, y: 0, w: W, h: H / 10 }) +
          textBox({ x: 0, y: H / 5, w: W, h: H / 5 }, para('Revenue grew.')) +
          placeholder('ftr', para('ACME confidential'), { x: 0, y: H - H / 10, w: W / 2, h: H / 20 }, 11) +
          placeholder('sldNum', '<a:p><a:fld id="{X}" type="slidenum"><a:rPr/><a:t>‹#›</a:t></a:fld></a:p>', { x: W - W / 10, y: H - H / 10, w: W / 20, h: H / 20 }, 12),
      },
    ],
    masterShapes: textBox({ x: 0, y: 0, w: W / 5, h: H / 20 }, para('Master banner')),
  };

  it('is left out of the Markdown by default and kept in blocks', async () => {
    const model = await convertDeck(deck);
    expect(markdownOf(model)).toBe('# Results\n\nRevenue grew.');
    const furniture = blocksOf(model).filter((block) => block.furniture);
    expect(furniture.map((block) => [block.type, block.markdown])).toEqual([
      ['page_header', 'Master banner'],
      ['page_footer', 'ACME confidential'],
      ['page_number', '1'],
    ]);
    const data = renderDocument(model, options(), { contentType: 'x' });
    expect(data.markdown).toBe('# Results\n\nRevenue grew.');
  });

  it('appears with onlyMainContent false', async () => {
    const model = await convertDeck(deck, { onlyMainContent: false });
    const data = renderDocument(model, options({ onlyMainContent: false }), { contentType: 'x' });
    expect(data.markdown).toBe('# Results\n\nRevenue grew.\n\nMaster banner\n\nACME confidential\n\n1');
  });
});

describe('hidden slides and page markers', () => {
  it('keep a hidden slide, marked by a furniture block and a warning', async () => {
    const model = await convertDeck({
      slides: [{ shapes: placeholder('title', para('Shown')) }, { shapes: placeholder('title', para('Backup')) + textBox({ x: 0, y: H / 2, w: W, h: H / 4 }, para('Spare numbers')), hidden: true }],
    });
    expect(model.pages[1]?.blocks.map((block) => [block.label, block.furniture ?? false])).toEqual([
      ['heading-2', false],
      ['hidden-slide', true],
      [null, false],
    ]);
    expect(markdownOf(model)).toBe('# Shown\n\n## Backup\n\nSpare numbers');
    expect(model.warnings?.join(' ')).toMatch(/slide 2 is hidden/);
  });

  it('give pages and page markers through the engine, one per slide', async () => {
    const bytes = makePptx({
      slides: [{ shapes: placeholder('title', para('Alpha')) }, { shapes: textBox({ x: 0, y: 0, w: W, h: H }, para('No title here')) }, { shapes: placeholder('title', para('Gamma')) }],
      core: { 'dc:title': 'Deck title', 'dc:creator': 'Dana Author' },
    });
    const data = await parseDocument({ bytes, fileName: 'deck.pptx', options: options({ parsers: [{ type: 'pdf', pages: true, pageMarkers: true, blocks: true }] }) });
    expect(data.markdown).toBe('# Alpha\n\n---\n\n<!-- page 2 -->\n\nNo title here\n\n---\n\n<!-- page 3 -->\n\n## Gamma');
    expect(data.pages?.map((page) => [page.pageNumber, page.markdown])).toEqual([
      [1, '# Alpha'],
      [2, 'No title here'],
      [3, '## Gamma'],
    ]);
    expect(data.blocks?.[1]?.items[0]).toMatchObject({ type: 'text', source: 'pptx', bbox: [0, 0, 1, 1] });
    expect(data.metadata).toMatchObject({ title: 'Deck title', author: 'Dana Author', numPages: 3 });
  });
});

describe('master and layout text that shows on the slides', () => {
  const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
  const furnitureOf = (model: DocumentModel, pageNumber: number) =>
    (model.pages.find((page) => page.pageNumber === pageNumber)?.blocks ?? []).filter((block) => block.furniture).map((block) => [block.type, block.markdown]);
  const PROMPTS = /Click to edit/;
  // As PowerPoint writes them: prompts in the master's and layout's placeholders, decoration in groups and
  // alternate content, and a shape hidden in the selection pane.
  const masterShapes =
    placeholder('title', para('Click to edit Master title style'), { x: 0, y: 0, w: W, h: H / 10 }) +
    placeholder('body', para('Click to edit Master text styles'), { x: 0, y: H / 5, w: W, h: H / 2 }) +
    group({ x: 0, y: H - H / 10, w: W / 2, h: H / 20 }, { x: 0, y: 0, w: 1000, h: 100 }, textBox({ x: 0, y: 0, w: 1000, h: 100 }, para('ACME — Internal'))) +
    textBox({ x: W / 4, y: H / 3, w: W / 2, h: H / 4 }, para('Draft watermark')).replace('name="TextBox"', 'name="TextBox" hidden="1"');
  const layoutShapes =
    placeholder('title', para('Click to edit Master title style'), { x: 0, y: 0, w: W, h: H / 10 }) +
    `<mc:AlternateContent xmlns:mc="${MC}"><mc:Choice Requires="p14">${textBox({ x: W - W / 4, y: 0, w: W / 4, h: H / 20 }, para('Layout tagline'))}</mc:Choice><mc:Fallback/></mc:AlternateContent>`;

  it('text boxes of the master and layout, in groups and alternate content, reach every slide as furniture; prompts and hidden shapes do not', async () => {
    const model = await convertDeck({
      slides: [{ shapes: placeholder('title', para('Results'), { x: 0, y: 0, w: W, h: H / 10 }) + textBox({ x: 0, y: H / 5, w: W, h: H / 5 }, para('Revenue grew.')) }, { shapes: '' }],
      masterShapes,
      layoutShapes,
    });
    for (const pageNumber of [1, 2]) {
      expect(furnitureOf(model, pageNumber)).toEqual([
        ['page_header', 'Layout tagline'],
        ['page_footer', 'ACME — Internal'],
      ]);
    }
    expect(markdownOf(model)).toBe('# Results\n\nRevenue grew.');
    expect(blocksOf(model).some((block) => PROMPTS.test(block.markdown) || block.markdown.includes('Draft watermark'))).toBe(false);
    const data = renderDocument(model, options({ onlyMainContent: false }), { contentType: 'x' });
    expect(data.markdown).toBe('# Results\n\nRevenue grew.\n\nLayout tagline\n\nACME — Internal\n\nLayout tagline\n\nACME — Internal');
  });

  it('a deck whose only text is on its master: the text is kept as furniture and the warning says so, not "no text"', async () => {
    const model = await convertDeck({ slides: [{ shapes: '' }], masterShapes, layoutShapes });
    expect(furnitureOf(model, 1)).toEqual([
      ['page_header', 'Layout tagline'],
      ['page_footer', 'ACME — Internal'],
    ]);
    expect(model.warnings).toEqual([expect.stringMatching(/^the presentation has no text of its own: its only text is what its masters show on the slides/)]);
    const data = await parseDocument({ bytes: makePptx({ slides: [{ shapes: '' }], masterShapes, layoutShapes }), fileName: 'deck.pptx', options: options({ onlyMainContent: false }) });
    expect(data.markdown).toBe('Layout tagline\n\nACME — Internal');
  });
});

describe('errors', () => {
  it('an encrypted deck (OLE with EncryptionInfo) is ENCRYPTED_DOCUMENT', async () => {
    await expect(convertPptx(input(corpusBytes('xlsx/password_protected.xlsx'), {}, 'secret.pptx'))).rejects.toMatchObject({
      apiCode: 'ENCRYPTED_DOCUMENT',
      message: expect.stringMatching(/password-protected/),
    });
  });

  it('a legacy binary is UNSUPPORTED_FILE; another Office package is UNSUPPORTED_FILE', async () => {
    await expect(convertPptx(input(corpusBytes('doc/legacy_sample.doc'), {}, 'old.pptx'))).rejects.toMatchObject({ apiCode: 'UNSUPPORTED_FILE' });
    await expect(convertPptx(input(corpusBytes('docx/word_tables.docx'), {}, 'words.pptx'))).rejects.toMatchObject({
      apiCode: 'UNSUPPORTED_FILE',
      message: expect.stringMatching(/Word document/),
    });
  });

  it('not a zip, a zip cut short, or a zip without a presentation is CORRUPT_DOCUMENT; text is UNSUPPORTED_FILE', async () => {
    await expect(convertPptx(input(new Uint8Array([0, 1, 2, 3, 0, 0, 255, 7, 9, 9]), {}, 'fake.pptx'))).rejects.toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: expect.stringMatching(/^the file is not a PowerPoint presentation \(\.pptx\): it looks like binary data/),
    });
    await expect(convertPptx(input(strToU8('plain text, not a deck'), {}, 'fake.pptx'))).rejects.toMatchObject({
      apiCode: 'UNSUPPORTED_FILE',
      message: 'the file is a text file (CSV or plain text), not a PowerPoint presentation (.pptx)',
    });
    const whole = corpusBytes('pptx/powerpoint_sample.pptx');
    // Cut inside the presentation part: what is whole before it is no deck (a later cut is read: bytes/zip-repair.test.ts).
    await expect(convertPptx(input(cutInside(whole, 'ppt/presentation.xml'), {}, 'cut.pptx'))).rejects.toMatchObject({ apiCode: 'CORRUPT_DOCUMENT' });
    await expect(convertPptx(input(zipSync({ 'readme.txt': strToU8('hello') }), {}, 'x.pptx'))).rejects.toMatchObject({ apiCode: 'CORRUPT_DOCUMENT' });
  });

  it('a missing slide part fails its page with a warning; when no slide can be read, CORRUPT_DOCUMENT', async () => {
    const files = unzipSync(makePptx({ slides: [{ shapes: placeholder('title', para('One')) }, { shapes: placeholder('title', para('Two')) }] }));
    delete files['ppt/slides/slide2.xml'];
    const model = await convertPptx(input(zipSync(files), {}, 'damaged.pptx'));
    expect(model.pages.map((page) => page.status)).toEqual(['ok', 'failed']);
    expect(model.warnings?.join(' ')).toMatch(/slide 2 cannot be read/);
    delete files['ppt/slides/slide1.xml'];
    await expect(convertPptx(input(zipSync(files), {}, 'ruined.pptx'))).rejects.toMatchObject({ apiCode: 'CORRUPT_DOCUMENT', message: expect.stringMatching(/none of the presentation's 2 slides/) });
  });

  it('a slide part that is not well-formed XML is CORRUPT_DOCUMENT naming the part and the line', async () => {
    const files = unzipSync(makePptx({ slides: [{ shapes: placeholder('title', para('One')) }, { shapes: placeholder('title', para('Two')) }] }));
    files['ppt/slides/slide2.xml'] = strToU8('<?xml version="1.0"?>\n<p:sld>\n<p:cSld>\u0000 not XML');
    await expect(convertPptx(input(zipSync(files), {}, 'damaged.pptx'))).rejects.toMatchObject({
      apiCode: 'CORRUPT_DOCUMENT',
      message: 'the file is damaged: it is a PowerPoint presentation (.pptx) whose part ppt/slides/slide2.xml is not well-formed XML (line 3)',
    });
  });

  it('a deck without slides is EMPTY_DOCUMENT', async () => {
    await expect(convertDeck({ slides: [] })).rejects.toMatchObject({ apiCode: 'EMPTY_DOCUMENT', message: expect.stringMatching(/no slides/) });
  });

  it('slides without text give a result with a warning', async () => {
    const model = await convertDeck({ slides: [{ shapes: picture({ x: 0, y: 0, w: 10, h: 10 }, '') }] });
    expect(model.pages).toHaveLength(1);
    expect(model.warnings?.join(' ')).toMatch(/no text/);
  });

  it('a slide list longer than 10,000 entries is DOCUMENT_TOO_COMPLEX before any slide is read', async () => {
    const deck = makePptx({ slides: [{ shapes: placeholder('title', para('Same slide')) }], order: new Array<number>(10_001).fill(0) });
    await expect(convertPptx(input(deck, {}, 'many.pptx'))).rejects.toMatchObject({ apiCode: 'DOCUMENT_TOO_COMPLEX', message: expect.stringMatching(/10,001 slides/) });
  });

  it('XML declaring more than 256 MiB is DOCUMENT_TOO_COMPLEX (zip bomb)', async () => {
    const bomb = makePptx({ slides: [{ shapes: placeholder('title', para('tiny')) }] });
    const view = new DataView(bomb.buffer, bomb.byteOffset, bomb.byteLength);
    for (let at = 0; at + 46 <= bomb.length; at += 1) {
      if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 100 * 1024 * 1024, true);
    }
    await expect(convertPptx(input(bomb, {}, 'bomb.pptx'))).rejects.toMatchObject({ apiCode: 'DOCUMENT_TOO_COMPLEX' });
  });
});
