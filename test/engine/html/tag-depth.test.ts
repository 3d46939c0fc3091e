/**
 * Markup nesting past Chromium's 512 open elements is made shallow before it is parsed: the parser's time grew with
 * the square of the depth (100,000 unclosed `<div>`s: 17 s), and the flattened page's hundred thousand nodes
 * overflowed the stack of a thread with a small one, which left the page empty.
 */
import { describe, expect, it } from 'vitest';
import { htmlToModel } from '../../../src/engine/html/convert-html.js';
import { MAX_PARSE_DEPTH, withinParseDepth } from '../../../src/engine/html/tag-depth.js';
import { markdownOf } from './helpers.js';

const count = (markup: string, pattern: RegExp) => (markup.match(pattern) ?? []).length;

describe('markup nested past the parse depth', () => {
  it('keeps the first 512 of 100,000 unclosed <div>s, and a line break for each one left out', () => {
    const markup = `<html><body>${'<div>line\n'.repeat(100_000)}</body></html>`;
    const shallow = withinParseDepth(markup);
    expect(count(shallow, /<div>/g)).toBe(MAX_PARSE_DEPTH);
    expect(count(shallow, /<br>/g)).toBe(100_000 - MAX_PARSE_DEPTH);
    expect(count(shallow, /line\n/g)).toBe(100_000);
  });

  it('reads every line of that page, in order, each on its own', () => {
    const markup = `<html><body>${Array.from({ length: 100_000 }, (_, i) => `<div>line ${i}\n`).join('')}</body></html>`;
    const markdown = markdownOf(htmlToModel(markup, { onlyMainContent: false }));
    const lines = markdown.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(100_000);
    expect(lines.every((line, i) => line.trim() === `line ${i}`)).toBe(true);
  });

  it('leaves end tags of the elements it kept where they were, and drops those of the ones it left out', () => {
    const depth = MAX_PARSE_DEPTH + 3;
    const markup = `<body>${'<section>'.repeat(depth)}deep${'</section>'.repeat(depth)}<p>after</p></body>`;
    const shallow = withinParseDepth(markup);
    expect(shallow).toBe(`<body>${'<section>'.repeat(MAX_PARSE_DEPTH)}<br><br><br>deep${'</section>'.repeat(MAX_PARSE_DEPTH)}<p>after</p></body>`);
  });

  it('returns pages that do not nest that deep as they came: unclosed paragraphs and items, void tags, siblings, scripts', () => {
    const pages = [
      `<body>${'<p>para\n'.repeat(5_000)}</body>`,
      `<body><ul>${'<li>item\n'.repeat(5_000)}</ul></body>`,
      `<body>${'<div>x</div><br><img src="a.png"><span>y</span>'.repeat(5_000)}</body>`,
      `<body><script>${'document.write("<div>");'.repeat(5_000)}</script><!-- ${'<div>'.repeat(1_000)} --><p>text</p></body>`,
      `<body><table>${'<tr><td>a<td>b'.repeat(3_000)}</table></body>`,
    ];
    for (const page of pages) expect(withinParseDepth(page)).toBe(page);
  });
});
