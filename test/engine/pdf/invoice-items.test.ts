/**
 * An invoice printed from HTML by wkhtmltopdf (`test/fixtures/printed/invoice-items.pdf`, from `invoice-items.html`
 * beside it): its items' table is ruled between its rows only, its column labels set from their cells' left edges
 * over amounts set flush right, so the labels stand less than an em after the figures of the column before.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allBlocks, convertBytes } from './helpers.js';

describe("an invoice's items ruled between their rows", () => {
  it('keeps each column apart where its label stands close after the figures of the column before', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/printed/invoice-items.pdf', import.meta.url)));
    const tables = allBlocks(await convertBytes(bytes, { mode: 'fast' })).filter((block) => block.type === 'table');
    expect(tables[0]?.markdown.split('\n')).toEqual([
      '| Description | Qty | Unit price | Amount |',
      '| --- | --- | --- | --- |',
      '| Website redesign, home and five inner pages | 1 | £1,850.00 | £1,850.00 |',
      '| Photography of the boathouse and crews (half day) | 1 | £320.00 | £320.00 |',
      '| Hosting, 12 months | 12 | £9.50 | £114.00 |',
      '| Domain renewal penrynrowing.org.uk | 2 | £12.00 | £24.00 |',
    ]);
  });
});
