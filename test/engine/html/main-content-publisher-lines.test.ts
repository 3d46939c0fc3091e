/**
 * onlyMainContent on pages whose article carries the publisher's lines to the reader (publisher-lines.ts): sign-up
 * and follow calls, comment and paywall notes, reading-time lines, the labels of the page's controls, date lines. The web-page benchmark (bench/html-main-content.ts)
 * showed them kept as article text; the article's own sentences on the same subjects stay.
 */
import { describe, expect, it } from 'vitest';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { publisherLineKind } from '../../../src/engine/html/publisher-lines.js';
import { markdownOf } from './helpers.js';

const TITLE = 'How we restored a 1930s radio';
const page = (body: string) => `<!DOCTYPE html><html lang="en"><head><title>${TITLE}</title></head><body>${body}</body></html>`;
const main = (html: string) => markdownOf(htmlToModel(html, { onlyMainContent: true }));
/** The text a reader sees: links reduced to their words. */
const visible = (markdown: string) => markdown.replace(/\]\([^)]*\)/g, '').replace(/\[/g, '');
const menu = Array.from({ length: 30 }, (_, index) => `<li><a href="/projects/${index}">Project number ${index}</a></li>`).join('');
const prose = Array.from(
  { length: 5 },
  (_, index) =>
    `<p>Step ${index + 1}: we took the chassis out of the cabinet, cleaned every contact and replaced the paper capacitors one by one before powering it up.</p>`,
).join('');
const article = (inside: string) => page(`<nav><ul>${menu}</ul></nav><article><h1>${TITLE}</h1>${inside}</article>`);

describe('the publisher’s lines to the reader', () => {
  it('removes a newsletter sign-up, a follow call, a comment note and a reading time, and keeps the article', () => {
    const markdown = main(
      article(`<p>6 min read</p>${prose}
        <p><em>Love old radios? Our workshop newsletter has the best repairs, delivered straight to your inbox. <a href="/newsletter">Sign up now</a>.</em></p>
        <p>Follow us on <a href="https://instagram.com/x">Instagram</a> and <a href="https://facebook.com/x">Facebook</a> for more restorations!</p>
        <p>Comments are closed for this post, but feel free to contact us with corrections.</p>`),
    );
    expect(markdown).toContain('Step 1: we took the chassis out');
    expect(markdown).toContain('Step 5: we took the chassis out');
    for (const line of ['6 min read', 'newsletter', 'Follow us', 'Comments are closed']) expect(markdown).not.toContain(line);
  });

  it('removes the paywall note offering the rest of the story to subscribers', () => {
    const markdown = main(article(`${prose}<p>To read the rest of this story subscribe to Radio Weekly Plus.</p>`));
    expect(markdown).toContain('Step 5: we took the chassis out');
    expect(markdown).not.toContain('To read the rest');
  });

  it('keeps the article’s own sentences about newsletters and social networks', () => {
    const own = [
      'Collectors trade parts on forums, subscribe to industry newsletters and follow auctions to find a matching dial.',
      'I hope this helps with your own set. If you get stuck, ask on the collectors’ forum. I answer most questions there. You can also follow me on Mastodon.',
    ];
    const markdown = main(article(`${prose}${own.map((text) => `<p>${text}</p>`).join('')}`));
    for (const text of own) expect(markdown).toContain(text.slice(0, 40));
  });

  it('removes the labels of the page’s controls left as text, and keeps a link of the same words inside a sentence', () => {
    const markdown = visible(main(
      article(`<p><a href="#toc">Table of contents</a></p>${prose}<p><a href="/projects/next">Read more</a></p><p><button>Show more</button></p>
        <p>We kept the original dial glass: <a href="/dial">read more</a> about how we cleaned it without lifting the printing.</p>
        <p><a href="#top">Back to top</a></p><div class="x-row"><span>Share</span></div><p>Tags: valves, restoration, capacitors</p>`),
    ));
    expect(markdown).toContain('Step 5: we took the chassis out');
    expect(markdown).toContain('We kept the original dial glass: read more about how we cleaned it');
    for (const label of ['Table of contents', 'Read more', 'Show more', 'Back to top', 'Share', 'Tags:']) expect(markdown).not.toContain(label);
  });

  it('keeps the site’s handle in the author’s own sentence, set in spans', () => {
    const markdown = main(
      article(`${prose}<p><em><span>Welcome to the workshop notes. I have repaired radios for thirty years. I invite you to comment and </span><a href="https://example.org/me">connect with me on LinkedIn</a><span>.</span></em></p>`),
    );
    expect(markdown).toContain('connect with me on LinkedIn');
  });

  it('removes the post’s date marked up as a <time>, alone or after a label, and keeps dates in sentences and in a programme', () => {
    const markdown = main(
      article(`<p><time datetime="2025-03-04">March 4, 2025</time></p>${prose}
        <p>We first switched it on again on <time datetime="2024-11-02">2 November 2024</time>, and it played at once.</p>
        <ul><li><time datetime="2025-05-10">May 10, 2025</time> Radio fair in the town hall</li><li><time datetime="2025-06-14">June 14, 2025</time> Repair café</li></ul>
        <div class="x-9"><span>Last updated on</span> <time datetime="2025-03-05">March 5, 2025</time></div>`),
    );
    expect(markdown).toContain('Step 5: we took the chassis out');
    expect(markdown).toContain('switched it on again on 2 November 2024');
    expect(markdown).toContain('Radio fair in the town hall');
    expect(markdown).toContain('Repair café');
    expect(markdown).not.toContain('March 4, 2025');
    expect(markdown).not.toContain('Last updated');
  });

  it('removes the post’s date written out without a <time>, alone or after a label, and keeps dated entries, a listing’s dates and a diary’s dated headings', () => {
    const markdown = main(
      article(`<p class="x-1">Published on June 23, 2025 10:39AM</p>${prose}
        <p>We first switched it on again on 2 November 2024, and it played at once.</p>
        <ul><li><div>May 10, 2025</div><h3>Radio fair in the town hall</h3></li><li><div>June 14, 2025</div><h3>Repair café</h3></li></ul>
        <div class="x-9"><span>Last updated on September 16th, 2023 at 09:27 am</span></div>`),
    );
    expect(markdown).toContain('Step 5: we took the chassis out');
    expect(markdown).toContain('switched it on again on 2 November 2024');
    expect(markdown).toContain('May 10, 2025');
    expect(markdown).toContain('Repair café');
    expect(markdown).not.toContain('June 23, 2025');
    expect(markdown).not.toContain('Last updated');

    const listing = main(article(`${prose}${['March 3, 2025', 'March 4, 2025', 'March 5, 2025'].map((date) => `<div class="x-2"><div><a href="/r/${date.length}">Another repair</a></div><div>Updated ${date}</div></div>`).join('')}`));
    expect(listing).toContain('Updated March 3, 2025');
    expect(listing).toContain('Updated March 5, 2025');

    const diary = main(article(`<h2>Monday, March 3, 2025</h2>${prose}<h2>Tuesday, March 4, 2025</h2>${prose}`));
    expect(diary).toContain('Monday, March 3, 2025');
    expect(diary).toContain('Tuesday, March 4, 2025');
  });

  it('names the kind of each line, and none for a long paragraph', () => {
    expect(publisherLineKind('Sign up for our newsletter')).toBe('sign-up');
    expect(publisherLineKind('Abonnieren Sie unseren Newsletter')).toBe('sign-up');
    expect(publisherLineKind('Suivez-nous sur Instagram')).toBe('follow');
    expect(publisherLineKind('By posting a comment, you consent to our privacy policy.')).toBe('comments');
    expect(publisherLineKind('Lesezeit: 4 Minuten')).toBe('reading-time');
    expect(publisherLineKind('Weiterlesen')).toBe('control');
    expect(publisherLineKind('Share this article:')).toBe('control');
    expect(publisherLineKind('Tags: Employment, Health & Fitness')).toBe('tags');
    expect(publisherLineKind('Tagged releases are built every night.')).toBeNull();
    expect(publisherLineKind(`Sign up for our newsletter. ${'The radio hums. '.repeat(30)}`)).toBeNull();
  });
});
