/**
 * Two lines of small text beside one line in larger type (a pull quote, a heading in the next column) that reaches
 * over both: each small line stays a line of its own, its words in order, never interleaved with the other's.
 */
import { describe, expect, it } from 'vitest';
import { buildLines } from '../../../src/engine/pdf/lines.js';
import { item } from './synthetic.js';

/** A line of words, one item each, 5 pt a character and a space between words. */
function words(text: string, x0: number, baseline: number, size = 10) {
  let x = x0;
  return text.split(' ').map((word) => {
    const placed = item(word, x, baseline, { size });
    x = placed.x1 + 0.25 * size;
    return placed;
  });
}

describe('lines stacked beside a line in larger type', () => {
  it('are each a line, the large line another', () => {
    const upper = 'was discussed in detail and the recommendations';
    const lower = 'adopted with minor changes where the members';
    const quote = 'We never thought we could do it';
    const lines = buildLines([...words(upper, 72, 290), ...words(quote, 316, 297, 16), ...words(lower, 72, 302)]);
    expect(lines.map((line) => line.text).sort()).toEqual([quote, upper, lower].sort());
  });

  it('keep the subscripts of a line with that line when they are parted', () => {
    // A formula's words, each with its subscript `(i)` set under its end: three scripts on one baseline.
    const upper = words('a span ws to we of passage pi in turn', 72, 290);
    const subscripts = [2, 4, 7].map((at) => item('(i)', upper[at]!.x1, 293, { size: 6 }));
    const quote = 'We never thought we could do it';
    const lower = 'adopted with minor changes where the members';
    const lines = buildLines([...upper, ...subscripts, ...words(quote, 316, 297, 16), ...words(lower, 72, 302)]);
    expect(lines).toHaveLength(3);
    expect(lines.find((line) => line.text.startsWith('a span'))?.text).toMatch(/ws\s?\(i\)\s?to we\s?\(i\)/);
  });

  it('keep a raised mark with its word: a line with a note mark is one line', () => {
    const lines = buildLines([...words('the members thought them', 72, 300), item('12', 192, 296, { size: 6 }), ...words('necessary as before', 200, 300)]);
    expect(lines).toHaveLength(1);
  });
});
