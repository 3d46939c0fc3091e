/**
 * The HTML path on small hand-written pages: URL handling (base href, srcset, data: images), tag filters,
 * main-content fallbacks, block typing, links, metadata, errors.
 */
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/engine/engine-error.js';
import { convertHtml, htmlToModel, NO_TEXT_WARNING } from '../../../src/engine/html/convert-html.js';
import { extractHtmlMetadata, metadataKey } from '../../../src/engine/html/metadata.js';
import { parseDocument } from '../../../src/engine/html/dom.js';
import { largestSrcsetCandidate, parseSrcset } from '../../../src/engine/html/urls.js';
import { blocksOf, input, markdownOf, tablesOf } from './helpers.js';

const page = (body: string, head = '') => `<!DOCTYPE html><html lang="en"><head><title>T</title>${head}</head><body>${body}</body></html>`;
const model = (html: string, overrides = {}) => htmlToModel(html, { onlyMainContent: false, ...overrides });

describe('base href and URLs', () => {
  const html = page(
    `<p><a href="/about">About</a> <a href="team.html">Team</a> <a href="#top">Top</a> <a href="javascript:void(0)">JS</a>
     <a href="/about">About again</a> <a href="https://other.example/x">Other</a> <a href="mailto:a@b.example">Mail</a></p>
     <p><img alt="logo" src="img/logo.png" srcset="img/logo-1x.png 1x, img/logo-3x.png 3x, img/logo-2x.png 2x"></p>
     <p><img alt="hero" src="small.jpg" srcset="https://cdn.example/w_320,h_200/hero.jpg 320w, https://cdn.example/w_1280,h_800/hero.jpg 1280w, https://cdn.example/w_640,h_400/hero.jpg 640w" sizes="100vw"></p>`,
    '<base href="https://site.example/docs/">',
  );

  it('makes relative URLs absolute against <base href>, in html, links, images and markdown', () => {
    const result = model(html);
    expect(result.links).toEqual([
      'https://site.example/about',
      'https://site.example/docs/team.html',
      'https://other.example/x',
      'mailto:a@b.example',
    ]);
    expect(result.html).toContain('href="https://site.example/docs/team.html"');
    expect(result.html).toContain('href="#top"');
    expect(markdownOf(result)).toContain('[Team](https://site.example/docs/team.html)');
  });

  it('resolves srcset to the largest candidate (x or w descriptors, commas inside URLs) and drops srcset', () => {
    const result = model(html);
    expect(result.images).toEqual(['https://site.example/docs/img/logo-3x.png', 'https://cdn.example/w_1280,h_800/hero.jpg']);
    expect(result.html).not.toContain('srcset');
    expect(result.html).not.toContain('sizes=');
    expect(markdownOf(result)).toContain('![logo](https://site.example/docs/img/logo-3x.png)');
  });

  it('leaves relative URLs alone when there is no base (an uploaded file has no URL)', () => {
    const result = model(page('<p><a href="/about">About</a><img src="a.png" alt="a"></p>'));
    expect(result.links).toEqual(['/about']);
    expect(result.images).toEqual(['a.png']);
  });

  it('ignores a relative <base href> (nothing to resolve it against)', () => {
    const result = model(page('<p><a href="x.html">X</a></p>', '<base href="/docs/">'));
    expect(result.links).toEqual(['x.html']);
  });
});

describe('srcset parsing', () => {
  it('parses candidates with and without descriptors', () => {
    expect(parseSrcset('a.png, b.png 2x,c.png 300w')).toEqual([
      { url: 'a.png', density: 1 },
      { url: 'b.png', density: 2 },
      { url: 'c.png', width: 300 },
    ]);
    expect(largestSrcsetCandidate('a.png 1.5x, b.png 2x, c.png')?.url).toBe('b.png');
    expect(largestSrcsetCandidate('a.png 100w, b.png 2x')?.url).toBe('a.png');
    expect(largestSrcsetCandidate('')).toBeNull();
  });
});

describe('removeBase64Images', () => {
  const html = page('<p>Chart: <img alt="sales chart" src="data:image/png;base64,iVBORw0KGgo="></p>');

  it('replaces data: images by the placeholder, keeping the alt text (default)', () => {
    const result = model(html);
    expect(markdownOf(result)).toBe('Chart: ![sales chart](<Base64-Image-Removed>)');
    expect(result.html).not.toContain('base64');
    expect(result.images).toEqual([]);
    expect(result.rawHtml).toContain('base64,iVBORw0KGgo=');
  });

  it('keeps them with removeBase64Images:false', () => {
    const result = model(html, { removeBase64Images: false });
    expect(markdownOf(result)).toContain('data:image/png;base64,iVBORw0KGgo=');
    expect(result.images).toEqual([]);
  });
});

