/**
 * OffsetIndex: where each key's record lies, by a hash of the key; keys that share a slot stay apart, and a key
 * replaced, deleted or never set answers as such.
 */
import { describe, expect, it } from 'vitest';
import { hashKey, OffsetIndex } from '../../src/store/offset-index.js';

describe('OffsetIndex', () => {
  it('keeps the last offset of each key, forgets a deleted one, and knows none it was not given', () => {
    const index = new OffsetIndex();
    index.set('a/report.pdf', 0);
    index.set('b/report.pdf', 512);
    index.set('a/report.pdf', 2 ** 36);
    expect(index.get('a/report.pdf')).toBe(2 ** 36);
    expect(index.get('b/report.pdf')).toBe(512);
    expect(index.get('c/report.pdf')).toBeUndefined();
    index.delete('a/report.pdf');
    expect(index.get('a/report.pdf')).toBeUndefined();
    expect(index.get('b/report.pdf')).toBe(512);
  });

  it('keeps apart keys whose hashes share a slot, through replacing and deleting', () => {
    // Every key in one slot, told apart by the check part alone.
    const index = new OffsetIndex((key) => ({ slot: 7, check: hashKey(key).check }));
    const keys = Array.from({ length: 50 }, (_, n) => `folder/file-${n}.html`);
    keys.forEach((key, n) => index.set(key, n * 100));
    keys.forEach((key, n) => expect(index.get(key), key).toBe(n * 100));
    index.set(keys[3]!, 7);
    index.delete(keys[4]!);
    expect(index.get(keys[3]!)).toBe(7);
    expect(index.get(keys[4]!)).toBeUndefined();
    expect(index.get(keys[5]!)).toBe(500);
    for (const key of keys) index.delete(key);
    expect(keys.map((key) => index.get(key))).toEqual(keys.map(() => undefined));
  });

  it('refuses an offset it could not hold exactly', () => {
    expect(() => new OffsetIndex().set('x', 2 ** 40)).toThrow(RangeError);
    expect(() => new OffsetIndex().set('x', -1)).toThrow(RangeError);
  });

  it('spreads keys over slots: 100,000 paths share a slot and check with no other', () => {
    const seen = new Set<number>();
    for (let n = 0; n < 100_000; n++) {
      const { slot, check } = hashKey(`archive/2024/${n % 97}/document ${n}.pdf`);
      seen.add(slot * 2 ** 16 + check);
    }
    expect(seen.size).toBe(100_000);
  });
});
