/**
 * onlyMainContent on hand-written pages of the kinds that lost content or let boilerplate in (issue 27): a page
 * readability does not find readerable, an article holding a small share of the page, comments, share bars and
 * related lists inside <main>, JSON-LD articleBody, an <article> of <meta> tags only, metadata, includeTags.
 */
import { describe, expect, it } from 'vitest';
import { removeBoilerplate } from '../../../src/engine/html/boilerplate.js';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { type DomElement, parseDocument } from '../../../src/engine/html/dom.js';
import { markdownOf } from './helpers.js';

const page = (body: string, head = '') => `<!DOCTYPE html><html lang="en"><head><title>The harbour story</title>${head}</head><body>${body}</body></html>`;
const prose = (topic: string, count = 4) =>
  Array.from(
    { length: count },
    (_, index) =>
      `<p>Paragraph ${index + 1} about ${topic}: the old harbour wall was rebuilt after the winter storms, and the town council met twice to agree on the cost, the stone and the order of the work along the quay.</p>`,
  ).join('');
const menu = Array.from({ length: 40 }, (_, index) => `<li><a href="/section/${index}">Section number ${index} of the site menu</a></li>`).join('');
const main = (html: string, overrides = {}) => markdownOf(htmlToModel(html, { onlyMainContent: true, ...overrides }));

