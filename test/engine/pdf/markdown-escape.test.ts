import { describe, expect, it } from 'vitest';
import { linesMarkdown } from '../../../src/engine/pdf/contents.js';
import { escapeInline, escapeMarkdownText, renderGfmTable } from '../../../src/engine/pdf/markdown.js';

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
    expect(escapeInline('C:\\temp <b>')).toBe('C:\\\\temp \\<b>');
  });

  it('counts the pairs over the whole paragraph when its lines are set with hard line breaks', () => {
    expect(linesMarkdown(['*Introduction', 'Summary* 4'])).toBe('\\*Introduction  \nSummary\\* 4');
    expect(linesMarkdown(['*Introduction', 'Summary 4'])).toBe('*Introduction  \nSummary 4');
  });
});