describe('includeTags and excludeTags (CSS selectors)', () => {
  const html = page(`
    <nav><a href="/home">Home</a></nav>
    <article><h1>Story</h1><p class="lead">Lead paragraph.</p><div class="ad">Buy now</div><p>Body text.</p></article>
    <aside id="related"><p>Related stuff</p></aside>
    <footer><p>Copyright</p></footer>`);

  it('includeTags keeps only the matching elements, outermost, in document order', () => {
    const result = htmlToModel(html, { includeTags: ['#related', 'article .lead', 'h1'] });
    expect(markdownOf(result)).toBe('# Story\n\nLead paragraph.\n\nRelated stuff');
    expect(result.links).toEqual([]);
  });

  it('excludeTags removes the matching elements', () => {
    const result = model(html, { excludeTags: ['nav', '.ad', 'footer'] });
    const markdown = markdownOf(result);
    expect(markdown).not.toContain('Home');
    expect(markdown).not.toContain('Buy now');
    expect(markdown).not.toContain('Copyright');
    expect(markdown).toContain('Related stuff');
    expect(result.html).not.toContain('class="ad"');
  });

  it('an invalid selector is ignored with a warning', () => {
    const result = model(html, { excludeTags: ['[[['] });
    expect(result.warnings?.[0]).toMatch(/excludeTags: "\[\[\[" is not a valid CSS selector/);
    expect(markdownOf(result)).toContain('Buy now');
  });
});

describe('onlyMainContent without readability', () => {
  it('falls back to <main> with page chrome removed when the page is not readerable', () => {
    const html = page(`
      <header><p>Site banner</p></header><nav><ul><li><a href="/a">A</a></li></ul></nav>
      <main><h1>Short page</h1><p>Only a little text here.</p><footer><p>Article footer</p></footer></main>
      <footer><p>Site footer</p></footer>`);
    const markdown = markdownOf(htmlToModel(html, { onlyMainContent: true }));
    expect(markdown).toBe('# Short page\n\nOnly a little text here.\n\nArticle footer');
  });

  it('removes page-level chrome from the body when there is no main or article', () => {
    const html = page(`<div role="navigation"><a href="/x">X</a></div><h2>Title</h2><p>Text.</p><aside>Side</aside>`);
    expect(markdownOf(htmlToModel(html, { onlyMainContent: true }))).toBe('## Title\n\nText.');
  });

  it('keeps a page that is mostly a data table whole', () => {
    const rows = Array.from({ length: 30 }, (_, index) => `<tr><td>Item ${index}</td><td>${index * 10}</td></tr>`).join('');
    const html = page(`<p>Export</p><table><tr><th>Item</th><th>Value</th></tr>${rows}</table>`);
    const result = htmlToModel(html, { onlyMainContent: true });
    expect(tablesOf(result)[0]).toHaveLength(31);
    expect(markdownOf(result)).toContain('Export');
  });
});

describe('blocks', () => {
  it('types elements and keeps inline runs between blocks', () => {
    const html = page(`
      <h1>Main title</h1><h1>Second h1</h1><h3>Sub</h3>
      Loose text <b>bold</b>
      <div>A div with <i>inline</i> content</div>
      <ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>
      <ol start="3"><li>three</li><li>four</li></ol>
      <pre><code class="language-js">const x = 1;\n  return x;</code></pre>
      <blockquote><p>Quoted</p></blockquote>
      <figure><img src="f.png" alt="fig"><figcaption>The caption</figcaption></figure>
      <p><img src="p.png" alt="only image"></p>
      <hr>
      <table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>`);
    const blocks = blocksOf(model(html));
    expect(blocks.map((block) => [block.type, block.label ?? null, block.markdown])).toEqual([
      ['title', 'heading-1', '# Main title'],
      ['section_header', 'heading-1', '# Second h1'],
      ['section_header', 'heading-3', '### Sub'],
      ['text', null, 'Loose text **bold**'],
      ['text', null, 'A div with *inline* content'],
      ['text', 'list', '- one\n- two\n  - nested'],
      ['text', 'list', '3. three\n4. four'],
      ['text', 'code', '```js\nconst x = 1;\n  return x;\n```'],
      ['text', 'quote', '> Quoted'],
      ['figure', null, '![fig](f.png)'],
      ['caption', null, 'The caption'],
      ['figure', null, '![only image](p.png)'],
      ['table', null, '| a | b |\n| --- | --- |\n| 1 | 2 |'],
    ]);
    expect(blocks.every((block) => block.source === 'html' && block.bbox === null)).toBe(true);
  });

  it('reads layout tables (one cell, one column) as content, not as tables', () => {
    const html = page('<table><tr><td><h2>Inside</h2><p>Para</p></td></tr></table><table><tr><td>A</td></tr><tr><td>B</td></tr></table>');
    const blocks = blocksOf(model(html));
    expect(blocks.map((block) => block.type)).toEqual(['section_header', 'text', 'text', 'text']);
  });

  it('an empty page gives no blocks and a warning, not an error', () => {
    const result = model(page('<script>var x;</script><div>   </div>'));
    expect(blocksOf(result)).toEqual([]);
    expect(result.warnings).toEqual([NO_TEXT_WARNING]);
  });

  it('accepts a fragment without html/body', () => {
    expect(markdownOf(model('<p>Just <em>a</em> fragment</p>'))).toBe('Just *a* fragment');
  });

  it('escapes Markdown in text and drops empty links', () => {
    const markdown = markdownOf(model(page('<p>2 * 3 = [six] <a href="/x"></a><a href="/y"> </a>_under_</p>')));
    // Brackets that cannot make a link read as written; a lone star and underscores at word edges stay escaped.
    expect(markdown).toBe('2 \\* 3 = [six] \\_under\\_');
  });
});

