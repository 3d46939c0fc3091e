/**
 * A bank statement as a report generator sets it (`test/fixtures/printed/generated-statement.pdf`, written by
 * ReportLab from `generated-statement.py` beside it): its transactions run over three pages, the header row
 * repeated at the top of each, and the last page holds the header and a single transaction.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertBytes, mainMarkdown } from './helpers.js';

const fixture = () => new Uint8Array(readFileSync(new URL('../../fixtures/printed/generated-statement.pdf', import.meta.url)));

describe('a statement whose last page holds one transaction under the repeated header', () => {
  it("reads that transaction as the table's last row, on its own page, its empty cell kept", async () => {
    const model = await convertBytes(fixture(), { mode: 'fast' });
    const last = model.pages[2]!.blocks.filter((block) => !block.furniture);
    expect(last.map((block) => block.type)).toEqual(['table', 'text']);
    expect(last[0]!.markdown).toBe('| 25 Mar | Direct Debit Bath Council Tax | 81.38 |  | -957.29 |');
  });

  it('writes one table of every transaction, its header once', async () => {
    const markdown = mainMarkdown(await convertBytes(fixture(), { mode: 'fast' }));
    expect(markdown.match(/\| Date \| Description \| Paid out \| Paid in \| Balance \|/gu)).toHaveLength(1);
    expect(markdown.match(/^\| \d\d Mar \|/gmu)).toHaveLength(74);
    expect(markdown).not.toMatch(/^#+ .*Paid out/mu);
  });
});
