/**
 * A web page as a browser's "Save as PDF" prints it (`test/fixtures/printed/web-article.pdf`, Chromium from
 * `web-article.html` beside it, with its header and footer): paragraphs open with a term in bold in a face that has
 * the regular face's metrics and glyph codes, and citation marks are superscripts, which set their lines lower.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderDocument } from '../../../src/engine/render.js';
import { allBlocks, convertBytes, mainMarkdown, optionsFor } from './helpers.js';

const fixture = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/web-article.pdf', import.meta.url)));
const read = async () => convertBytes(fixture(), { mode: 'fast' });
const paragraphs = async () => allBlocks(await read()).filter((block) => block.type === 'text').map((block) => block.markdown);

describe('a web page printed by a browser', () => {
  it('reads a paragraph opening with a term in bold as one paragraph, its first line wrapped', async () => {
    const texts = await paragraphs();
    expect(texts).toContainEqual(expect.stringMatching(/^Herons are long-legged, .* with about seventy recognised species, .* quick thrust of the bill\.$/u));
    expect(texts).toContainEqual(expect.stringMatching(/^Egrets were hunted .* plumes they grow in the breeding season, .* in 1921\.\[6\]$/u));
  });

  it('keeps a citation mark wrapped to the start of a line in its paragraph, at the text’s size', async () => {
    const model = await read();
    const paragraph = allBlocks(model).find((block) => block.markdown.startsWith('Herons feed alone'));
    expect(paragraph?.markdown).toMatch(/for many minutes\. \[4\] Their prey includes fish, .* young birds\.\[5\]$/u);
  });

  it('reads a paragraph whose last line a superscript sets lower as one paragraph', async () => {
    expect(await paragraphs()).toContainEqual(expect.stringMatching(/^Some heron species, .* are nomadic, following the temporary lakes .* heavy rain\.\[7\]$/u));
  });

  it('keeps a line set in bold alone, with space after it, apart from the paragraph under it', async () => {
    expect(mainMarkdown(await read())).toContain('Reading the field guide\n\nEach entry gives');
  });

  it('leaves the browser’s header and footer out of the text', async () => {
    const markdown = mainMarkdown(await read());
    expect(markdown).not.toMatch(/Field Notes|file:\/\/|1\/1|AM|PM/u);
    expect(markdown.startsWith('# Heron\n')).toBe(true);
  });
});

describe('a blog post printed by a browser', () => {
  const bytes = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/web-post.pdf', import.meta.url)));
  const post = async () => mainMarkdown(await convertBytes(bytes(), { mode: 'fast' }));
  // As the API answers: the Markdown joins a paragraph's parts, each in its block.
  const rendered = async () => renderDocument(await convertBytes(bytes(), { mode: 'fast' }), optionsFor({ mode: 'fast' }), { contentType: 'application/pdf' }).markdown!;

  it('reads its code block whole, the first line too, where the code’s embedded widths disagree with its word boxes', async () => {
    expect(await post()).toContain(['```', 'ALTER TABLE events SET (', '  autovacuum_vacuum_scale_factor = 0.01,', '  autovacuum_vacuum_cost_limit = 2000', ');', '```'].join('\n'));
  });

  it('keeps a paragraph’s last line standing alone at the page’s foot in its paragraph', async () => {
    expect(await rendered()).toContain('what we measured on our busiest table before and after the change.\n');
  });
});

describe('a filing’s cover page printed by a browser', () => {
  it('reads each question answered by check boxes at its end as a paragraph of its own', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/filing-cover.pdf', import.meta.url)));
    const questions = allBlocks(await convertBytes(bytes, { mode: 'fast' }))
      .map((block) => block.markdown)
      .filter((markdown) => markdown.startsWith('Indicate by check'));
    expect(questions.slice(0, 3)).toEqual([
      'Indicate by check mark if the registrant is a well-known seasoned issuer, as defined in Rule 405 of the Securities Act. Yes ☐ No ☑',
      'Indicate by check mark if the registrant is not required to file reports pursuant to Section 13 or Section 15(d) of the Act. Yes ☐ No ☑',
      expect.stringMatching(/^Indicate by checkmark whether the registrant \(1\) has filed .* for the past 90 days\. Yes ☑ No ☐$/u),
    ]);
  });
});

describe('a documentation page with code spans printed by a browser', () => {
  const guide = async () => mainMarkdown(await convertBytes(new Uint8Array(readFileSync(new URL('../../fixtures/printed/web-guide.pdf', import.meta.url))), { mode: 'fast' }));

  it('reads a lone hyphen in a code span as a hyphen, and the text’s own hyphens as hyphens, not en dashes', async () => {
    const markdown = await guide();
    expect(markdown).toContain('pass - as its name');
    expect(markdown).toContain('A half-written output is never left behind');
    expect(markdown).toContain('the well-known extensions');
    expect(markdown).toContain('the long-term trend held');
    expect(markdown).not.toContain('–');
  });

  it('reads a paragraph whose lines hold more code, in smaller type, than text as one paragraph', async () => {
    expect(await guide()).toContain(
      'Every command is npx docmill &lt;command> (or docmill once installed). docmill --help and docmill &lt;command> --help list the flags; this page says what they do. Each command parses its flags and calls the library, so a flag and a library option never mean two things.\n',
    );
  });
});

describe('a table of options in code spans printed by a browser', () => {
  it('reads the ruled table row by row, the code spans’ rounded backdrops no rules of it', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/web-options.pdf', import.meta.url)));
    const tables = allBlocks(await convertBytes(bytes, { mode: 'fast' })).filter((block) => block.type === 'table');
    expect(tables).toHaveLength(1);
    const rows = tables[0]!.markdown.split('\n');
    expect(rows.slice(0, 2)).toEqual(['| Flag | Meaning |', '| --- | --- |']);
    expect(rows.slice(2).map((row) => row.split(' | ')[0])).toEqual([
      '| --api-url &lt;url>',
      '| --mode fast\\|auto\\|ocr',
      '| --pages',
      '| --redact-pii [mode]',
      '| --redact-entities &lt;a,b>',
      '| --timeout &lt;ms>',
    ]);
    expect(rows[6]).toContain('only these kinds: PERSON , EMAIL , PHONE , LOCATION , FINANCIAL , SECRET (implies redaction)');
  });
});
