/**
 * onlyMainContent on hand-written pages carrying the publisher's notices inside the article, which the web-page
 * benchmark (bench/html-main-content.ts) showed kept as article text: affiliate disclosures, picture credits.
 */
import { describe, expect, it } from 'vitest';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { markdownOf } from './helpers.js';

const TITLE = 'The best kettles we tested this year';
const page = (body: string) => `<!DOCTYPE html><html lang="en"><head><title>${TITLE}</title></head><body>${body}</body></html>`;
const main = (html: string) => markdownOf(htmlToModel(html, { onlyMainContent: true }));
const menu = Array.from({ length: 30 }, (_, index) => `<li><a href="/guides/${index}">Buying guide number ${index}</a></li>`).join('');
const prose = Array.from(
  { length: 5 },
  (_, index) =>
    `<p>Kettle ${index + 1}: we boiled a full litre twenty times, timed each run and measured how hot the handle and the outside of the jug became.</p>`,
).join('');

describe('affiliate disclosures', () => {
  it('removes the note that the site earns a commission on purchases, above and under the article', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>${TITLE}</h1>
      <p><em>This post contains affiliate links. If you buy through them, we may earn a small commission at no extra cost to you.</em></p>
      ${prose}
      <div class="note">As an Amazon Associate I earn from qualifying purchases.</div></article>`);
    const markdown = main(html);
    expect(markdown).toContain('Kettle 1: we boiled a full litre');
    expect(markdown).toContain('Kettle 5: we boiled a full litre');
    expect(markdown).not.toContain('affiliate links');
    expect(markdown).not.toContain('qualifying purchases');
  });

  it('keeps an article’s own sentences about affiliate marketing', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>${TITLE}</h1>${prose}
      <p>Many shops pay bloggers through affiliate links: a reader who clicks and buys earns the blogger a commission, which is why disclosures matter.</p></article>`);
    expect(main(html)).toContain('Many shops pay bloggers through affiliate links');
  });
});

describe('picture credits', () => {
  it('removes credit lines naming the picture library after the photographer, and "Image credit:" lines', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>${TITLE}</h1>
      <figure><img src="/kettle.jpg" alt=""><figcaption>The steel kettle on a gas hob. <span>Jane Smith / Getty Images</span></figcaption></figure>
      ${prose}
      <p>Image credit: Studio North</p>
      <figure><img src="/jug.jpg" alt=""><figcaption><span>Kettle Studio via Getty Images</span></figcaption></figure></article>`);
    const markdown = main(html);
    expect(markdown).toContain('The steel kettle on a gas hob.');
    expect(markdown).toContain('Kettle 5: we boiled a full litre');
    for (const credit of ['Getty Images', 'Image credit', 'Studio North']) expect(markdown).not.toContain(credit);
  });
});

describe('picture credits after a caption’s sentence, in brackets, or lent by someone', () => {
  it('removes "Photo: Name" after the caption, "(Image credit: …)" and "Courtesy of …", and keeps the caption', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>${TITLE}</h1>
      <figure><img src="/kettle.jpg" alt=""><figcaption><p>The steel kettle on a gas hob. Photo: Studio North/Jane Smith</p></figcaption></figure>
      ${prose}
      <figure><img src="/jug.jpg" alt=""><figcaption>(Image credit: Kettle Review Lab)</figcaption></figure>
      <div class="product-card"><img src="/glass.jpg" alt=""><div class="product-note">Courtesy of brand</div></div></article>`);
    const markdown = main(html);
    expect(markdown).toContain('The steel kettle on a gas hob.');
    expect(markdown).toContain('Kettle 5: we boiled a full litre');
    for (const credit of ['Photo:', 'Jane Smith', 'Image credit', 'Courtesy of brand']) expect(markdown).not.toContain(credit);
  });
});
