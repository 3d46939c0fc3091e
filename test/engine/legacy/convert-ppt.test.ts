/**
 * The PowerPoint 97-2003 converter on the corpus (ppt/fake-power-point.ppt) and on presentations built here:
 * presentation order from the slide list, titles, bullets with levels, text boxes in reading order, notes,
 * furniture, hidden slides, and every error with its reason.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../src/engine/engine.js';
import { convertPpt } from '../../../src/engine/legacy/convert-ppt.js';
import { blocksOf, corpusBytes, input, markdownOf, options } from '../html/helpers.js';
import { summaryInformation } from './make-doc.js';
import { makePpt } from './make-ppt.js';

const convert = (file: string | Uint8Array, overrides = {}) => convertPpt(input(file, overrides, typeof file === 'string' ? undefined : 'built.ppt'));

async function failure(bytes: Uint8Array): Promise<{ apiCode: string; message: string }> {
  try {
    await convert(bytes);
  } catch (error) {
    return error as { apiCode: string; message: string };
  }
  throw new Error('the conversion did not fail');
}

describe('ppt/fake-power-point.ppt', () => {
  it('gives the slide title as a heading, its bullets with their levels and the text box', async () => {
    const model = await convert('ppt/fake-power-point.ppt');
    expect(model.pages).toHaveLength(1);
    expect(markdownOf(model)).toBe(
      [
        '# Adding a Bullet Slide',
        '- Find the bullet slide layout\n  - Use \\_TextFrame.text for first bullet\n    - Use \\_TextFrame.add_paragraph() for subsequent bullets',
        'Here is a lot of text!',
        'Here is some text in a text box!',
      ].join('\n\n'),
    );
    expect(blocksOf(model)[0]?.type).toBe('title');
    expect(blocksOf(model).every((block) => block.source === 'ppt')).toBe(true);
    expect(model.metadata).toMatchObject({ title: 'Adding a Bullet Slide', numPages: 1 });
    // Slide size 10 x 7.5 inches, in points.
    expect([model.pages[0]?.width, model.pages[0]?.height]).toEqual([720, 540]);
  });
});

describe('built presentations', () => {
  const deck = () =>
    makePpt({
      slides: [
        { title: 'Opening', body: [{ text: 'Welcome' }, { text: 'Agenda', level: 1 }], notes: 'Smile at the audience' },
        {
          title: 'Results',
          textBoxes: [
            { text: 'Lower box', anchor: [3000, 100, 2000, 3400] },
            { text: 'Upper box', anchor: [1000, 100, 2000, 1400] },
            { text: '3', anchor: [4000, 5000, 5500, 4200], placeholder: 8 },
          ],
        },
        { title: 'Backup', body: [{ text: 'Spare slide' }], hidden: true },
      ],
      footer: 'ACME confidential',
    });

  it('puts slides in the slide list order, one page each, titles as headings', async () => {
    const model = await convert(deck());
    expect(model.pages.map((page) => page.pageNumber)).toEqual([1, 2, 3]);
    expect(model.pages.map((page) => page.blocks.find((block) => block.type === 'title' || block.type === 'section_header')?.markdown)).toEqual([
      '# Opening',
      '## Results',
      '## Backup',
    ]);
    expect(model.metadata).toMatchObject({ title: 'Opening', numPages: 3 });
  });

  it('keeps bullets and levels, and text boxes in reading order', async () => {
    const model = await convert(deck());
    const first = model.pages[0]?.blocks.map((block) => block.markdown) ?? [];
    expect(first).toContain('- Welcome\n  - Agenda');
    const second = model.pages[1]?.blocks.filter((block) => !block.furniture && block.type === 'text').map((block) => block.markdown);
    expect(second).toEqual(['Upper box', 'Lower box']);
  });

  it('puts speaker notes under their slide', async () => {
    const model = await convert(deck());
    const notes = model.pages.map((page) => page.blocks.find((block) => block.label === 'notes')?.markdown);
    expect(notes).toEqual(['**Notes:**\n\nSmile at the audience', undefined, undefined]);
  });

  it('makes footers and slide numbers furniture and marks hidden slides', async () => {
    const model = await convert(deck());
    const furniture = model.pages[1]?.blocks.filter((block) => block.furniture).map((block) => [block.type, block.markdown]);
    expect(furniture).toEqual([
      ['page_number', '3'],
      ['page_footer', 'ACME confidential'],
    ]);
    expect(markdownOf(model)).not.toContain('ACME');
    expect(model.pages[2]?.blocks.some((block) => block.label === 'hidden-slide')).toBe(true);
    expect(model.warnings).toEqual(['slide 3 is hidden in the presentation; its content is included.']);
  });

  it('keeps the master slide\'s text boxes as furniture on every slide, never its prompts', async () => {
    const model = await convert(makePpt({ slides: [{ title: 'One' }, { title: 'Two' }], masterTextBoxes: [{ text: 'Company Confidential', anchor: [4100, 100, 3000, 4300] }] }));
    for (const page of model.pages) {
      expect(page.blocks.filter((block) => block.furniture).map((block) => [block.type, block.markdown])).toEqual([['page_footer', 'Company Confidential']]);
    }
    expect(markdownOf(model, { furniture: true })).not.toContain('Click to edit');
    expect(markdownOf(model)).toBe('# One\n\n## Two');
  });

  it('reads a table group as a GFM table, cells placed by their anchors', async () => {
    const model = await convert(
      makePpt({
        slides: [
          {
            title: 'Prices',
            table: [
              ['Fruit', 'Price'],
              ['Apple', '1.20'],
              ['Pear', 'n/a | sold out'],
            ],
          },
        ],
      }),
    );
    const tables = blocksOf(model).filter((block) => block.type === 'table').map((block) => block.markdown);
    expect(tables).toEqual(['| Fruit | Price |\n| --- | --- |\n| Apple | 1.20 |\n| Pear | n/a \\| sold out |']);
    expect(markdownOf(model)).toBe(`# Prices\n\n${tables[0]}`);
  });

  it('finds the slides without the Current User stream', async () => {
    const model = await convert(makePpt({ slides: [{ title: 'Only' }, { title: 'Two' }], noCurrentUser: true }));
    expect(markdownOf(model)).toBe('# Only\n\n## Two');
  });

  it('reads title and author from the summary information', async () => {
    const summary = summaryInformation({ 2: 'Deck title', 4: 'Presenter' });
    const model = await convert(makePpt({ slides: [{ title: 'Slide' }], streams: [{ name: '\u0005SummaryInformation', data: summary }] }));
    expect(model.metadata).toMatchObject({ title: 'Deck title', author: 'Presenter' });
  });

  it('gives a presentation without text its pages and the no-text warning', async () => {
    const empty = await convert(makePpt({ slides: [] }));
    expect(empty.pages).toHaveLength(1);
    expect(blocksOf(empty)).toEqual([]);
    expect(empty.warnings).toEqual(['the presentation has no text.']);
    const blank = await convert(makePpt({ slides: [{}, {}] }));
    expect(blank.pages).toHaveLength(2);
    expect(blank.warnings).toEqual(['the presentation has no text.']);
  });
});

describe('errors', () => {
  it('refuses encrypted presentations as password-protected', async () => {
    for (const bytes of [
      makePpt({ slides: [{ title: 'x' }], encryptedToken: true }),
      makePpt({ slides: [{ title: 'x' }], cryptSession: true }),
      makePpt({ slides: [{ title: 'x' }], streams: [{ name: 'EncryptedSummary', data: new Uint8Array(16) }] }),
    ]) {
      const error = await failure(bytes);
      expect(error.apiCode).toBe('ENCRYPTED_DOCUMENT');
      expect(error.message).toMatch(/password-protected/);
    }
  });

  it('names a persist directory that leads nowhere', async () => {
    const error = await failure(makePpt({ slides: [{ title: 'x' }], badDocumentRef: true }));
    expect(error.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error.message).toBe('the PowerPoint document stream is damaged: the persist directory does not lead to the document container');
  });

  it('says what the file is when it is not a PowerPoint 97-2003 binary', async () => {
    const doc = await failure(corpusBytes('doc/legacy_sample.doc'));
    expect([doc.apiCode, doc.message]).toEqual(['UNSUPPORTED_FILE', 'the file is a Word 97-2003 document (.doc), not a PowerPoint 97-2003 presentation (.ppt)']);
    const pptx = await failure(corpusBytes('ppt/eng_spa_mult.ppt'));
    expect([pptx.apiCode, pptx.message]).toEqual(['UNSUPPORTED_FILE', 'the file is a PowerPoint presentation (.pptx), not a PowerPoint 97-2003 presentation (.ppt)']);
  });

  it('gives a file cut before its slides were saved whole as damaged, saying where it was cut', async () => {
    // The PowerPoint Document stream is bytes 2,560 to 13,220 of the file; PowerPoint saves its last edit at its end.
    const error = await failure(corpusBytes('ppt/fake-power-point.ppt').slice(0, 12_000));
    expect(error.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(error.message).toBe(
      'the file is damaged or truncated: it is a PowerPoint 97-2003 presentation (.ppt) cut inside its PowerPoint Document stream, before the edit record saved last in it, which says where its slides are',
    );
    const header = await failure(corpusBytes('ppt/fake-power-point.ppt').slice(0, 300));
    expect(header.message).toMatch(/^the file is damaged or truncated: it is an OLE compound file \(the legacy Office container\) cut short/);
  });
});

describe('a presentation cut short', () => {
  // PowerPoint writes its directory and most of its allocation table last, after the pictures and property sets.
  it('reads one cut after its slides from its PowerPoint Document stream, found by its content, saying so', async () => {
    const whole = corpusBytes('ppt/fake-power-point.ppt');
    const parse = (bytes: Uint8Array) => parseDocument({ bytes, fileName: 'deck.ppt', options: options() });
    const intact = await parse(whole);
    for (const length of [20_000, 100_000, whole.length - 600]) {
      const cut = await parse(whole.subarray(0, length));
      expect(cut.markdown, `cut at ${length}`).toBe(intact.markdown);
      expect(cut.warning).toBe(
        'The file was cut short (a PowerPoint 97-2003 presentation whose allocation table and directory, at its end, are missing): its slides were read from its PowerPoint Document stream, as saved last before the cut; its document properties (author, dates) are not read.',
      );
    }
  });
});

describe('through the engine', () => {
  it('parses a .ppt with parseDocument', async () => {
    const data = await parseDocument({ bytes: corpusBytes('ppt/fake-power-point.ppt'), fileName: 'fake-power-point.ppt', options: options() });
    expect(data.markdown).toContain('# Adding a Bullet Slide');
    expect(data.markdown).toContain('Here is some text in a text box!');
    expect(data.metadata).toMatchObject({ title: 'Adding a Bullet Slide', contentType: 'application/vnd.ms-powerpoint' });
  });
});
