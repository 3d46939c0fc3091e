/** EPUB 3 footnotes and endnotes (epub:type noteref / footnote / endnote) as GFM footnotes numbered through the book. */
import { describe, expect, it } from 'vitest';
import { convertEpub } from '../../../src/engine/epub/convert-epub.js';
import { blocksOf, input, markdownOf } from '../html/helpers.js';
import { makeEpub } from './make-epub.js';

const convert = async (chapters: Parameters<typeof makeEpub>[0]['chapters']) => convertEpub(input(makeEpub({ chapters }), {}, 'book.epub'));

describe('EPUB notes', () => {
  it('a footnote in its chapter: the reference is [^N], the note [^N]: text after the chapter, not in the middle of it', async () => {
    const model = await convert([
      {
        id: 'c1',
        href: 'ch1.xhtml',
        body:
          '<section epub:type="chapter"><h1>Peace</h1>' +
          '<p>The treaty was signed in 1648.<a epub:type="noteref" href="#fn1" id="ref1"><sup>1</sup></a> Trade resumed.</p>' +
          '<aside epub:type="footnote" id="fn1"><p><a href="#ref1">1</a> Westphalia; see Croxton.</p></aside>' +
          '<p>The second paragraph.</p></section>',
      },
      {
        id: 'c2',
        href: 'ch2.xhtml',
        body: '<h1>War</h1><p>It began again.<a role="doc-noteref" href="#n1">1</a></p><aside role="doc-footnote" id="n1"><p>In 1672.</p></aside>',
      },
    ]);
    expect(markdownOf(model)).toBe(
      '# Peace\n\nThe treaty was signed in 1648.[^1] Trade resumed.\n\nThe second paragraph.\n\n[^1]: Westphalia; see Croxton.\n\n' +
        '# War\n\nIt began again.[^2]\n\n[^2]: In 1672.',
    );
    expect(blocksOf(model).filter((block) => block.label === 'footnote')).toHaveLength(2);
  });

  it('endnotes in a notes chapter of their own keep the numbers of their references and lose the links back', async () => {
    const model = await convert([
      {
        id: 'c1',
        href: 'text/ch1.xhtml',
        body: '<h1>One</h1><p>First claim.<a epub:type="noteref" href="notes.xhtml#en1" id="r1">1</a> Second claim.<a epub:type="noteref" href="notes.xhtml#en2" id="r2">2</a></p>',
      },
      {
        id: 'notes',
        href: 'text/notes.xhtml',
        body:
          '<section epub:type="endnotes"><h1>Notes</h1><ol>' +
          '<li epub:type="endnote" id="en1"><p><a href="ch1.xhtml#r1">1.</a> Smith, 2001.</p></li>' +
          '<li epub:type="endnote" id="en2"><p>Jones, 1999. <a epub:type="backlink" href="ch1.xhtml#r2">↩</a></p></li>' +
          '<li id="en3"><p>An entry nothing refers to.</p></li>' +
          '</ol></section>',
      },
    ]);
    const markdown = markdownOf(model);
    expect(markdown).toContain('First claim.[^1] Second claim.[^2]');
    expect(markdown).toContain('[^1]: Smith, 2001.\n\n[^2]: Jones, 1999.');
    expect(markdown).toContain('An entry nothing refers to.');
    expect(markdown).not.toContain('ch1.xhtml');
  });
});
