/**
 * A sheet LibreOffice Calc prints (test/fixtures/printed/calc-sheet.pdf): one word a cell, so hardly a text item holds
 * two words, and the font's word boxes, cut to the glyphs, show their many heights in items of one word. Told from
 * those, the footer's `Page 1` is a page number, its `1` level with `Page` (whose `g` reaches lower), not a raised mark.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

describe('a spreadsheet printed one word a cell', () => {
  it("reads its footer's `Page 1` as the page number, not `Page ¹` in the text", async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/calc-sheet.pdf', import.meta.url)));
    const model = await convertBytes(bytes, { mode: 'fast' });
    const feet = allBlocks(model).filter((block) => block.markdown.startsWith('Page'));
    expect(feet.map((block) => [block.type, block.markdown])).toEqual([['page_number', 'Page 1']]);
    expect(mainMarkdown(model)).not.toContain('¹');
    expect(mainMarkdown(model)).toContain('| North | Store N01 | 1766 |');
  });
});
