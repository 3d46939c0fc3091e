/**
 * onlyMainContent on articles followed by a section of teasers for the site's other pages under a heading that
 * announces them ("Related articles", "Read next", "You might also like"), its cards marked up as plain blocks (a
 * title heading, an excerpt, a picture link beside them). The web-page benchmark (bench/html-main-content.ts) showed
 * them kept as article text; a heading that may head the article's own list ("Related resources") stays. So is the
 * author's biography under its heading ("About the author", "Written by …") at the end of a post.
 */
import { describe, expect, it } from 'vitest';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { markdownOf } from './helpers.js';

const TITLE = 'Choosing an online MBA';
const page = (body: string) => `<!DOCTYPE html><html lang="en"><head><title>${TITLE}</title></head><body>${body}</body></html>`;
const main = (html: string) => markdownOf(htmlToModel(html, { onlyMainContent: true }));
const prose = Array.from(
  { length: 8 },
  (_, index) =>
    `<p>Point ${index + 1}: compare the programme's accreditation, its cost per credit and the support its career centre gives before you apply to it.</p>`,
).join('');
const card = (title: string) =>
  `<div class="x-card"><a class="x-link" href="/other/${title.length}"><img src="/${title.length}.jpg" alt=""></a><div><h3>${title}</h3><p>A short excerpt of the other page, telling readers why they might want to open it next.</p></div></div>`;
const cards = ['Getting in with a low GPA', 'Ten online colleges compared', 'Affordable master’s degrees'].map(card).join('');

describe('sections of teasers for other pages, and the author’s biography', () => {
  it('removes a "Related articles" section of cards and keeps the article before it', () => {
    const markdown = main(page(`<article><h1>${TITLE}</h1>${prose}<section><h2>Related articles that may interest you</h2><div class="grid">${cards}</div></section></article>`));
    expect(markdown).toContain('Point 8: compare the programme');
    expect(markdown).not.toContain('Related articles');
    expect(markdown).not.toContain('Getting in with a low GPA');
    expect(markdown).not.toContain('A short excerpt of the other page');
  });

  it('removes a "Read next" heading set alone in its column, with the cards beside it', () => {
    const markdown = main(page(`<article><h1>${TITLE}</h1>${prose}<div class="row"><div class="col"><h2>Read Next</h2></div>${cards}</div></article>`));
    expect(markdown).toContain('Point 8: compare the programme');
    expect(markdown).not.toContain('Read Next');
    expect(markdown).not.toContain('Ten online colleges compared');
  });

  it('removes the author’s biography under an "About the author" or "Written by" heading', () => {
    for (const heading of ['About the Author', 'Written by Dana Miles']) {
      const markdown = main(
        page(`<article><h1>${TITLE}</h1>${prose}<div class="x-3"><h3>${heading}</h3><p>Dana Miles is a careers writer who has covered higher education for ten years, with bylines in regional papers.</p></div></article>`),
      );
      expect(markdown).toContain('Point 8: compare the programme');
      expect(markdown).not.toContain(heading);
      expect(markdown).not.toContain('careers writer');
    }
  });

  it('keeps what follows the teasers’ own block, and a list of the article’s own resources', () => {
    const markdown = main(
      page(`<article><h1>${TITLE}</h1>${prose}<section><h2>You might also like</h2>${cards}</section><h3>Program costs</h3>${prose.replace(/Point/g, 'Cost')}
        <h2>Related resources</h2><ul><li><a href="https://example.org/a">Accreditation bodies</a>: who checks a programme's standards, and how often they do.</li><li><a href="https://example.org/b">Federal student aid</a>: the grants and loans an online student may apply for.</li></ul></article>`),
    );
    expect(markdown).not.toContain('You might also like');
    expect(markdown).toContain('Program costs');
    expect(markdown).toContain('Cost 8: compare the programme');
    expect(markdown).toContain('Related resources');
    expect(markdown).toContain('Federal student aid');
  });
});
