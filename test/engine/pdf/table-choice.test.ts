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

describe("docmill's reading of a header the other reader ran together across its columns", () => {
  const body = [
    ['<110', '0.5', '0.6', '0.7', '1.0'],
    ['110-140', '0.6', '0.7', '0.8', '1.0'],
  ];
  const own = {
    rows: [
      ['Terrace Interval', 'Underground Outlets', 'Waterways with percent grade of:', '', ''],
      ['(ft)', '', '0.1-0.3', '0.4-0.7', '0.8'],
      ['', 'Pt Values', 'Pt Values', 'Pt Values', 'Pt Values'],
      ...body,
    ],
    rect: { x0: 42, y0: 408, x1: 305, y1: 506 },
  };

  it('replaces it where one of its cells holds words of two of the header\'s columns, the same words in all', () => {
    // A header of three lines set small (a page printed at 70 %), its lines read into one row, cell by cell wrong.
    const found = {
      rows: [['Terrace Interval Underground (ft) Pt Values', '', 'Outlets Waterways with percent grade 0.1-0.3 Pt Values', 'of: 0.4-0.7 Pt Values', '0.8 Pt Values'], ...body],
      rect: own.rect,
    };
    expect(ownReadingHoldsMore(own, found)).toBe(true);
  });

  it('does not where its cells keep each column\'s words, its header\'s lines joined in their cells', () => {
    const found = {
      rows: [['Terrace Interval (ft)', 'Underground Outlets Pt Values', 'Waterways with percent grade of: 0.1-0.3 Pt Values', '0.4-0.7 Pt Values', '0.8 Pt Values'], ...body],
      rect: own.rect,
    };
    expect(ownReadingHoldsMore(own, found)).toBe(false);
  });
});
