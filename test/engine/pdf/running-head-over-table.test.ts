/**
 * A report LiteParse reads with its table running onto page 2 right under the running head, `Riverside Council —
 * Annual Report 2025` (test/fixtures/printed/running-head-report.pdf). The head's em dash is read as such in the
 * items (liteparse/dash-widths.ts), where LiteParse's table cells write it as a hyphen: compared with those cells
 * as LiteParse writes them, the head is still told from the table and goes back to the flow, where it is a running
 * head on both pages, not the table's first row. Its page feet: `Page N` running footers, and notes set against their
 * numbers with no indent, one under the other.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes, mainMarkdown } from './helpers.js';

describe('a running head with an em dash over a table continued from the page before', () => {
  it('stays out of the table, and out of the Markdown as the running head it is', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/running-head-report.pdf', import.meta.url)));
    const model = await convertBytes(bytes, { mode: 'fast' });
    const tables = allBlocks(model).filter((block) => block.type === 'table');
    expect(tables.length).toBeGreaterThan(0);
    for (const table of tables) {
      expect(table.markdown).not.toContain('Riverside');
      expect(table.markdown.split('\n')[0]).toBe('| Service | 2024 | 2025 |');
    }
    expect(mainMarkdown(model)).not.toContain('Riverside Council');
  });
});

describe("the same report's page feet", () => {
  it('drop `Page 1` and `Page 2` as running footers (the number level with `Page`, whose `g` reaches lower, not raised)', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/running-head-report.pdf', import.meta.url)));
    const markdown = mainMarkdown(await convertBytes(bytes, { mode: 'fast' }));
    expect(markdown).not.toMatch(/Page [12¹²]/u);
  });

  it('read the notes one under the other, each set against its number, as notes of their own', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/running-head-report.pdf', import.meta.url)));
    const blocks = allBlocks(await convertBytes(bytes, { mode: 'fast' })).map((block) => block.markdown);
    expect(blocks).toContain('1Including two extraordinary meetings held in March.');
    expect(blocks).toContain('2Figures are given in thousands of euros throughout this report.');
  });
});