describe('onlyMainContent keeps readability’s article', () => {
  it('keeps the article of a page readability does not find readerable, without the site chrome', () => {
    const html = page(`<div class="top"><ul>${menu}</ul></div><div class="content"><h1>The harbour story</h1>${prose('the harbour', 2)}</div>
      <div class="bottom"><ul>${menu}</ul></div>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 1 about the harbour');
    expect(markdown).toContain('Paragraph 2 about the harbour');
    expect(markdown).not.toContain('Section number 3 of the site menu');
  });

  it('keeps an article that holds less than a fifth of the page’s text instead of the whole body', () => {
    const html = page(`<div id="menu"><ul>${menu}</ul></div><div class="story"><h1>The harbour story</h1>${prose('the quay', 3)}</div>
      <div class="teasers"><ul>${menu}</ul></div><div class="more"><ul>${menu}</ul></div>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 1 about the quay');
    expect(markdown).toContain('Paragraph 3 about the quay');
    expect(markdown).not.toContain('Section number 3 of the site menu');
  });
});

describe('an old hand-written page', () => {
  it('keeps the prose written straight into <body> between its headings, not only the links inside it', () => {
    const loose = (topic: string) =>
      `The first account of ${topic} we know of is an old book, <a href="book.html"><i>Contests of the Mind</i></a>, printed in 1721. ` +
      'It holds a variety of problems for testing mathematical intelligence, and one of them asks the reader to fold a sheet flat and make one straight cut. ' +
      `<a href="scans.html">Scanned pages</a> of the book about ${topic} are available.`;
    const html = page(
      `<h1>The fold and cut problem</h1><h2>History</h2>` +
        `<div class="float"><a href="book.html"><img src="cover.gif"></a><br><a href="book.html"><i>Contests of the Mind</i></a>, 1721.</div>` +
        `${loose('folding')}<p>${loose('cutting')}</p><h2>Theorem</h2>${loose('the theorem')}<p>${loose('the proof')}`,
    );
    const markdown = main(html);
    for (const topic of ['folding', 'cutting', 'the theorem', 'the proof']) {
      expect(markdown).toContain(`The first account of ${topic} we know of is an old book`);
      expect(markdown).toContain(`of the book about ${topic} are available`);
    }
  });
});

describe('boilerplate inside the main content', () => {
  it('removes comment sections (#comments, Disqus, schema.org Comment) inside <main>', () => {
    const html = page(`<main><article><h1>The harbour story</h1>${prose('stones')}</article>
      <section id="comments"><h2>3 comments</h2><p>Great article, thanks for writing it all down for us.</p></section>
      <div id="disqus_thread"><p>Disqus says hello to every reader of this page today.</p></div>
      <div itemscope itemtype="https://schema.org/Comment"><p>Marked-up comment text from a reader of the story.</p></div></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 4 about stones');
    expect(markdown).not.toContain('Great article');
    expect(markdown).not.toContain('Disqus says hello');
    expect(markdown).not.toContain('Marked-up comment');
  });

  it('keeps a short post whole and leaves out a comment thread many times its length', () => {
    // Readability takes the post and the note after it; the thread beside them holds seven times their text.
    const comment = (index: number) =>
      `<li class="comment"><article><p class="comment-author">Reader ${index}</p><div class="comment-content"><p>Comment ${index}: we walked the new quay last weekend and the children loved watching the boats come in past the rebuilt wall.</p></div></article></li>`;
    const html = page(`<main><article class="post"><h1>The harbour story</h1><div class="entry-content">${prose('the short post', 6)}</div></article>
      <div class="after-post"><p>Get the weekly harbour letter: tide tables, boat news and the council notes, sent every Sunday morning to your inbox.</p></div>
      <div class="entry-comments" id="comments"><h3>60 comments</h3><ol class="comment-list">${Array.from({ length: 60 }, (_, index) => comment(index + 1)).join('')}</ol></div></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 1 about the short post');
    expect(markdown).toContain('Paragraph 6 about the short post');
    expect(markdown).not.toContain('Comment 7: we walked');
    expect(markdown).not.toContain('60 comments');
  });

  it('removes a form that takes input (a sign-up box) from the chosen content, its labels and notes with it', () => {
    // Readability drops forms itself; a container docmill chose (main-content.ts's widening) still holds them.
    const document = parseDocument(page(`<article><h1>The harbour story</h1>${prose('the quay wall', 3)}
      <form method="post"><p>Get the harbour letter every Sunday morning, with tide tables and notices.</p>
      <label for="e">Email address for the letter</label><input id="e" type="email"><button>Sign me up</button></form>
      <form action="/vote"><p>A form without fields to fill is left alone: this note stays.</p></form>
      ${prose('the new steps', 2)}</article>`));
    removeBoilerplate(document.body as DomElement);
    const text = document.body?.textContent ?? '';
    expect(text).toContain('Paragraph 3 about the quay wall');
    expect(text).toContain('Paragraph 2 about the new steps');
    expect(text).toContain('this note stays');
    expect(text).not.toContain('Email address for the letter');
    expect(text).not.toContain('Get the harbour letter');
  });

  it('removes a lead form in the article whose consent note readability kept without its fields', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><h1>The harbour story</h1>${prose('the quay wall', 4)}
      <div class="quote"><p>A harbour pilot will call you back within a day, or call the harbour office now.</p>
      <form method="post"><div class="field"><label for="n">First and last name</label><input id="n" type="text"></div>
      <div class="field"><label for="p">Phone number</label><input id="p" type="tel"></div>
      <div class="note"><p>By clicking "Book a pilot", you agree by electronic signature to receive calls and texts from the harbour office at the number you give, and to its terms of service.</p></div>
      <button>Book a pilot</button></form></div>${prose('the new steps', 3)}</article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 4 about the quay wall');
    expect(markdown).toContain('Paragraph 3 about the new steps');
    expect(markdown).not.toContain('you agree by electronic signature');
  });

  it('removes the publisher\'s legal notes marked up as a disclaimer, not the article around them', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><h1>The harbour story</h1>${prose('the quay wall', 4)}
      <p class="disclaimer">The views expressed by the writers of this letter are their own and do not necessarily reflect the views of the harbour board.</p>
      <div id="disclosures"><div class="richtext"><p>Tide tables are given for information only and are subject to change without notice; always check the harbour office notices before sailing.</p></div></div></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 4 about the quay wall');
    expect(markdown).not.toContain('The views expressed by the writers');
    expect(markdown).not.toContain('subject to change without notice');
  });

  it('keeps a page whose content is its disclaimer', () => {
    const terms = Array.from({ length: 4 }, (_, index) => `<p>Term ${index + 1}: the harbour board gives the tide tables for information only and accepts no liability for their use at sea.</p>`).join('');
    const markdown = main(page(`<nav><ul>${menu}</ul></nav><main><div class="disclaimer"><h1>Disclaimer</h1>${terms}</div></main>`));
    expect(markdown).toContain('Term 4: the harbour board');
  });

  it('removes a dialog the page keeps closed, even one holding more text than the article (a republish box)', () => {
    const licence = Array.from({ length: 12 }, (_, index) => `<p>Rule ${index + 1} for republishing: credit the writer, link back to the story and keep the text whole.</p>`).join('');
    const document = parseDocument(page(`<article><h1>The harbour story</h1>${prose('the quay wall', 3)}
      <div class="widget"><div id="republish-modal" role="dialog" aria-modal="true" style="display:none;">${licence}</div></div>
      <dialog><p>Sign up for the harbour letter, every Friday in your inbox.</p></dialog></article>`));
    removeBoilerplate(document.body as DomElement);
    const text = document.body?.textContent ?? '';
    expect(text).toContain('Paragraph 3 about the quay wall');
    expect(text).not.toContain('Rule 1 for republishing');
    expect(text).not.toContain('Sign up for the harbour letter');
  });

  it('removes skip links (shown to keyboard readers on focus), not the article\'s own links into the page', () => {
    const document = parseDocument(page(`<a href="#main-content" class="skip-to-main">skip to main content</a>
      <a href="#footer">Skip to footer</a><div id="main-content"><h1>The harbour story</h1>
      <p><a href="#steps">Skip ahead to the new steps</a> if you know the quay.</p>${prose('the quay wall', 3)}
      <h2 id="steps">The new steps</h2>${prose('the new steps', 2)}</div>`));
    removeBoilerplate(document.body as DomElement);
    const text = document.body?.textContent ?? '';
    expect(text).toContain('Paragraph 2 about the new steps');
    expect(text).not.toMatch(/skip to (main content|footer)/i);
    expect(text).toContain('Skip ahead to the new steps if you know the quay.');
  });

  it('removes share bars, related lists and newsletter boxes, keeping headings, lists, tables, code and figures', () => {
    const html = page(`<main><article><h1>The harbour story</h1>
      <div class="share-bar"><a href="https://x.example/share">Share on X</a> <a href="https://fb.example/share">Share on Facebook</a> <a href="mailto:?">Email</a></div>
      ${prose('granite')}<h2>The works</h2><ul><li>Remove the broken stones from the wall</li><li>Lay the new granite blocks</li></ul>
      <table><tr><th>Item</th><th>Cost</th></tr><tr><td>Stone</td><td>120</td></tr></table>
      <pre><code>wall.rebuild()</code></pre><figure><img src="https://img.example/wall.jpg" alt="wall"><figcaption>The new wall in May</figcaption></figure>
      <div class="related-posts"><h3>Related</h3><ul><li><a href="/a">Another harbour</a></li><li><a href="/b">Boats of the bay</a></li><li><a href="/c">The lighthouse</a></li></ul></div>
      <div class="newsletter"><p>Subscribe to our newsletter for the weekly harbour digest.</p></div></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 4 about granite');
    expect(markdown).toContain('## The works');
    expect(markdown).toContain('- Lay the new granite blocks');
    expect(markdown).toContain('| Stone | 120 |');
    expect(markdown).toContain('wall.rebuild()');
    expect(markdown).toContain('The new wall in May');
    expect(markdown).not.toContain('Share on X');
    expect(markdown).not.toContain('Boats of the bay');
    expect(markdown).not.toContain('weekly harbour digest');
  });
});

describe('sections named by their heading', () => {
  it('keeps a section whose id is its heading spelled as an anchor, even with a role word in it; a role id still goes', () => {
    const html = page(`<main><article><h1>The harbour story</h1>${prose('the quay', 3)}
      <div id="menu-ideas-for-the-harbour-festival" class="section-content"><h2>Menu ideas for the harbour festival</h2>${prose('the festival menu', 2)}</div>
      <div id="share-links"><a href="https://x.example/share">Share on X</a> <a href="https://fb.example/share">Share on Facebook</a></div>
      <div id="related-stories-list"><ul><li><a href="/a">Another harbour</a></li><li><a href="/b">Boats of the bay</a></li><li><a href="/c">The lighthouse</a></li></ul></div></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('## Menu ideas for the harbour festival');
    expect(markdown).toContain('Paragraph 2 about the festival menu');
    expect(markdown).not.toContain('Share on X');
    expect(markdown).not.toContain('Boats of the bay');
  });

  it('keeps a part of the article whose class states a setting (sidebar-enabled--false, has-comments); a sidebar still goes', () => {
    const html = page(`<main><article><h1>The harbour story</h1>
      <div class="story-summary content sidebar-enabled--false"><h3>Key points</h3><ul><li>The wall was rebuilt in granite after the storms</li><li>The council agreed the cost in two meetings</li></ul></div>
      <div class="story-body has-comments">${prose('the quay', 2)}</div>${prose('the stone', 3)}
      <div class="sidebar"><p>Popular this week: the lighthouse tour, the ferry timetable and the fish market.</p></div></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('- The wall was rebuilt in granite after the storms');
    expect(markdown).toContain('Paragraph 2 about the quay');
    expect(markdown).not.toContain('Popular this week');
  });

  it('leaves out a footer named with a word glued before it (superfooter)', () => {
    const html = page(`<div class="p-body-main p-body-main--withSidebar content"><article><h1>The harbour story</h1>${prose('the quay', 4)}</article>
      <section id="superfooter" class="collapsible"><p>Harbour Town Council, 1 Quay Street, Harbour Town HT1 2AB, telephone 01234 567890, open weekdays.</p></section></div>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 4 about the quay');
    expect(markdown).not.toContain('1 Quay Street');
  });
});

describe('the page’s own signals', () => {
  it('uses the JSON-LD articleBody when the markup holds no article text', () => {
    const body = 'The harbour wall was rebuilt after the storms.\nThe council agreed on the cost in March.';
    const html = page(
      '<div id="app"><nav><a href="/">Home</a></nav></div>',
      `<script type="application/ld+json">${JSON.stringify({ '@type': 'NewsArticle', headline: 'The harbour story', articleBody: body })}</script>`,
    );
    const markdown = main(html);
    expect(markdown).toContain('The harbour wall was rebuilt after the storms.');
    expect(markdown).toContain('The council agreed on the cost in March.');
  });

  it('never gives an empty output for a page whose only <article> holds nothing but <meta> tags', () => {
    const html = page(`<article><meta itemprop="datePublished" content="2024-05-01"><meta itemprop="author" content="Ann"></article>
      <div class="post"><h2>Harbour notes</h2><p>Short notes on the harbour wall.</p></div>`);
    const markdown = main(html);
    expect(markdown).toContain('Short notes on the harbour wall.');
  });
});

describe('metadata and tag filters', () => {
  it('takes title, description, keywords, language, author, date and site name from meta, Open Graph and JSON-LD', () => {
    const html = page(
      prose('metadata', 1),
      `<meta name="description" content="How the wall was rebuilt"><meta name="keywords" content="harbour, wall">
       <meta property="og:site_name" content="Harbour Times">
       <script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@graph': [{ '@type': 'NewsArticle', datePublished: '2024-05-01T08:00:00Z', author: [{ '@type': 'Person', name: 'Ann Smith' }] }] })}</script>`,
    );
    expect(htmlToModel(html).metadata).toMatchObject({
      title: 'The harbour story',
      description: 'How the wall was rebuilt',
      keywords: 'harbour, wall',
      language: 'en',
      author: 'Ann Smith',
      publishedTime: '2024-05-01T08:00:00Z',
      siteName: 'Harbour Times',
    });
  });

  it('includeTags keeps a tag the extractor would drop; onlyMainContent:false keeps the whole page', () => {
    const html = page(`<main><article><h1>The harbour story</h1>${prose('tags')}</article><section id="comments"><p>Kept comment text.</p></section></main>`);
    expect(main(html, { includeTags: ['#comments'] })).toBe('Kept comment text.');
    expect(markdownOf(htmlToModel(html, { onlyMainContent: false }))).toContain('Kept comment text.');
  });
});

describe('markup after </body>', () => {
  it('reads content after a stray </body> or in a second <body> as part of the page', () => {
    const html = `<!DOCTYPE html><html><head><title>The harbour story</title></head><body></body><div class="story"><h1>The harbour story</h1>${prose('the second body', 2)}</div><body><p>Closing words on the harbour wall.</p></body></html>`;
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 2 about the second body');
    expect(htmlToModel(html, { onlyMainContent: false }).pages[0]?.blocks.length).toBeGreaterThan(0);
  });

  it('reads a page whose template left a stray <![CDATA[ before its markup (it once made the whole body a comment)', () => {
    const html = `<!DOCTYPE html><html><head><title>The harbour story</title></head><body>
      <![CDATA[
      <div class="post"><h1>The harbour story</h1>${prose('the stray marker', 3)}</div></body></html>`;
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 3 about the stray marker');
    expect(markdownOf(htmlToModel(html, { onlyMainContent: false }))).toContain('Paragraph 1 about the stray marker');
  });

  it('reads the article a template wrote after an early </body></html>, without a second head', () => {
    const menu = '<nav><ul><li><a href="/a">Services</a></li><li><a href="/b">Pricing</a></li></ul></nav>';
    const html = `<!DOCTYPE html><html><head><title>The harbour story</title></head><body>${menu}</body></html>
      <div class="post"><h1>The harbour story</h1>${prose('the late article', 4)}</div>
      <html><head><title>Head text of a second page</title></head><body><p>Closing words on the harbour wall.</p></body></html>`;
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 4 about the late article');
    expect(markdown).not.toContain('Head text of a second page');
    const whole = markdownOf(htmlToModel(html, { onlyMainContent: false }));
    expect(whole).toContain('Paragraph 1 about the late article');
    expect(whole).toContain('Closing words on the harbour wall.');
  });
});
