/**
 * A contents page printed by LibreOffice whose entries run into leader dots before their page numbers: LiteParse's
 * items leave out some of those numbers (its page text keeps them). A page that loses a few digits is LiteParse's
 * still (a chart's labels drawn over its plot), but not where an item ends in a leader: every entry keeps its page.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertBytes, mainMarkdown } from './helpers.js';

const contents = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/contents-leaders.pdf', import.meta.url)));

describe('a contents page with leader dots', () => {
  it('keeps every entry with its page number', async () => {
    const lines = mainMarkdown(await convertBytes(contents(), { mode: 'fast' })).split('\n').filter((line) => line.includes('...'));
    expect(lines.map((line) => /(\d+)$/.exec(line)?.[1])).toEqual(['1', '2', '4', '6', '7', '9', '12', '25']);
    expect(lines[2]).toMatch(/^2\. Results so far \.+ 4$/);
  });
});
