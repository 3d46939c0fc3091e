/**
 * Text is escaped only where Markdown would read it as syntax, as the PDF path escapes it: a hyphen or an equals
 * sign opening a text only as a list marker, a rule or a setext underline (negative figures, options and formulas
 * read as written in tables and chunks); an underscore only at a word's edge (`snake_case` as written); brackets
 * only where a link or a footnote could form (citations `[12]` as written).
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../../src/engine/markdown-html.js';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { markdownOf } from './helpers.js';

const markdown = (body: string) => markdownOf(htmlToModel(`<html><body>${body}</body></html>`, { onlyMainContent: false }));

describe('signs opening a text', () => {
  it('keeps negative figures, options and formulas in cells as written', () => {
    const table = '<table><tr><th>Item</th><th>Change</th><th>Flag</th></tr><tr><td>Revenue</td><td>-5%</td><td>--fast</td></tr><tr><td>=SUM(B2:B3)</td><td>-0.4</td><td>-v</td></tr></table>';
    expect(markdown(table)).toBe('| Item | Change | Flag |\n| --- | --- | --- |\n| Revenue | -5% | --fast |\n| =SUM(B2:B3) | -0.4 | -v |');
  });

  it('keeps a paragraph opening with a negative figure as written', () => {
    expect(markdown('<p>-20 °C was the lowest reading.</p>')).toBe('-20 °C was the lowest reading.');
  });

  it('still escapes what would be a list item, a rule or a setext underline', () => {
    expect(markdown('<p>- not a list</p><p>Text</p><p>---</p><p>Text</p><p>==</p>')).toBe('\\- not a list\n\nText\n\n\\---\n\nText\n\n\\==');
  });

  it('keeps underscores inside words and bracketed citations as written, and escapes what could pair or link', () => {
    expect(markdown('<p>Set max_retry_count as in [12] and [sic]. Not _this_, nor [a](b), nor [^1].</p>')).toBe(
      'Set max_retry_count as in [12] and [sic]. Not \\_this\\_, nor \\[a\\](b), nor \\[^1\\].',
    );
  });
});

describe('a < that could open markup', () => {
  it('is a character reference, so an HTML reader of the Markdown reads it as text', () => {
    const written = markdown('<p>The &lt;Table 1&gt; below and &lt;/p&gt; are text, as are a &lt; b and x&lt;3.</p>');
    expect(written).toBe('The &lt;Table 1> below and &lt;/p> are text, as are a < b and x<3.');
    // What reads the HTML out of docmill's Markdown (a parser, a sanitizer, a table extractor) knows no backslash
    // escape: to it `\<Table 1>` opened a table element, and `\</p>` was an end tag.
    const { document } = parseHTML(`<html><body><p>${written}</p></body></html>`);
    expect(document.querySelectorAll('table')).toHaveLength(0);
    expect(document.body.textContent).toBe('The <Table 1> below and </p> are text, as are a < b and x<3.');
  });

  it('reads as the character in the html output rendered from Markdown, as do backslash escapes', () => {
    const html = markdownToHtml('The &lt;Table 1> and AT&T, \\*not emphasis\\*, a \\[link\\](x).\n\n```\n&lt;kept>\n```');
    expect(html).toContain('<p>The &lt;Table 1&gt; and AT&amp;T, &#42;not emphasis&#42;, a &#91;link&#93;(x).</p>');
    expect(html).toContain('<pre><code>&amp;lt;kept&gt;</code></pre>');
  });
});
