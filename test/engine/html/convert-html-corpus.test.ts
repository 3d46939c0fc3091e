/**
 * The HTML converter on the test corpus (html/, htm/, xhtml/): encodings, readability on a real Wikipedia page,
 * rich table cells, the 460 KB <pre> page, Excel's HTML export, XHTML chapters. Ground-truth Markdown (docling's)
 * is compared loosely: headings and table cells, not bytes.
 */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { convertHtml } from '../../../src/engine/html/convert-html.js';
import { decodeHtmlBytes } from '../../../src/engine/html/decode.js';
import type { DocumentModel } from '../../../src/engine/model.js';
import { blocksOf, corpusBytes, corpusExists, corpusPath, corpusText, headingsOf, input, markdownOf, tablesOf } from './helpers.js';

const convert = (file: string, overrides = {}) => convertHtml(input(file, overrides));

describe('corpus location', () => {
  it('resolves test/fixtures/corpus from the test file', () => {
    expect(corpusPath('SOURCES.md')).toMatch(/test[/\\]fixtures[/\\]corpus[/\\]SOURCES\.md$/);
    expect(corpusExists('SOURCES.md')).toBe(true);
    expect(corpusExists('html/wiki_duck.html')).toBe(true);
  });
});

describe('html/fake-html-cp1252.html (windows-1252, no declared charset)', () => {
  it('decodes the cp1252 bytes: €, accented letters, inverted punctuation', async () => {
    const model = await convert('html/fake-html-cp1252.html');
    const markdown = markdownOf(model);
    expect(markdown).toContain('Der Preis betrug 15,50 €.');
    expect(markdown).toContain('Die schöne Frau');
    expect(markdown).toContain('La señora dijo: "¡Qué rico!"');
    expect(markdown).toContain('O João comprou');
    expect(markdown).not.toContain('\uFFFD');
  });

  it('is detected as windows-1252 (no BOM, no declaration, not UTF-8)', () => {
    expect(decodeHtmlBytes(corpusBytes('html/fake-html-cp1252.html'))).toMatchObject({ encoding: 'windows-1252', source: 'detected' });
    expect(decodeHtmlBytes(corpusBytes('htm/column_width.htm'))).toMatchObject({ encoding: 'macintosh', source: 'declared' });
    expect(decodeHtmlBytes(corpusBytes('xhtml/a.xhtml'))).toMatchObject({ encoding: 'utf-8', source: 'declared' });
    expect(decodeHtmlBytes(corpusBytes('htm/fake-html-pre.htm'))).toMatchObject({ encoding: 'utf-8', source: 'utf8-valid' });
  });

  it('rawHtml is the decoded document exactly, and encodes back to the uploaded bytes', async () => {
    const bytes = corpusBytes('html/fake-html-cp1252.html');
    const model = await convertHtml(input(bytes, {}, 'fake-html-cp1252.html'));
    expect(model.rawHtml).toBe(iconv.decode(Buffer.from(bytes), 'windows-1252'));
    expect(Buffer.compare(iconv.encode(model.rawHtml as string, 'windows-1252'), Buffer.from(bytes))).toBe(0);
  });

  it('keeps the pre block as a fenced code block, heading as the title', async () => {
    const model = await convert('html/fake-html-cp1252.html');
    const blocks = blocksOf(model);
    expect(blocks[0]).toMatchObject({ type: 'title', markdown: '# My First Heading', source: 'html', bbox: null });
    const code = blocks.find((block) => block.label === 'code');
    expect(code?.type).toBe('text');
    expect(code?.markdown.startsWith('```\nDie schöne Frau')).toBe(true);
    expect(code?.markdown.endsWith('"Mag ik ook wat?"\n```')).toBe(true);
  });

  it('puts everything on one page without geometry', async () => {
    const model = await convert('html/fake-html-cp1252.html');
    expect(model.pages).toHaveLength(1);
    expect(model.pages[0]).toMatchObject({ pageNumber: 1, width: null, height: null, status: 'ok' });
  });
});

