/**
 * onlyMainContent on hand-written pages of the kinds the web-page benchmark (bench/html-main-content.ts) showed
 * losing the article's lead or keeping the furniture around its text: a standfirst readability leaves out with the
 * header, a title heading after a logo heading, bylines and meta lines, "read also" lines, picture credits,
 * teaser cards of other pages, headings left with nothing under them, and a page made of teasers only.
 */
import { describe, expect, it } from 'vitest';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { markdownOf } from './helpers.js';

const TITLE = 'Heat pumps are booming';
const page = (body: string) => `<!DOCTYPE html><html lang="en"><head><title>${TITLE} | Energy News</title></head><body>${body}</body></html>`;
const main = (html: string) => markdownOf(htmlToModel(html, { onlyMainContent: true }));
const menu = Array.from({ length: 30 }, (_, index) => `<li><a href="/topics/${index}">Topic page number ${index}</a></li>`).join('');
const prose = Array.from(
  { length: 5 },
  (_, index) =>
    `<p>Paragraph ${index + 1}: installers report waiting lists of several months, since households replace old gas boilers faster than the trade can train new fitters for the work.</p>`,
).join('');

describe('the article’s lead', () => {
  it('keeps a standfirst marked up in the article’s header, which readability leaves out', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><header><h1>${TITLE}</h1>
      <p class="article-intro" itemprop="description">Despite supply problems, sales of heat pumps doubled in the first half of the year.</p></header>
      <div class="article-body">${prose}</div></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain('Despite supply problems, sales of heat pumps doubled');
    expect(markdown).toContain('Paragraph 5: installers report');
    expect(markdown.indexOf('Despite supply problems')).toBeLessThan(markdown.indexOf('Paragraph 1:'));
  });

  it('keeps the title heading when a logo heading comes first, and the unmarked standfirst under it', () => {
    const html = `<!DOCTYPE html><html lang="en"><head><title>${TITLE}</title></head><body><header><h1 class="logo"><a href="/">Energy News</a></h1><nav><ul>${menu}</ul></nav></header>
      <div class="page-head"><h1>${TITLE}</h1><div class="row"><p>After a quiet decade the market for heat pumps has turned, and the trade cannot keep up with the orders that households place every week.</p></div></div>
      <div class="columns"><div class="story"><div class="story-text">${prose}</div></div>
      <div class="side"><p>Energy News is written by a small team of editors in Berlin and read by installers, engineers and households.</p></div></div></body></html>`;
    const markdown = main(html);
    expect(markdown).toContain(`# ${TITLE}`);
    expect(markdown).toContain('After a quiet decade the market for heat pumps has turned');
    expect(markdown).not.toContain('Topic page number 3');
  });
});

describe('furniture inside the article', () => {
  it('removes bylines and meta lines, share buttons, "read also" lines and picture credits, keeping the captions', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>${TITLE}</h1>
      <div class="entry-meta">Posted on 3 May 2022 by Jane Doe · 4 comments</div>
      ${prose}
      <p><strong>Read also:</strong> <a href="/news/solar-roofs">Solar roofs for every new house from next year</a></p>
      <figure><img src="/pump.jpg" alt=""><figcaption>A heat pump in front of a terraced house. <small>Photo: Max Miller</small></figcaption></figure>
      <figure><img src="/fitter.jpg" alt=""><figcaption>A fitter at work in Leipzig. © Anna Schmidt</figcaption></figure>
      <p>Source: Federal Statistics Office</p>
      <div class="share-buttons"><a href="https://x.example/share">Share on X</a> <a href="https://fb.example/share">Share on Facebook</a></div></article>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 5: installers report');
    expect(markdown).toContain('A heat pump in front of a terraced house.');
    for (const furniture of ['Posted on 3 May 2022', 'Read also', 'Solar roofs for every new house', 'Photo: Max Miller', 'A fitter at work in Leipzig', 'Source: Federal Statistics Office', 'Share on Facebook']) {
      expect(markdown).not.toContain(furniture);
    }
  });

  it('keeps a short paragraph held in a named anchor, which links nowhere (no "read also" line)', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>${TITLE}</h1>${prose}
      <p><a name="waiting-lists">Fitters in the south book the furthest ahead.</a></p>${prose}</article>`);
    expect(main(html)).toContain('Fitters in the south book the furthest ahead.');
  });

  it('removes teaser cards of other pages and the heading left with nothing under it', () => {
    const cards = Array.from(
      { length: 3 },
      (_, index) => `<a class="more-link" href="/news/${index}"><h4>Other story ${index + 1}</h4><p>What the other story is about, in a line.</p></a>`,
    ).join('');
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>${TITLE}</h1>${prose}<h3>Also on Energy News</h3><div class="grid">${cards}</div></article>`);
    const markdown = main(html);
    expect(markdown).toContain('Paragraph 5: installers report');
    expect(markdown).not.toContain('Other story 2');
    expect(markdown).not.toContain('Also on Energy News');
  });

  it('keeps a name linked to its card inside a sentence (a span named a card is no teaser card there)', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>${TITLE}</h1>${prose}
      <p>Among the makers, <span class="display-card-hyperlink"><a href="https://example.org/db/heatwell">Heatwell Systems</a></span> doubled its output this spring, the trade body says.</p></article>`);
    const markdown = main(html);
    expect(markdown).toContain('Heatwell Systems');
    expect(markdown).toContain('doubled its output this spring');
  });

  it('keeps a page made of teasers whole rather than leaving it empty', () => {
    const cards = Array.from(
      { length: 6 },
      (_, index) =>
        `<div class="teaser"><a href="/news/${index}"><h2>Story ${index + 1} of the week</h2><p>A long summary of story ${index + 1}, which tells the reader what happened and why it matters to households.</p></a></div>`,
    ).join('');
    const html = page(`<nav><ul>${menu}</ul></nav><main><h1>This week’s stories</h1>${cards}</main>`);
    const markdown = main(html);
    expect(markdown).toContain('Story 6 of the week');
    expect(markdown).toContain('A long summary of story 3');
  });
});
