/**
 * Two readings of one table (table-choice.ts): LiteParse's cells, and docmill's reading of the aligned text, taken
 * where it holds the other's words and more of the table.
 */
import { describe, expect, it } from 'vitest';
import { ownReadingHoldsMore } from '../../../src/engine/pdf/table-choice.js';

const BODY = [
  ['2012', '10%', '7%'],
  ['2013', '6%', '8%'],
  ['2014', '7%', '5%'],
];

describe("docmill's reading with header rows the other reader left out", () => {
  // The other reader's table starts at the header's last line; docmill's takes the whole header in, its first line
  // a row above, and the stub's label level with the last line.
  const found = { rows: [['', 'portfolio over time', 'for the firm'], ...BODY], rect: { x0: 58, y0: 146, x1: 419, y1: 200 } };
  const header = ['', 'Observed returns on the firm’s own investments', 'Observed returns on a potential new investment'];

  it('replaces it, however long the header is beside a short body', () => {
    const own = { rows: [header, ['Time t', 'portfolio over time', 'for the firm'], ...BODY], rect: { x0: 58, y0: 135, x1: 496, y1: 200 } };
    expect(ownReadingHoldsMore(own, found)).toBe(true);
  });

  it('does not where the words it adds are rows below the table, not above it', () => {
    const own = { rows: [...found.rows, header], rect: { x0: 58, y0: 146, x1: 496, y1: 212 } };
    expect(ownReadingHoldsMore(own, found)).toBe(false);
  });

  it('does not where its rows do not hold the other reading\'s rows level with them', () => {
    // Every word of it, but the body's rows in another order: no reading of the same rows.
    const own = { rows: [header, ['Time t', 'portfolio over time', 'for the firm'], BODY[2]!, BODY[0]!, BODY[1]!], rect: { x0: 58, y0: 135, x1: 496, y1: 200 } };
    expect(ownReadingHoldsMore(own, found)).toBe(false);
  });
});
