/**
 * String edit distances over code points, as rapidfuzz computes them for the evaluator:
 * - Indel (insertions and deletions only) = len(a) + len(b) − 2·LCS(a, b); `fuzz.ratio` is 1 − Indel/(len(a)+len(b)).
 *   The LCS is bit-parallel (Allison–Dix / Hyyrö): one machine word carries 32 columns, so a page of a few
 *   thousand characters against another costs about n·m/32 word operations.
 * - Levenshtein (insert, delete, substitute, each 1): `rapidfuzz.distance.Levenshtein.distance`, a row DP.
 */
import { codePoints } from './python-text.js';

/** Length of the longest common subsequence of two code point sequences. */
export function lcsLength(a: Uint32Array, b: Uint32Array): number {
  // The shorter sequence is the bit vector's; the longer one is scanned.
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const m = short.length;
  if (m === 0) return 0;
  const words = Math.ceil(m / 32);
  const masks = new Map<number, Uint32Array>();
  for (let i = 0; i < m; i++) {
    const c = short[i] as number;
    let mask = masks.get(c);
    if (!mask) masks.set(c, (mask = new Uint32Array(words)));
    mask[i >>> 5] = ((mask[i >>> 5] as number) | (1 << (i & 31))) >>> 0;
  }
  // V has a 0 bit at each position matched so far; V' = (V + (V & M)) | (V & ~M), the addition carrying
  // across words.
  const v = new Uint32Array(words).fill(0xffffffff);
  for (let j = 0; j < long.length; j++) {
    const mask = masks.get(long[j] as number);
    if (!mask) continue;
    let carry = 0;
    for (let k = 0; k < words; k++) {
      const vk = v[k] as number;
      const u = (vk & (mask[k] as number)) >>> 0;
      const sum = vk + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[k] = ((sum >>> 0) | (vk & ~(mask[k] as number))) >>> 0;
    }
  }
  let zeros = 0;
  for (let k = 0; k < words; k++) {
    const bits = k === words - 1 && m % 32 !== 0 ? m % 32 : 32;
    let x = v[k] as number;
    for (let bit = 0; bit < bits; bit++, x >>>= 1) if ((x & 1) === 0) zeros++;
  }
  return zeros;
}

export function indelDistance(a: Uint32Array, b: Uint32Array): number {
  return a.length + b.length - 2 * lcsLength(a, b);
}

/** rapidfuzz `fuzz.ratio(a, b) / 100`: 1 − Indel/(len(a)+len(b)); 1 for two empty strings. */
export function normalizedIndelSimilarity(a: string, b: string): number {
  const x = codePoints(a);
  const y = codePoints(b);
  const total = x.length + y.length;
  return total === 0 ? 1 : 1 - indelDistance(x, y) / total;
}

/** Levenshtein distance between two code point sequences (unit costs). */
export function levenshtein(a: Uint32Array, b: Uint32Array): number {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const m = short.length;
  if (m === 0) return long.length;
  // Strip the common prefix and suffix: they never cost anything and cells often share most of their text.
  let start = 0;
  while (start < m && short[start] === long[start]) start++;
  let endShort = m;
  let endLong = long.length;
  while (endShort > start && short[endShort - 1] === long[endLong - 1]) {
    endShort--;
    endLong--;
  }
  const s = short.subarray(start, endShort);
  const l = long.subarray(start, endLong);
  if (s.length === 0) return l.length;
  const row = new Int32Array(s.length + 1);
  for (let i = 0; i <= s.length; i++) row[i] = i;
  for (let j = 1; j <= l.length; j++) {
    let diagonal = row[0] as number;
    row[0] = j;
    const c = l[j - 1];
    for (let i = 1; i <= s.length; i++) {
      const above = row[i] as number;
      const substitute = diagonal + (s[i - 1] === c ? 0 : 1);
      const best = Math.min(above + 1, (row[i - 1] as number) + 1, substitute);
      row[i] = best;
      diagonal = above;
    }
  }
  return row[s.length] as number;
}

/** Levenshtein distance over max(len): the evaluator's cell and heading text cost, 0 for two empty strings. */
export function normalizedLevenshtein(a: string, b: string): number {
  const x = codePoints(a);
  const y = codePoints(b);
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 0 : levenshtein(x, y) / longest;
}
