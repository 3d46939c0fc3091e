/**
 * A line's leading bullet set as a symbol font's private-use glyph (LibreOffice's slide templates, Word's Symbol
 * and Wingdings bullets) or glued to its first word: read as a list marker, in a line and in a printed deck.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildLine } from '../../../src/engine/pdf/lines.js';
import { convertBytes, mainMarkdown } from './helpers.js';
import { slideDeck } from './slide-pdfs.js';
import { item } from './synthetic.js';

describe('a line that starts with a bullet the text layer writes oddly', () => {
  it("reads a symbol font's private-use bullet as a bullet", () => {
    for (const glyph of ['\uf095', '\uf0b7', '\uf0a7', '\uf0d8']) {
      const line = buildLine([item(glyph, 57, 100, { size: 8 }), item('Results', 73, 100, { size: 20 }), item('for the quarter', 150, 100, { size: 20 })]);
      expect(line.text).toBe('• Results for the quarter');
    }
  });

  it('splits a bullet glued to its first word from the word', () => {
    const line = buildLine([item('•With', 73, 100, { size: 28 }), item('foo', 163, 100, { size: 28, spaceBefore: true })]);
    expect(line.text).toBe('• With foo');
    expect(buildLine([item('▪Bar', 73, 100, { size: 28 })]).text).toBe('▪ Bar');
  });

  it("splits a numbered level's `1)` glued to its first word, as LibreOffice prints a slide's, and no period's number", () => {
    const line = buildLine([item('1)Nested', 110, 100, { size: 18 }), item('list', 189, 100, { size: 18, spaceBefore: true })]);
    expect(line.text).toBe('1) Nested list');
    expect(buildLine([item('a)Triple', 127, 100, { size: 18 })]).text).toBe('a) Triple');
    expect(buildLine([item('1.Introduction', 57, 100)]).text).toBe('1.Introduction');
    expect(buildLine([item('f(x)Value', 57, 100)]).text).toBe('f(x)Value');
    expect(buildLine([item('2)and', 57, 100)]).text).toBe('2)and');
  });

  it("reads the bullet that starts a line's second cell: the second of two lists side by side", () => {
    const line = buildLine([
      item('\uf095', 57, 100, { size: 11 }),
      item('Loyal customers', 74, 100, { size: 24, width: 196 }),
      item('\uf095', 411, 100, { size: 11 }),
      item('Rising supplier prices', 428, 100, { size: 24, width: 257 }),
    ]);
    expect(line.cells.map((cell) => cell.text)).toEqual(['• Loyal customers', '• Rising supplier prices']);
  });

  it('leaves a private-use glyph inside a line, a lone one, and a dash or an asterisk before a word', () => {
    expect(buildLine([item('Call', 57, 100), item('\uf095', 80, 100), item('now', 90, 100)]).text).toBe('Call \uf095 now');
    expect(buildLine([item('\uf095', 57, 100)]).text).toBe('\uf095');
    expect(buildLine([item('-based', 57, 100), item('models', 90, 100)]).text).toBe('-based models');
    expect(buildLine([item('*Note:', 57, 100), item('see', 90, 100)]).text).toBe('*Note: see');
  });
});

describe('a printed slide deck', () => {
  const agenda = [
    { level: 0, text: 'Results for the quarter' },
    { level: 0, text: 'Product lines' },
    { level: 1, text: 'Beverages' },
    { level: 1, text: 'Condiments' },
    { level: 0, text: 'Outlook and next steps' },
  ];
  const list = '- Results for the quarter\n- Product lines\n  - Beverages\n  - Condiments\n- Outlook and next steps';

  it("reads a template's symbol-font bullets as a list", async () => {
    const doc = await convertBytes(await slideDeck([{ title: 'Agenda', bullets: agenda }]), { mode: 'fast' });
    expect(mainMarkdown(doc)).toBe(`# Agenda\n\n${list}`);
  });

  it('reads bullets glued to their words as a list', async () => {
    const doc = await convertBytes(await slideDeck([{ title: 'Agenda', bullets: agenda, bulletStyle: 'glued' }]), { mode: 'fast' });
    expect(mainMarkdown(doc)).toBe(`# Agenda\n\n${list}`);
  });

  it('reads numbered levels glued to their words under bullets as lists nested in the list, as LibreOffice prints them', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/complex-list-slide.pdf', import.meta.url)));
    const doc = await convertBytes(bytes, { mode: 'fast' });
    const items = mainMarkdown(doc).split('\n').filter((line) => /^\s*- /.test(line));
    expect(items.map((line) => [line.indexOf('-'), line.trim()])).toEqual([
      [0, '- List item 1'],
      [0, '- List item 2'],
      [2, '- 1) Nested list item a'],
      [7, '- 1) Triple nested'],
      [2, '- 2) Nested list item b'],
      [0, '- closing'],
    ]);
  });
});
