/**
 * The EPUB converter on the test corpus (epub/) and on books built here: spine order, navigation skipped,
 * non-linear chapters, chapter titles, metadata, and each refusal with its reason. One test goes through
 * `parseDocument` for both .epub and .odt, so routing is covered.
 */
import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../src/engine/engine.js';
import { EngineError } from '../../../src/engine/engine-error.js';
import { convertEpub } from '../../../src/engine/epub/convert-epub.js';
import { NO_TEXT_WARNING } from '../../../src/engine/html/convert-html.js';
import { blocksOf, corpusBytes, corpusText, headingsOf, input, markdownOf, options } from '../html/helpers.js';
import { h, makeOdt, p } from '../odt/make-odt.js';
import { type Chapter, makeEpub } from './make-epub.js';

const convert = (bytes: Uint8Array, overrides = {}) => convertEpub(input(bytes, overrides, 'book.epub'));

async function refusal(bytes: Uint8Array): Promise<EngineError> {
  const error = await convert(bytes).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

function pageMarkdown(model: Awaited<ReturnType<typeof convert>>): string[] {
  return model.pages.map((page) => markdownOf({ ...model, pages: [page] }));
}

function wordRecall(output: string, reference: string): number {
  const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
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

const NAV: Chapter = {
  id: 'nav',
  href: 'nav.xhtml',
  properties: 'nav',
  body: '<nav epub:type="toc"><ol><li><a href="text/one.xhtml">Opening Chapter</a></li><li><a href="text/two.xhtml#part">Part of two</a></li></ol></nav>',
};

describe('epub corpus', () => {
  it('epub_purvis_poetry.epub: the reference words and headings, one page per spine document, metadata', async () => {
    const model = await convertEpub(input('epub/epub_purvis_poetry.epub'));
    const markdown = markdownOf(model);
    const expected = corpusText('epub/epub_purvis_poetry.expected.md');
    expect(wordRecall(markdown, expected)).toBeGreaterThanOrEqual(0.99);
    const plain = (headings: string[]) => headings.map((heading) => heading.replace(/\*/g, '').replace(/'/g, '’'));
    expect(plain(headingsOf(markdown))).toEqual(plain(headingsOf(expected)));
    // titlepage, imprint, poetry, colophon, uncopyright: the navigation document (toc.xhtml) is not in the spine.
    expect(model.pages).toHaveLength(5);
    expect(pageMarkdown(model)[1]?.startsWith('## Imprint')).toBe(true);
    expect(blocksOf(model).filter((block) => block.type === 'title').map((block) => block.markdown)).toEqual(['# Poetry']);
    expect(model.metadata).toMatchObject({ title: 'Poetry', author: 'Sarah Louisa Forten Purvis', language: 'en-US' });
    expect(blocksOf(model).every((block) => block.source === 'epub')).toBe(true);
  });

  it('winter-sports.epub (EPUB 2): cover first, then the nine text files in spine order', async () => {
    const model = await convertEpub(input('epub/winter-sports.epub'));
    expect(model.pages).toHaveLength(10);
    expect(model.pages[0]?.blocks.map((block) => block.type)).toEqual(['figure']);
    const pages = pageMarkdown(model);
    expect(pages[1]).toContain('WINTER SPORTS IN SWITZERLAND');
    expect(pages[1]?.indexOf('THE SUN-SEEKER')).toBeGreaterThan(0);
    expect(pages[9]).toContain('END OF THE PROJECT GUTENBERG EBOOK');
    expect(model.metadata).toMatchObject({ title: 'Winter Sports in Switzerland', author: 'E. F. Benson', language: 'en' });
  });
});

describe('epub reading order', () => {
  it('chapters follow the spine, not the manifest; the nav document is skipped; non-linear chapters come last', async () => {
    const chapters: Chapter[] = [
      { id: 'notes', href: 'text/notes.xhtml', body: '<h2>Notes</h2><p>A non-linear note.</p>', linear: false },
      { id: 'two', href: 'text/two.xhtml', body: '<h2>Second</h2><p>Two.</p>' },
      NAV,
      { id: 'one', href: 'text/one.xhtml', body: '<h2>First</h2><p>One.</p>' },
    ];
    const model = await convert(makeEpub({ chapters, spine: ['nav', 'notes', 'one', 'two'] }));
    expect(pageMarkdown(model)).toEqual(['## First\n\nOne.', '## Second\n\nTwo.', '## Notes\n\nA non-linear note.']);
    expect(model.pages.map((page) => page.pageNumber)).toEqual([1, 2, 3]);
    expect(markdownOf(model)).not.toContain('Opening Chapter');
  });

  it('a chapter without a heading gets its table-of-contents title; a chapter with one keeps its own', async () => {
    const chapters: Chapter[] = [
      NAV,
      { id: 'one', href: 'text/one.xhtml', body: '<p>It was a dark night.</p>' },
      { id: 'two', href: 'text/two.xhtml', body: '<p>No whole-file entry names this one.</p>', title: 'Chapter Two Title' },
      { id: 'three', href: 'text/three.xhtml', body: '<h1>Three</h1><p>Text.</p>', title: 'Ignored' },
    ];
    const model = await convert(makeEpub({ chapters, spine: ['one', 'two', 'three'] }));
    expect(pageMarkdown(model)).toEqual([
      '## Opening Chapter\n\nIt was a dark night.',
      '## Chapter Two Title\n\nNo whole-file entry names this one.',
      '# Three\n\nText.',
    ]);
  });

  it('EPUB 2: chapter titles from the NCX; the title block is the first h1 of the book only', async () => {
    const ncx =
      '<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>' +
      '<navPoint id="n1"><navLabel><text>Prologue</text></navLabel><content src="text/one.xhtml"/>' +
      '<navPoint id="n2"><navLabel><text>Nested</text></navLabel><content src="text/two.xhtml"/></navPoint></navPoint></navMap></ncx>';
    const chapters: Chapter[] = [
      { id: 'ncx', href: 'toc.ncx', mediaType: 'application/x-dtbncx+xml', body: ncx, linear: null },
      { id: 'one', href: 'text/one.xhtml', body: '<p>Before everything.</p>' },
      { id: 'two', href: 'text/two.xhtml', body: '<p>More.</p>' },
      { id: 'three', href: 'text/three.xhtml', body: '<h1>Part One</h1><p>x</p>' },
      { id: 'four', href: 'text/four.xhtml', body: '<h1>Part Two</h1><p>y</p>' },
    ];
    const model = await convert(makeEpub({ chapters, version: '2.0', toc: 'ncx' }));
    expect(headingsOf(markdownOf(model))).toEqual(['Prologue', 'Nested', 'Part One', 'Part Two']);
    expect(blocksOf(model).filter((block) => block.type === 'title').map((block) => block.markdown)).toEqual(['# Part One']);
  });

  it('metadata: title, several creators as an array, language', async () => {
    const metadata =
      '<dc:title>Collected Essays</dc:title><dc:creator>Ann Writer</dc:creator><dc:creator>Bob Author</dc:creator><dc:language>de</dc:language>';
    const model = await convert(makeEpub({ chapters: [{ id: 'a', href: 'a.xhtml', body: '<p>Text</p>' }], metadata }));
    expect(model.metadata).toMatchObject({ title: 'Collected Essays', author: ['Ann Writer', 'Bob Author'], language: 'de' });
  });

  it('a book whose chapters have no text is a result with the no-text warning', async () => {
    const model = await convert(makeEpub({ chapters: [{ id: 'a', href: 'a.xhtml', body: '<div> </div>' }] }));
    expect(blocksOf(model)).toEqual([]);
    expect(model.warnings).toContain(NO_TEXT_WARNING);
  });
});

describe('epub refusals', () => {
  const chapter: Chapter = { id: 'a', href: 'text/a.xhtml', body: '<p>Text</p>' };

  it('encryption.xml listing a chapter (DRM) is ENCRYPTED_DOCUMENT; obfuscated fonts alone are fine', async () => {
    const encryption = (uri: string) =>
      '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">' +
      `<enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="${uri}"/></enc:CipherData></enc:EncryptedData></encryption>`;
    const error = await refusal(makeEpub({ chapters: [chapter], extra: { 'META-INF/encryption.xml': encryption('OEBPS/text/a.xhtml') } }));
    expect(error.apiCode).toBe('ENCRYPTED_DOCUMENT');
    expect(error.message).toMatch(/DRM-protected.*OEBPS\/text\/a\.xhtml/);
    const fonts = await convert(makeEpub({ chapters: [chapter], extra: { 'META-INF/encryption.xml': encryption('OEBPS/fonts/serif.otf') } }));
    expect(markdownOf(fonts)).toContain('Text');
  });

  it('no spine, or a spine naming nothing in the manifest, is CORRUPT_DOCUMENT with the cause', async () => {
    const noSpine = await refusal(makeEpub({ chapters: [chapter], noSpine: true }));
    expect(noSpine.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(noSpine.message).toMatch(/has no spine/);
    const dangling = await refusal(makeEpub({ chapters: [chapter], spine: ['missing'] }));
    expect(dangling.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(dangling.message).toMatch(/empty spine.*missing from the manifest/);
  });

  it('a zip cut short or bytes that are no document are CORRUPT_DOCUMENT; another document is UNSUPPORTED_FILE', async () => {
    const whole = makeEpub({ chapters: [chapter] });
    // Cut inside its first part: nothing whole is left (a later cut is read: test/engine/bytes/zip-repair.test.ts).
    const cut = await refusal(whole.subarray(0, 40));
    expect(cut.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(cut.message).toMatch(/cut short/);
    const junk = await refusal(new Uint8Array([0, 1, 2, 3, 0, 0, 255, 7, 9, 9]));
    expect(junk.apiCode).toBe('CORRUPT_DOCUMENT');
    expect(junk.message).toMatch(/not an EPUB book/);
    const page = await refusal(strToU8('<html><body>not a book</body></html>'));
    expect(page.apiCode).toBe('UNSUPPORTED_FILE');
    expect(page.message).toBe('the file is an HTML page, not an EPUB book');
    const odt = await refusal(makeOdt({ body: p('x') }));
    expect(odt.apiCode).toBe('UNSUPPORTED_FILE');
    expect(odt.message).toContain('OpenDocument');
  });
});

describe('routing through parseDocument', () => {
  it('.epub and .odt files reach their converters and render Markdown', async () => {
    const book = await parseDocument({ bytes: corpusBytes('epub/epub_purvis_poetry.epub'), fileName: 'poetry.epub', options: options() });
    expect(book.markdown?.startsWith('# Poetry')).toBe(true);
    expect(book.metadata).toMatchObject({ contentType: 'application/epub+zip', title: 'Poetry' });
    const text = await parseDocument({ bytes: makeOdt({ body: h('Routed', 1) + p('Body text.') }), fileName: 'routed.odt', options: options() });
    expect(text.markdown).toBe('# Routed\n\nBody text.');
    expect(text.metadata?.['contentType']).toBe('application/vnd.oasis.opendocument.text');
  });
});

describe('raised and lowered text', () => {
  it('digits in <sup> and <sub> read as x² and H₂O; a raised word and a linked note mark stay as written', async () => {
    const body = '<h1>Chemistry</h1><p>Water is H<sub>2</sub>O; an area of 3 m<sup>2</sup>; the 2<sup>nd</sup> edition; a claim.<sup><a href="#r1">[1]</a></sup></p><p id="r1">Reference one.</p>';
    const markdown = markdownOf(await convertEpub(input(makeEpub({ chapters: [{ id: 'c1', href: 'c1.xhtml', body }] }), {}, 'chemistry.epub')));
    expect(markdown).toBe('# Chemistry\n\nWater is H₂O; an area of 3 m²; the 2nd edition; a claim.[\\[1\\]](#r1)\n\nReference one.');
  });
});
