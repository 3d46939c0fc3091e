/** Plain text as Markdown paragraphs that read as the text itself. */
import { describe, expect, it } from 'vitest';
import { convertText } from '../../../src/engine/text/convert-text.js';
import { blocksOf, input, markdownOf } from '../html/helpers.js';

const convert = (text: string | Uint8Array) => convertText(input(typeof text === 'string' ? new TextEncoder().encode(text) : text, {}, 'notes.odt'));

describe('convertText', () => {
  it('gives one text block per paragraph, lines kept, blank lines between paragraphs', async () => {
    const model = await convert('First line\r\nsecond line\r\n\r\n\r\nNext paragraph\n');
    expect(blocksOf(model)).toEqual([
      { type: 'text', label: null, markdown: 'First line\nsecond line', bbox: null, source: 'text' },
      { type: 'text', label: null, markdown: 'Next paragraph', bbox: null, source: 'text' },
    ]);
    expect(model.pages).toHaveLength(1);
    expect(model.warnings).toBeUndefined();
  });

  it('escapes what Markdown would read as syntax', async () => {
    const model = await convert('# not a heading\n- not a list\n1. not numbered\n*not emphasis* and <b>not html</b> [not](a link)');
    expect(markdownOf(model)).toBe('\\# not a heading\n\\- not a list\n1\\. not numbered\n\\*not emphasis\\* and \\<b\\>not html\\</b\\> \\[not\\](a link)');
  });

  it('decodes legacy encodings, saying so', async () => {
    const model = await convert(Uint8Array.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35, 0x20, 0x63, 0x72, 0xe8, 0x6d, 0x65, 0x20, 0x62, 0x72, 0xfb, 0x6c, 0xe9, 0x65]));
    expect(markdownOf(model)).toBe('Café €5 crème brûlée');
    expect(model.warnings).toEqual(['The file is not UTF-8; it was read as windows-1252 (detected).']);
  });

  it('text without a visible character gives no blocks and a warning', async () => {
    const model = await convert(' \n\t\n\u0001\n');
    expect(blocksOf(model)).toEqual([]);
    expect(model.warnings).toEqual(['the document has no text']);
  });
});
