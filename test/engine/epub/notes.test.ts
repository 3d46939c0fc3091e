/**
 * EPUB 3 footnotes and endnotes (epub:type noteref / footnote / endnote), and notes marked by their look alone (EPUB 2,
 * converters' output), as GFM footnotes numbered through the book.
 */
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

  it("loses a note's link back to a wrapper that holds its reference alone, as LibreOffice's export writes it", async () => {
    const model = await convert([
      {
        id: 'c1',
        href: 'ch1.xhtml',
        body:
          '<p><span>The engine</span><sup id="calledF1"><a epub:type="noteref" href="#dataF1">1</a></sup><span> runs on two cores.</span></p>' +
          '<aside epub:type="footnote" id="dataF1"><p><span><sup><a href="#calledF1">1</a></sup>First prototyped in 2023.</span></p></aside>',
      },
    ]);
    expect(markdownOf(model)).toBe('## Chapter\n\nThe engine[^1] runs on two cores.\n\n[^1]: First prototyped in 2023.');
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

  it('without epub:type: a note mark linked to a note and back (Project Gutenberg), to an aside (InDesign), to a notes chapter', async () => {
    const model = await convert([
      {
        id: 'c1',
        href: 'text/ch1.xhtml',
        body:
          '<h1>Curling</h1>' +
          '<p>The stones weigh about forty pounds.<a id="FNanchor_1_1" href="#Footnote_1_1" class="fnanchor">[1]</a> A rink is forty-two yards long.</p>' +
          '<p>Sweeping speeds the stone.<a class="_idFootnoteLink" id="footnote-000-backlink" href="#footnote-000">*</a></p>' +
          '<p>Scottish clubs met in 1838.<sup><a href="notes.xhtml#n1" id="r1">2</a></sup></p>' +
          '<div class="footnote"><p><a id="Footnote_1_1" href="#FNanchor_1_1"><span class="label">[1]</span></a> Granite from Ailsa Craig.</p>' +
          '<p>Heavier stones were once common.</p></div>' +
          '<aside class="_idFootnote" id="footnote-000"><p><a class="_idFootnoteAnchor" href="#footnote-000-backlink">*</a> With brooms of broom-corn.</p></aside>',
      },
      { id: 'notes', href: 'text/notes.xhtml', body: '<h1>Notes</h1><p id="n1">2. The Grand Caledonian Curling Club.</p><p id="n9">9. A note nothing refers to.</p>' },
    ]);
    expect(markdownOf(model)).toBe(
      '# Curling\n\nThe stones weigh about forty pounds.[^1] A rink is forty-two yards long.\n\nSweeping speeds the stone.[^2]\n\nScottish clubs met in 1838.[^3]\n\n' +
        '[^1]: Granite from Ailsa Craig. Heavier stones were once common.\n\n[^2]: With brooms of broom-corn.\n\n' +
        '# Notes\n\n9\\. A note nothing refers to.\n\n[^3]: The Grand Caledonian Curling Club.',
    );
  });

  it('without epub:type: cross-references stay links (page numbers, a section, a raised link to a figure or a heading)', async () => {
    const body =
      '<h1>Skating</h1>' +
      '<p>Figures: <a href="#page_12" class="pginternal">12</a>; see <a href="#sec2">section 2</a>; the edge<sup><a href="#fig3">3</a></sup>; the club<sup><a href="#club">4</a></sup>.</p>' +
      '<p><span class="pagenum"><a id="page_12">[12]</a></span>The outside edge.</p>' +
      '<h2 id="club">The club</h2><p id="sec2">Section text.</p><figure id="fig3"><img src="edge.png" alt="An edge"/><figcaption>Figure 3</figcaption></figure>';
    const markdown = markdownOf(await convert([{ id: 'c1', href: 'ch1.xhtml', body }]));
    expect(markdown).not.toContain('[^');
    expect(markdown).toContain('[12](#page_12)');
    expect(markdown).toContain('[section 2](#sec2)');
  });
});
