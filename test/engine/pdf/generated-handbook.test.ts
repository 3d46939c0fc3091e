/**
 * A handbook as a report generator sets it (`test/fixtures/printed/generated-handbook.pdf`, written by ReportLab
 * from `generated-handbook.py` beside it): its title, centred, is set in the type of its chapters' headings, which
 * are unnumbered, and runs as the header of every page.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';

describe('a handbook whose title is set in its chapters’ type', () => {
  it('reads the title as the title, the chapters under it, the running header out of the text', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/generated-handbook.pdf', import.meta.url)));
    const blocks = allBlocks(await convertBytes(bytes, { mode: 'fast' }));
    const headings = blocks.filter((block) => block.type === 'title' || block.type === 'section_header').map((block) => block.markdown);
    expect(headings.slice(0, 4)).toEqual(['# Allotment Society Handbook', '### Contents', '## Joining the society', '### Who can join']);
    expect(headings.filter((heading) => heading.startsWith('# '))).toHaveLength(1);
    expect(blocks.filter((block) => block.type === 'page_header').length).toBeGreaterThanOrEqual(3);
  });
});
