/**
 * A page drawn by its scripts is read as a browser with scripts off shows it: its `<noscript>` content, where that
 * holds the page (a forum thread served to readers without scripts). Elsewhere `<noscript>` stays out.
 */
import { describe, expect, it } from 'vitest';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { markdownOf } from './helpers.js';

const post = (author: string, index: number) =>
  `<div class="topic-body crawler-post"><div class="crawler-post-meta"><span class="creator"><a href="/u/${author}">${author}</a></span></div>
   <div class="post"><p>Post ${index} by ${author}: the new ferry timetable leaves the island without an evening boat on Sundays, and the
   harbour office says the change was made to save fuel over the winter months.</p></div></div>`;

const scriptDrawnThread = `<!DOCTYPE html><html lang="en"><head><title>Sunday evening ferry - Island forum</title>
  <script src="/assets/app.js"></script></head><body>
  <noscript><img src="/pixel.gif" alt=""></noscript>
  <section id="main"></section>
  <noscript data-path="/t/sunday-evening-ferry/123"><header><a href="/">Island forum</a></header>
    <div id="main-outlet" class="wrap" role="main"><h1>Sunday evening ferry</h1>
    ${['ana', 'ben', 'cleo', 'dev'].map((author, index) => post(author, index + 1)).join('')}</div>
    <footer class="container wrap"><nav class="crawler-nav"><a href="/">Home</a> <a href="/categories">Categories</a></nav></footer>
  </noscript>
  <script>window.app.start()</script></body></html>`;

describe('content given to readers without scripts', () => {
  it('reads a script-drawn thread from its <noscript> content, with onlyMainContent and without', () => {
    const main = markdownOf(htmlToModel(scriptDrawnThread));
    expect(main).toContain('Sunday evening ferry');
    expect(main).toContain('Post 1 by ana: the new ferry timetable');
    expect(main).toContain('Post 4 by dev: the new ferry timetable');
    const whole = markdownOf(htmlToModel(scriptDrawnThread, { onlyMainContent: false }));
    expect(whole).toContain('Post 2 by ben');
  });

  it('leaves <noscript> notes and image copies out of a page that shows its content', () => {
    const prose = Array.from({ length: 4 }, (_, index) => `<p>Paragraph ${index + 1}: the ferry office moved to the old customs house on the quay, next to the lifeboat station and the fish market.</p>`).join('');
    const html = `<!DOCTYPE html><html lang="en"><head><title>The ferry office</title></head><body><main><article><h1>The ferry office</h1>${prose}
      <noscript><p>This site works best with JavaScript enabled. Please turn it on in your browser settings to see maps, timetables and live departures.</p>
      <img src="/office.jpg" alt="The ferry office on the quay"></noscript></article></main></body></html>`;
    for (const onlyMainContent of [true, false]) {
      const markdown = markdownOf(htmlToModel(html, { onlyMainContent }));
      expect(markdown).toContain('Paragraph 4: the ferry office moved');
      expect(markdown).not.toContain('works best with JavaScript');
    }
  });
});