describe('html/wiki_duck.html (a saved Wikipedia article with all its chrome)', () => {
  let main: DocumentModel;
  let full: DocumentModel;

  it('onlyMainContent (default): readability keeps the article and drops the navigation chrome', async () => {
    main = await convert('html/wiki_duck.html');
    const markdown = markdownOf(main);
    // Article text, headings and the infobox are there.
    expect(markdown).toContain('**Duck** is the common name for numerous species of');
    expect(markdown).toContain('## Etymology');
    expect(markdown).toContain('| Kingdom: | [Animalia](/wiki/Animal "Animal") |');
    // The page heading sits outside the content element; it is kept as the title.
    expect(blocksOf(main)[0]).toMatchObject({ type: 'title', markdown: '# Duck' });
    // Navigation, the table of contents, language links, footer: gone.
    expect(markdown).not.toContain('Main page');
    expect(markdown).not.toContain('move to sidebar');
    expect(markdown).not.toContain('Toggle the table of contents');
    expect(markdown).not.toContain('](https://af.wikipedia.org/wiki/Eend');
    expect(markdown).not.toContain('Privacy policy');
    expect(main.html).not.toContain('id="mw-panel');
    expect(main.links).not.toContain('https://af.wikipedia.org/wiki/Eend');
  });

  it('onlyMainContent:false keeps the chrome', async () => {
    full = await convert('html/wiki_duck.html', { onlyMainContent: false });
    const markdown = markdownOf(full);
    expect(markdown).toContain('Main page');
    expect(markdown).toContain('[Afrikaans](https://af.wikipedia.org/wiki/Eend "Eend – Afrikaans")');
    expect(markdown).toContain('**Duck** is the common name for numerous species of');
    expect(full.links).toContain('https://af.wikipedia.org/wiki/Eend');
    expect(markdown.length).toBeGreaterThan(markdownOf(main).length);
  });

  it('has the headings of the ground truth', () => {
    const expected = headingsOf(corpusText('html/wiki_duck.expected.md')).filter((heading) => heading !== 'Contents');
    const ours = headingsOf(markdownOf(main));
    for (const heading of expected) expect(ours).toContain(heading);
  });

  it('reads the metadata: title, language, Open Graph camelCased, repeated names as arrays', () => {
    expect(main.metadata['title']).toBe('Duck - Wikipedia');
    expect(main.metadata['language']).toBe('en');
    expect(main.metadata['ogTitle']).toBe('Duck - Wikipedia');
    expect(main.metadata['ogType']).toBe('website');
    expect(main.metadata['ogImage']).toHaveLength(3);
    expect(main.metadata['ogImageWidth']).toEqual(['1200', '800', '640']);
    expect(main.metadata['referrer']).toEqual(['origin', 'origin-when-cross-origin']);
    expect(main.metadata['generator']).toBe('MediaWiki 1.43.0-wmf.24');
  });

  it('has no base href: relative links stay relative, nothing is invented', () => {
    expect(main.links).toContain('/wiki/Waterfowl');
    expect(main.links?.some((link) => link.startsWith('#'))).toBe(false);
    expect(main.links?.some((link) => link.startsWith('javascript:'))).toBe(false);
    expect(new Set(main.links).size).toBe(main.links?.length);
    // srcset resolved to the largest candidate (2x) in src.
    expect(main.images).toContain('//upload.wikimedia.org/wikipedia/commons/thumb/b/bf/Bucephala-albeola-010.jpg/440px-Bucephala-albeola-010.jpg');
    expect(main.html).not.toContain('srcset=');
  });

  it('cleans the html: no script, style, head, meta, link', () => {
    for (const tag of [/<script/, /<style/, /<head[\s>]/, /<meta/, /<link/, /<noscript/, /<!--/, /<iframe/]) expect(full.html).not.toMatch(tag);
    expect(full.rawHtml).toBe(corpusText('html/wiki_duck.html'));
  });

  it('types the blocks: figures with captions, lists, tables, section headers', () => {
    const types = new Set(blocksOf(main).map((block) => block.type));
    for (const type of ['title', 'section_header', 'text', 'table', 'figure', 'caption']) expect(types).toContain(type);
    expect(blocksOf(main).some((block) => block.label === 'list')).toBe(true);
    expect(blocksOf(main).filter((block) => block.type === 'title')).toHaveLength(1);
  });
});

describe('html/html_rich_table_cells.html', () => {
  it('makes GFM tables of tables whose cells hold lists, formatting, links, images and a nested table', async () => {
    const model = await convert('html/html_rich_table_cells.html');
    const tables = tablesOf(model);
    expect(tables).toHaveLength(4);
    expect(tables[0]?.[0]).toEqual(['Name', 'Habitat', 'Comment']);
    expect(tables[0]?.[1]).toEqual(['Wood Duck', '', 'Often seen near ponds.']);
    expect(tables[0]?.[3]).toEqual(['Goose (not a duck!)', 'Water & wetlands', '**Large**, *loud*, noisy, ~~small~~']);
    expect(tables[0]?.[4]).toEqual(['Teal', '- Pond<br>- Marsh<br>- Riverbank', '1. Fly south in winter<br>2. Build nest on ground']);
    expect(tables[1]?.[1]).toEqual(['Aythya<br>(Diving ducks)', 'Hawser, Common Pochard']);
    // A header spanning the whole table is written once; the nested table is flattened into its cell.
    expect(tables[2]?.[0]).toEqual(['Action', '']);
    expect(tables[2]?.[3]?.[1]).toBe('Type \\| Sound<br>Short \\| “quak”<br>Long \\| “quaaaaaack”');
    expect(tables[3]?.[1]?.[2]).toContain('[View PNG](https://en.wikipedia.org/wiki/Donald_Duck#/media/File:Donald_Duck_angry_transparent_background.png)');
    expect(tables[3]?.[2]?.[2]).toContain('![White-headed duck thumbnail](https://upload.wikimedia.org/');
    // Captions are their own blocks, before their table.
    const blocks = blocksOf(model);
    const caption = blocks.findIndex((block) => block.type === 'caption' && block.markdown === 'Basic duck facts');
    expect(blocks[caption + 1]?.type).toBe('table');
  });

  it('has the ground truth cells (loosely)', async () => {
    const markdown = markdownOf(await convert('html/html_rich_table_cells.html'));
    const expected = corpusText('html/html_rich_table_cells.expected.md');
    expect(markdown).toContain(headingsOf(expected)[0] as string);
    for (const cell of ['Wood Duck', 'Ponds, lakes, rivers', 'Fulvous Whistling Duck', 'Unknown Duck', 'No photo available.']) {
      expect(expected).toContain(cell);
      expect(markdown).toContain(cell);
    }
  });

  it('links and images: absolute ones as written, deduplicated, in document order', async () => {
    const model = await convert('html/html_rich_table_cells.html');
    expect(model.links).toEqual([
      'https://en.wikipedia.org/wiki/Donald_Duck#/media/File:Donald_Duck_angry_transparent_background.png',
      'https://upload.wikimedia.org/wikipedia/commons/thumb/a/ab/Witkopeend_-_white-headed_duck_-_Oxyura_leucocephala_3.tif/lossy-page1-1920px-Witkopeend_-_white-headed_duck_-_Oxyura_leucocephala_3.tif.jpg',
      'https://upload.wikimedia.org/wikipedia/commons/thumb/7/75/Mandarin_duck_%28Aix_galericulata%29.jpg/250px-Mandarin_duck_%28Aix_galericulata%29.jpg',
    ]);
    expect(model.images).toHaveLength(1);
  });
});

