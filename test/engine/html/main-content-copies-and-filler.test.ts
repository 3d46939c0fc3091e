/**
 * onlyMainContent on pages that hold text no reader sees twice or at all: a page builder's copies of one section
 * (one per screen size, all but one hidden by CSS), and a template's "Lorem ipsum" filler left on the page.
 */
import { describe, expect, it } from 'vitest';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { markdownOf } from './helpers.js';

const page = (body: string) => `<!DOCTYPE html><html lang="en"><head><title>Planning a kitchen remodel</title></head><body>${body}</body></html>`;
const main = (html: string) => markdownOf(htmlToModel(html, { onlyMainContent: true }));
const occurrences = (text: string, part: string) => text.split(part).length - 1;

const paragraphs = [
  'A kitchen remodel starts with a budget that leaves a fifth aside for what the walls hide once they are opened.',
  'Cabinets and counters take the largest share; appliances follow, and labour is priced by the week in most towns.',
  'Permits are needed for any change to the wiring, the plumbing or a load-bearing wall, and inspections follow each.',
  'Order the cabinets early: their delivery sets the date of everything after them, from the counters to the paint.',
  'Keep a room with a sink and a kettle for the weeks without a kitchen, and plan simple meals for that time.',
];
const section = `<h2>Before the work starts</h2>${paragraphs.map((text) => `<p>${text}</p>`).join('')}`;

describe("a page builder's copies of one section", () => {
  it('keeps one copy of a section rendered once per screen size', () => {
    const html = page(`<main><article><h1>Planning a kitchen remodel</h1><p>What to settle before the first wall comes down.</p>
      <div class="rich-text"><div class="variant variant-desktop">${section}</div><div class="variant variant-tablet">${section}</div><div class="variant variant-phone">${section}</div></div>
      </article></main>`);
    const markdown = main(html);
    for (const text of paragraphs) expect(occurrences(markdown, text)).toBe(1);
    expect(occurrences(markdown, 'Before the work starts')).toBe(1);
  });

  it('keeps a short passage the author repeats, a legend under each of two tables', () => {
    const legend = 'Prices include labour and tax.';
    const table = (room: string) => `<table><tr><th>Item</th><th>Price</th></tr><tr><td>${room} cabinets</td><td>$4,000</td></tr></table>`;
    const html = page(`<main><article><h1>Planning a kitchen remodel</h1>${paragraphs.map((text) => `<p>${text}</p>`).join('')}
      <div class="tables">${table('Kitchen')}<p>${legend}</p>${table('Pantry')}<p>${legend}</p></div></article></main>`);
    expect(occurrences(main(html), legend)).toBe(2);
  });
});

describe("a template's filler text", () => {
  const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.';

  it('drops "Lorem ipsum" blocks left in the article and keeps the article', () => {
    const html = page(`<main><article><h1>Planning a kitchen remodel</h1>${paragraphs.map((text) => `<p>${text}</p>`).join('')}
      <div class="tabs"><div class="tab"><p>${filler}</p><ul><li>${filler}</li><li>${filler}</li></ul></div></div>
      <p>Ask three builders for a quote and compare what each includes before you compare the totals.</p></article></main>`);
    const markdown = main(html);
    expect(markdown).not.toContain('Lorem ipsum');
    for (const text of paragraphs) expect(markdown).toContain(text);
    expect(markdown).toContain('Ask three builders for a quote');
  });

  it('keeps a page that is nothing but filler (a template shown as it is)', () => {
    const html = page(`<main><article><h1>Template</h1><p>${filler}</p><p>${filler} Ut enim ad minim veniam.</p></article></main>`);
    expect(main(html)).toContain('Lorem ipsum dolor sit amet');
  });
});
