/**
 * A table ending its page right over the page's footnotes (test/fixtures/printed/footnotes-under-table.pdf,
 * LibreOffice's own footnote style: 10-pt notes under 10.5-pt rows, each number set apart before its text, as a
 * table's first column is). The notes are no rows of the table: it ends at its last row, and the notes follow it
 * in the flow, each a paragraph of its own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';

describe("a table over the page's footnotes", () => {
  it('ends at its last row, the notes after it, each its own paragraph', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/footnotes-under-table.pdf', import.meta.url)));
    const blocks = allBlocks(await convertBytes(bytes, { mode: 'fast' }));
    const first = blocks.find((block) => block.type === 'table')!;
    expect(first.markdown.split('\n').at(-1)).toBe('| Harbour | 722 | 142 |');
    const texts = blocks.map((block) => block.markdown);
    const note = texts.indexOf('1 Including two extraordinary meetings held in March.');
    expect(note).toBeGreaterThan(texts.indexOf(first.markdown));
    expect(texts[note + 1]).toBe('2 Figures are given in thousands of euros throughout this report.');
  });
});
