/**
 * onlyMainContent and the FAQ a page declares in schema.org `FAQPage` JSON-LD: shown beside the article (an
 * accordion after it, outside the article's container), it is the page's content and is kept.
 */
import { describe, expect, it } from 'vitest';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { markdownOf } from './helpers.js';

const menu = Array.from({ length: 30 }, (_, index) => `<li><a href="/guides/${index}">Guide number ${index}</a></li>`).join('');
const prose = Array.from(
  { length: 6 },
  (_, index) => `<p>Part ${index + 1}: a heat pump moves heat from the outside air into the house, and in a mild winter it gives three to four units of heat for each unit of electricity it uses.</p>`,
).join('');
const faq: readonly (readonly [string, string])[] = [
  ['How long does a heat pump last?', 'A heat pump that is serviced every other year usually runs for fifteen to twenty years before its compressor needs replacing.'],
  ['Does a heat pump work in freezing weather?', 'Modern units keep heating down to minus twenty degrees, though they use more electricity the colder it gets outside.'],
  ['Can a heat pump cool the house in summer?', 'Yes: run in reverse, it moves heat out of the house and works as an air conditioner on the hottest days.'],
];
const jsonLd = (entries: readonly (readonly [string, string])[]) =>
  `<script type="application/ld+json">${JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: entries.map(([question, answer]) => ({ '@type': 'Question', name: question, acceptedAnswer: { '@type': 'Answer', text: answer } })),
  })}</script>`;
const page = (head: string, faqMarkup: string) =>
  `<!DOCTYPE html><html lang="en"><head><title>Heat pumps explained</title>${head}</head><body><nav><ul>${menu}</ul></nav>
  <div class="layout"><div class="post"><article><h1>Heat pumps explained</h1>${prose}</article></div>
  <div class="widget">${faqMarkup}</div></div><footer><ul>${menu}</ul></footer></body></html>`;
const accordion = (answers: boolean) =>
  `<h2>Frequently asked questions</h2>${faq
    .map(([question, answer]) => `<div class="accordion-item"><button class="accordion-toggle"><h3>${question}</h3></button>${answers ? `<div class="accordion-panel">${answer}</div>` : ''}</div>`)
    .join('')}`;
const main = (html: string) => markdownOf(htmlToModel(html, { onlyMainContent: true }));

describe('the FAQ a page declares in its JSON-LD', () => {
  it('keeps the questions and answers shown beside the article, with their title', () => {
    const markdown = main(page(jsonLd(faq), accordion(true)));
    expect(markdown).toContain('Part 6: a heat pump');
    expect(markdown).toContain('Frequently asked questions');
    expect(markdown).toContain('Does a heat pump work in freezing weather?');
    expect(markdown).toContain('it moves heat out of the house and works as an air conditioner');
    expect(markdown).not.toContain('Guide number 3');
  });

  it('keeps the answers folded away (hidden until their toggle is pressed) and the questions on the toggles', () => {
    const folded = `<h2>Frequently asked questions</h2>${faq
      .map(([question, answer]) => `<div class="faq-item"><button class="faq-button" aria-expanded="false">${question}</button><div class="faq-answer" hidden>${answer}</div></div>`)
      .join('')}`;
    const markdown = main(page(jsonLd(faq), folded));
    expect(markdown).toContain('Does a heat pump work in freezing weather?');
    expect(markdown).toContain('it moves heat out of the house and works as an air conditioner');
  });

  it('reads a declaration whose answers hold raw line breaks (invalid JSON, yet common)', () => {
    const broken = faq.map(([question, answer]) => [question, answer.replace(', though', ',\nthough')] as const);
    const head = jsonLd(broken).replaceAll('\\n', '\n');
    expect(head).toContain('degrees,\nthough');
    const markdown = main(page(head, accordion(true)));
    expect(markdown).toContain('it moves heat out of the house and works as an air conditioner');
  });

  it('leaves the block out when the page declares no FAQ', () => {
    const markdown = main(page('', accordion(true)));
    expect(markdown).toContain('Part 6: a heat pump');
    expect(markdown).not.toContain('works as an air conditioner');
  });

  it('leaves the questions out when the page shows them without their answers (a script fills them in)', () => {
    const markdown = main(page(jsonLd(faq), accordion(false)));
    expect(markdown).toContain('Part 6: a heat pump');
    expect(markdown).not.toContain('Does a heat pump work in freezing weather?');
  });
});