describe('tables', () => {
  it('flattens spans, merges multi-row headers, drops empty rows and columns, escapes pipes', () => {
    const html = page(`<table>
      <thead><tr><th rowspan="2">Region</th><th colspan="2">Sales</th><th></th></tr><tr><th>2021</th><th>2022</th><th></th></tr></thead>
      <tbody><tr><td rowspan="2">North</td><td>1</td><td>a|b</td><td></td></tr><tr><td>2</td><td>3</td><td></td></tr>
      <tr><td></td><td></td><td></td><td></td></tr><tr><td colspan="4">Total row</td></tr></tbody></table>`);
    expect(tablesOf(model(html))[0]).toEqual([
      ['Region', 'Sales 2021', 'Sales 2022'],
      ['North', '1', 'a\\|b'],
      ['North', '2', '3'],
      ['Total row', '', ''],
    ]);
  });

  it('promotes the first row to the header when the table has none', () => {
    const html = page('<table><tr><td>k</td><td>v</td></tr><tr><td>x</td><td>1</td></tr></table>');
    expect(blocksOf(model(html))[0]?.markdown).toBe('| k | v |\n| --- | --- |\n| x | 1 |');
  });
});

describe('metadata', () => {
  it('camelCases Open Graph names, keeps other names as written, arrays for repeats, skips reserved keys', () => {
    const document = parseDocument(
      page(
        '',
        `<meta name="description" content="Desc"><meta name="keywords" content="a, b">
         <meta property="og:title" content="OG title"><meta property="og:locale:alternate" content="fr_FR">
         <meta name="twitter:card" content="summary"><meta name="contentType" content="evil">
         <meta property="article:tag" content="x"><meta property="article:tag" content="y">`,
      ),
    );
    expect(extractHtmlMetadata(document)).toEqual({
      title: 'T',
      description: 'Desc',
      keywords: 'a, b',
      ogTitle: 'OG title',
      ogLocaleAlternate: ['fr_FR'],
      'twitter:card': 'summary',
      'article:tag': ['x', 'y'],
      language: 'en',
    });
    expect(metadataKey('og:image:secure_url')).toBe('ogImageSecureUrl');
  });

  it('falls back to og:title and og:description', () => {
    const document = parseDocument(
      '<html><head><meta property="og:title" content="From OG"><meta property="og:description" content="OG desc"></head><body></body></html>',
    );
    expect(extractHtmlMetadata(document)).toMatchObject({ title: 'From OG', description: 'OG desc' });
  });
});

describe('convertHtml', () => {
  it('refuses bytes that are not a web page (a PDF named .html)', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n');
    await expect(convertHtml(input(bytes, {}, 'x.html'))).rejects.toMatchObject({ apiCode: 'UNSUPPORTED_FILE' });
    await expect(convertHtml(input(bytes, {}, 'x.html'))).rejects.toBeInstanceOf(EngineError);
  });

  it('decodes by BOM, declared charset and detection', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>Grüße</p>', 'utf16le')]);
    expect(markdownOf(await convertHtml(input(new Uint8Array(utf16), {}, 'a.html')))).toBe('Grüße');

    const latin = Buffer.concat([Buffer.from('<meta charset="iso-8859-1"><p>caf'), Buffer.from([0xe9, 0x20, 0x80]), Buffer.from('</p>')]);
    // iso-8859-1 is read as windows-1252, as browsers do: 0x80 is the euro sign.
    expect(markdownOf(await convertHtml(input(new Uint8Array(latin), {}, 'a.html')))).toBe('café €');

    const sjis = Buffer.concat([
      Buffer.from('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head><body><p>'),
      Buffer.from([0x93, 0xfa, 0x96, 0x7b]),
      Buffer.from('</p></body></html>'),
    ]);
    expect(markdownOf(await convertHtml(input(new Uint8Array(sjis), {}, 'a.html')))).toBe('日本');

    // Declared UTF-8 but the bytes are not: detected instead of filled with U+FFFD.
    const mislabelled = Buffer.concat([Buffer.from('<meta charset="utf-8"><p>na'), Buffer.from([0xef]), Buffer.from('ve</p>')]);
    expect(markdownOf(await convertHtml(input(new Uint8Array(mislabelled), {}, 'a.html')))).not.toContain('\uFFFD');

    // Declared windows-1252 (a template's old header, often before a later UTF-8 one) over UTF-8 text: read as UTF-8,
    // not as "Donâ€™t".
    const utf8Labelled1252 = Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><meta charset="utf-8"><p>Don’t pay 5 € for café</p>');
    expect(markdownOf(await convertHtml(input(new Uint8Array(utf8Labelled1252), {}, 'a.html')))).toBe('Don’t pay 5 € for café');
  });
});
