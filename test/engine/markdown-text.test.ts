/** Plain text into Markdown: escaped where a reader would take it for syntax, as written everywhere else. */
import { describe, expect, it } from 'vitest';
import { escapeLineStart, escapeRunText } from '../../src/engine/markdown-text.js';

describe('text in a run', () => {
  it('leaves what cannot be syntax as written', () => {
    for (const text of ['max_retry_count', 'see [12] and [sic].', 'a < b and c > d', '-5% and +3 dB', 'café_au_lait 2_000']) expect(escapeRunText(text)).toBe(text);
  });

  it('escapes what could open or close emphasis, a code span, a tag, a link or a footnote', () => {
    expect(escapeRunText('3 * 4')).toBe('3 \\* 4');
    expect(escapeRunText('_private')).toBe('\\_private');
    expect(escapeRunText('name_')).toBe('name\\_');
    expect(escapeRunText('`code`')).toBe('\\`code\\`');
    expect(escapeRunText('a \\ b')).toBe('a \\\\ b');
    expect(escapeRunText('Use <div> here')).toBe('Use &lt;div> here');
    expect(escapeRunText('[a](b)')).toBe('\\[a\\](b)');
    expect(escapeRunText('[a]: b')).toBe('\\[a\\]: b');
    expect(escapeRunText('[^1] note')).toBe('\\[^1\\] note');
    // The next run could go on with `(`.
    expect(escapeRunText('ends with [a]')).toBe('ends with \\[a\\]');
    expect(escapeRunText('a lone [ bracket')).toBe('a lone \\[ bracket');
  });
});

describe('the start of a line', () => {
  it('escapes what would make it a heading, a quote, a list item, a fence, a rule or a setext underline', () => {
    const cases: [string, string][] = [
      ['# Title', '\\# Title'],
      ['> quoted', '\\> quoted'],
      ['- item', '\\- item'],
      ['+ item', '\\+ item'],
      ['1. one', '1\\. one'],
      ['2) two', '2\\) two'],
      ['```js', '\\```js'],
      ['~~~', '\\~~~'],
      ['---', '\\---'],
      ['==', '\\=='],
      ['-', '\\-'],
    ];
    for (const [line, escaped] of cases) expect(escapeLineStart(line)).toBe(escaped);
  });

  it('escapes a line indented a little as it would read unindented', () => {
    expect(escapeLineStart('  - item')).toBe('  \\- item');
    expect(escapeLineStart('   1. one')).toBe('   1\\. one');
  });

  it('leaves a sign opening other text as written', () => {
    for (const line of ['-5%', '+3 dB', '--fast', '=SUM(A1)', '#hashtag', '1.5 litres', '2024 was a year']) expect(escapeLineStart(line)).toBe(line);
  });
});
