/**
 * Business forms and invoices: their parts read in the page's order.
 */
import { describe, expect, it } from 'vitest';
import { convertBytes, mainMarkdown } from './helpers.js';
import { invoicePdf } from './form-pdfs.js';

describe('an invoice', () => {
  it('reads the ruled table of line items before the totals set under it', async () => {
    const markdown = mainMarkdown(await convertBytes(invoicePdf()));
    const items = markdown.indexOf('| Description | Qty | Unit Price | Amount |');
    const totals = markdown.indexOf('| Subtotal: | 191.40 |');
    const terms = markdown.indexOf('Payment terms: 30 days net.');
    expect(items).toBeGreaterThan(markdown.indexOf('Due Date: 13 April 2026'));
    expect(totals).toBeGreaterThan(items);
    expect(terms).toBeGreaterThan(totals);
    expect(markdown).toContain('| Delivery | 1 | 15.00 | 15.00 |');
  });
});
