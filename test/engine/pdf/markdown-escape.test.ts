import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { linesMarkdown } from '../../../src/engine/pdf/contents.js';
import { escapeInline, escapeMarkdownText, renderGfmTable } from '../../../src/engine/pdf/markdown.js';
import { writePdf } from './fixtures/pdf-writer.js';
import { convertBytes, mainMarkdown } from './helpers.js';

describe('escaping PDF text for Markdown', () => {
  it('keeps a lone asterisk, underscore or backtick as the page has it: it pairs with nothing', () => {
    expect(escapeInline('*8 ml')).toBe('*8 ml');
    expect(escapeInline('see note*')).toBe('see note*');
    expect(escapeInline('_RecVAE')).toBe('_RecVAE');
    expect(escapeInline('it`s')).toBe('it`s');
    expect(renderGfmTable([['Tube', 'Water'], ['1', '*8 ml']]).split('\n')[2]).toBe('| 1 | *8 ml |');
  });

  it('leaves out glyphs read as control codes (TeX\'s big delimiters), in text and in table cells', () => {
    expect(escapeMarkdownText('so that the throughput is \u0012 N/W \u0013 at best')).toBe('so that the throughput is  N/W  at best');
    expect(renderGfmTable([['Rate', 'Note'], ['20/s', '\u0088 steady']]).split('\n')[2]).toBe('| 20/s | steady |');
    expect(escapeMarkdownText('tab\tand line\nkept')).toBe('tab\tand line\nkept');
  });

  it('escapes them where two could pair into emphasis or a code span', () => {
    expect(escapeInline('a *b* c')).toBe('a \\*b\\* c');
    expect(escapeInline('_a_ and XDG_DATA_HOME')).toBe('\\_a\\_ and XDG_DATA_HOME');
    expect(escapeInline('run `ls` here')).toBe('run \\`ls\\` here');
    expect(escapeInline('p < 0.05** and a note*')).toBe('p < 0.05\\*\\* and a note\\*');
  });

  it('escapes an asterisk that would start a list item, and backslashes and tags always', () => {
    expect(escapeMarkdownText('* not a bullet')).toBe('\\* not a bullet');
    expect(escapeMarkdownText('*')).toBe('\\*');
    expect(escapeInline('C:\\temp <b>')).toBe('C:\\\\temp &lt;b>');
  });

  it('counts the pairs over the whole paragraph when its lines are set with hard line breaks', () => {
    expect(linesMarkdown(['*Introduction', 'Summary* 4'])).toBe('\\*Introduction  \nSummary\\* 4');
    expect(linesMarkdown(['*Introduction', 'Summary 4'])).toBe('*Introduction  \nSummary 4');
  });
});

describe('a < in PDF text that could open markup', () => {
  /** A sentence naming `<Table 2>`, then a ruled table whose header spans columns (written as an HTML table). */
  function pageWithSpanningTable(): Uint8Array {
    const rules = [
      '0.5 w 0 G',
      ...[600, 560, 540].map((y) => `72 ${y} m 472 ${y} l S`),
      '172 580 m 472 580 l S',
      ...[72, 172, 472].map((x) => `${x} 540 m ${x} 600 l S`),
      ...[272, 372].map((x) => `${x} 540 m ${x} 580 l S`),
    ].join('\n');
    const runs = [
      { x: 72, y: 660, text: 'The scores of each model are in <Table 2> below, as <b> marks them.', size: 10 },
      { x: 77, y: 566, text: 'Model', size: 10, font: 'bold' as const },
      { x: 300, y: 586, text: 'Score', size: 10, font: 'bold' as const },
      ...['low', 'mid', 'high'].map((text, c) => ({ x: 177 + 100 * c, y: 566, text, size: 10, font: 'bold' as const })),
      ...['A', '1', '2', '3'].map((text, c) => ({ x: 77 + (c === 0 ? 0 : 100 * c), y: 546, text, size: 10 })),
    ];
    return writePdf({ pages: [{ runs, graphics: rules }] });
  }

  it('is a character reference, so an HTML reader of the Markdown keeps the sentence and the table after it', async () => {
    const markdown = mainMarkdown(await convertBytes(pageWithSpanningTable()));
    expect(markdown).toContain('in &lt;Table 2> below, as &lt;b> marks them.');
    expect(markdown).toContain('<th colspan="3">Score</th>');
    // An HTML parser knows no backslash escape: `\<Table 2>` opened a table element of its own, and `\<b>` bold
    // text to the end of the page.
    const { document } = parseHTML(`<html><body>${markdown}</body></html>`);
    expect(document.querySelectorAll('table')).toHaveLength(1);
    expect(document.querySelectorAll('b')).toHaveLength(0);
    expect(document.body.textContent).toContain('in <Table 2> below, as <b> marks them.');
  });
});
