/**
 * A book that writes no heading tag, its chapter and section titles set by its style sheet alone (as InDesign and
 * LibreOffice export them: `<p class="Chapter-Title">`, `<p><span class="span0">`), keeps its outline.
 */
import { describe, expect, it } from 'vitest';
import { convertEpub } from '../../../src/engine/epub/convert-epub.js';
import { input, markdownOf } from '../html/helpers.js';
import { makeEpub } from './make-epub.js';

const SENTENCE = 'The expedition left the harbour at dawn and reached the northern cape by nightfall.';
const CSS = '/* exported */ .Body { font-size: 1em; } .Chapter-Title { font-size: 2em; font-weight: bold; } p.Section-Head, .subhead { font-weight: 700; font-size: 1.3em } .span0 { font-size: 18pt; font-weight: bold; }';

describe('headings set by a style sheet', () => {
  it('reads paragraphs whose classes set them large or bold, on lines of their own, as headings ranked by their size (2em, 18pt, 1.3em)', async () => {
    const body =
      '<p class="Chapter-Title">The Voyage</p>' +
      `<p class="Body">${SENTENCE}</p>` +
      '<p class="Section-Head">Provisions</p>' +
      `<p class="Body">${SENTENCE}</p><p class="Body">${SENTENCE}</p>` +
      '<div><p><span class="span0">Landfall</span></p></div>' +
      `<p class="Body">${SENTENCE}</p>`;
    const book = makeEpub({ chapters: [{ id: 'c1', href: 'ch1.xhtml', body }], stylesheets: { 'styles/book.css': CSS } });
    expect(markdownOf(await convertEpub(input(book, {}, 'voyage.epub')))).toBe(
      `# The Voyage\n\n${SENTENCE}\n\n### Provisions\n\n${SENTENCE}\n\n${SENTENCE}\n\n## Landfall\n\n${SENTENCE}`,
    );
  });

  it('leaves a book that writes heading tags as its tags say', async () => {
    const body = `<h1>The Voyage</h1><p class="Body">${SENTENCE}</p><p class="Section-Head">Provisions</p><p class="Body">${SENTENCE}</p>`;
    const book = makeEpub({ chapters: [{ id: 'c1', href: 'ch1.xhtml', body }], stylesheets: { 'book.css': CSS } });
    expect(markdownOf(await convertEpub(input(book, {}, 'voyage.epub')))).toBe(`# The Voyage\n\n${SENTENCE}\n\nProvisions\n\n${SENTENCE}`);
  });
});