describe('htm/fake-html-pre.htm (460 KB in one <pre>)', () => {
  it('keeps the preformatted text exactly, in one fenced code block', async () => {
    const model = await convert('htm/fake-html-pre.htm');
    const blocks = blocksOf(model);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.label).toBe('code');
    const raw = corpusText('htm/fake-html-pre.htm');
    const pre = (/<pre>([\s\S]*)<\/pre>/.exec(raw)?.[1] ?? '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
      .replace(/^\n/, '')
      .replace(/\n$/, '');
    expect(blocks[0]?.markdown).toBe('```\n' + pre + '\n```');
    expect(pre.length).toBeGreaterThan(450_000);
  });
});

describe('htm/column_width.htm (Excel HTML export, declared charset=macintosh)', () => {
  it('keeps the table with onlyMainContent on (a table page is not handed to readability)', async () => {
    const model = await convert('htm/column_width.htm');
    const tables = tablesOf(model);
    expect(tables).toHaveLength(1);
    expect(tables[0]?.[0]?.[0]).toBe('default');
    const cells = tables[0]?.flat() ?? [];
    for (const cell of ['W .09', 'W 4', 'W 12', '1 px', '10 px', 'W 15.83', '29 px', '100 px', 'W .9', '101 px']) expect(cells).toContain(cell);
    // Excel's overflow colspan (mso-ignore:colspan) fills its first column only.
    expect(cells.filter((cell) => cell === '1 px')).toHaveLength(1);
    expect(model.metadata['ProgId']).toBe('Excel.Sheet');
  });
});

describe('html/example-10k-1p.html (SEC filing, inline XBRL, layout tables)', () => {
  it('keeps the filing text and its data tables', async () => {
    const model = await convert('html/example-10k-1p.html');
    const markdown = markdownOf(model);
    expect(markdown).toContain('Galaxy Gaming, Inc.');
    expect(markdown).toContain('Commission file number: 000-30653');
    expect(markdown).toContain('| Title of each class | Trading symbol | Name of exchange on which registered |');
    expect(markdown).toContain('[Risk Factors](#ITEM_1A)');
  });
});

describe('xhtml (XML-serialised XHTML5 chapters)', () => {
  it('preface.xhtml: title heading, emphasis, block quote, language from xml:lang', async () => {
    const model = await convert('xhtml/preface.xhtml');
    const blocks = blocksOf(model);
    expect(blocks[0]).toMatchObject({ type: 'section_header', markdown: '## Author’s Preface' });
    expect(blocks.find((block) => block.label === 'quote')?.markdown).toMatch(/^> “This more reverent title/);
    expect(markdownOf(model)).toContain('*The Devil’s Dictionary* was begun in a weekly paper in 1881');
    expect(model.metadata).toMatchObject({ title: 'Author’s Preface', language: 'en-US' });
  });

  it('preface.xhtml with onlyMainContent:false keeps the signature footer', async () => {
    expect(markdownOf(await convert('xhtml/preface.xhtml', { onlyMainContent: false }))).toContain('—A. B.');
  });

  it('a.xhtml: definition lists as bold terms and their definitions', async () => {
    const model = await convert('xhtml/a.xhtml');
    const markdown = markdownOf(model);
    expect(markdown).toContain('## A');
    expect(markdown).toContain('**Abacot**\n\nA cap of state wrought into the shape of two crowns');
    expect(blocksOf(model).some((block) => block.label === 'list')).toBe(true);
  });
});
