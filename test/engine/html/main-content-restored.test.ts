/**
 * onlyMainContent on hand-written pages where what readability dropped was restored wrongly or not at all: a
 * listing's excerpt taken for the lead, a second copy of the article taken for a standfirst; section headings
 * dropped for a class name readability takes for chrome; jump links written with the page's own address, taken for
 * teaser cards of other pages; a fragment of the article judged whole for the title heading restored beside it; the
 * title said twice, in the heading and in a paragraph beside it.
 */
import { describe, expect, it } from 'vitest';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { markdownOf } from './helpers.js';

const TITLE = 'Choosing an electric car';
const page = (body: string) => `<!DOCTYPE html><html lang="en"><head><title>${TITLE} | Drive Guide</title></head><body>${body}</body></html>`;
const main = (html: string) => markdownOf(htmlToModel(html, { onlyMainContent: true }));
const menu = Array.from({ length: 30 }, (_, index) => `<li><a href="/guides/${index}">Guide number ${index}</a></li>`).join('');
const sentences = [
  'Most battery cars now cover well over two hundred miles on a charge, more than a week of commuting for most drivers.',
  'Charging at home overnight costs a fraction of a tank of petrol, and public rapid chargers fill the gaps on long trips.',
  'Servicing is cheaper too: there is no oil to change, and the brakes wear slowly because the motor slows the car.',
  'Second-hand prices have fallen this year, so a three-year-old model is now within reach of many households.',
  'Insurers still charge a little more for electric cars, although the gap has narrowed as repairers gained experience.',
] as const;
const prose = sentences.map((sentence) => `<p>${sentence}</p>`).join('');
const count = (text: string, part: string) => text.split(part).length - 1;

describe('the article’s lead', () => {
  it('leaves out a post’s excerpt (the listing’s teaser of it) above the article', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><header><h1>${TITLE}</h1>
      <div class="post-excerpt">Everything you need to know before you swap your petrol car for a battery one, in five minutes.</div></header>
      <div class="entry-content">${prose}</div></article></main>`);
    const markdown = main(html);
    expect(markdown).toContain(sentences[0]);
    expect(markdown).toContain(sentences[4]);
    expect(markdown).not.toContain('Everything you need to know before you swap');
  });

  it('keeps each paragraph once when the page holds a second copy of the article before the one readability takes', () => {
    const copy = sentences.slice(0, 3).map((sentence) => `<p>${sentence}</p>`).join('');
    const html = page(`<nav><ul>${menu}</ul></nav><div class="hero"><h1>${TITLE}</h1><div class="info">By Jane Doe</div></div>
      <div class="content-wrap"><div class="left"><div class="rich-text">${copy}</div></div></div>
      <div class="post-main"><div class="post-main__article"><h1>${TITLE}</h1><div class="post-main__rich-text">${prose}</div></div></div>`);
    const markdown = main(html);
    for (const sentence of sentences) expect(count(markdown, sentence)).toBe(1);
  });
});

describe('section headings', () => {
  it('keeps section headings readability drops for a class name it takes for page chrome, when it keeps their sections', () => {
    const sections = ['Why choose an electric car', 'How to pay for one', 'Where to charge'];
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>${TITLE}</h1><div class="intro"><p>${sentences[4]}</p><p>${sentences[3]}</p></div>${sections
      .map((heading, index) => `<div class="module blurb"><h2 class="module_header">${heading}</h2><div class="description"><p>${sentences[index]}</p><p>${sentences[index + 1]}</p></div></div>`)
      .join('')}</article>`);
    const markdown = main(html);
    for (const heading of sections) expect(markdown).toContain(`## ${heading}`);
    expect(markdown.indexOf('## How to pay for one')).toBeLessThan(markdown.indexOf(sentences[2]));
  });

  it('keeps headings wrapped in a jump link written with the page’s own address (not a teaser of another page)', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><article><h1>${TITLE}</h1>
      <ul class="jump-links"><li><a href="/guides/electric-cars#range">Range</a></li><li><a href="/guides/electric-cars#costs">Running costs</a></li></ul>
      <a href="/guides/electric-cars#range" id="range"><h2>How far they go</h2></a>${sentences.slice(0, 2).map((sentence) => `<p>${sentence}</p>`).join('')}
      <a href="/guides/electric-cars#costs" id="costs"><h2>What they cost to run</h2></a>${sentences.slice(2).map((sentence) => `<p>${sentence}</p>`).join('')}
      <div class="more"><a href="/guides/hybrids"><h3>Hybrids explained</h3></a></div></article>`);
    const markdown = main(html);
    expect(markdown).toContain('How far they go');
    expect(markdown).toContain('What they cost to run');
    expect(markdown).toContain(sentences[4]);
    expect(markdown).not.toContain('Hybrids explained');
  });
});

describe('an article readability finds only a fragment of', () => {
  it('is widened to its <main> although the title heading restored beside it lies outside, which stays', () => {
    const others = Array.from({ length: 60 }, (_, index) => `<li><a href="/questions/${index}">Another question people asked about cooking number ${index}</a></li>`).join('');
    const answer = [
      'Check everything, then check it again: test every recipe at full size and write down what can be made the day before without losing quality.',
      'Keep one checklist for what travels with you: food, cooking and serving utensils, plates, decoration and the gear to clean up afterwards.',
      'Visit the place before the day and make sure there is room in the fridge and on the stove for what you bring, and that you can park near the door.',
    ];
    const html = `<!DOCTYPE html><html lang="en"><head><title>Catering an event for the first time</title></head><body><header><nav><ul>${others.slice(0, 2000)}</ul></nav></header>
      <div id="content"><div class="question-header"><h1><a href="/questions/1/catering">Catering an event for the first time</a></h1></div>
      <main><div class="entry"><p>I am starting a small catering service and my first event is for forty people next month. What should I prepare?</p></div>
      <h2>2 replies</h2><div class="entry">${answer.map((text) => `<p>${text}</p>`).join('')}</div>
      <div class="entry"><p>Bring twice the napkins you think you need, and a roll of foil: something always spills, and guests take food home.</p></div></main>
      <div class="side"><h2>Hot questions</h2><ul>${others}</ul></div></div></body></html>`;
    const markdown = main(html);
    expect(markdown.startsWith('# [Catering an event for the first time]')).toBe(true);
    for (const text of ['I am starting a small catering service', '## 2 replies', answer[2], 'Bring twice the napkins']) expect(markdown).toContain(text);
    expect(markdown).not.toContain('Hot questions');
  });
});

describe('the title said twice', () => {
  it('removes a paragraph repeating the title heading just before or after it, and keeps the heading', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><p class="kicker-x">${TITLE}</p><h1>${TITLE}</h1>${prose}</article></main>`);
    const markdown = main(html);
    expect(count(markdown, TITLE)).toBe(1);
    expect(markdown).toContain(`# ${TITLE}`);
    expect(markdown).toContain(sentences[4]);
  });

  it('keeps the title’s words in a paragraph further down the article', () => {
    const html = page(`<nav><ul>${menu}</ul></nav><main><article><h1>${TITLE}</h1>${prose}<p>${TITLE}</p>${prose}</article></main>`);
    expect(count(main(html), TITLE)).toBe(2);
  });
});
