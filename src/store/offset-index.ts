/**
 * Where the record of a key lies in a log file, for millions of keys in little memory: a key is not kept, only 46
 * bits of its hash (30 to choose a slot of a Map, whose keys then stay small integers, and 16 to tell apart the keys
 * sharing a slot) packed with the record's offset into one number. About 40 bytes a key, where the key itself (a
 * path, a content hash) would take 100 or more.
 *
 * Two keys with the same 46 bits are taken for one, the later record replacing the earlier: the caller reads the
 * record back and checks its key, so a wrong record is never used; the other key's record is only not found (for a
 * document: it is converted again). With a million keys that happens to some pair once in about 140 million stores.
 */

/** Values of the check part: offsets up to 2^53 / CHECKS (128 GiB) pack into one exact number. */
const CHECKS = 2 ** 16;
const LARGEST_OFFSET = Number.MAX_SAFE_INTEGER / CHECKS;

/** Two halves of a key's hash: `slot` (30 bits, a small integer as a Map key) and `check` (16 bits). */
export interface KeyHash {
  slot: number;
  check: number;
}

export class OffsetIndex {
  readonly #slots = new Map<number, number | number[]>();
  readonly #hash: (key: string) => KeyHash;

  /** `hash` is for tests that need keys to share a slot; any other caller keeps the default. */
  constructor(hash: (key: string) => KeyHash = hashKey) {
    this.#hash = hash;
  }

  /** The offset of `key`'s record, if any. */
  get(key: string): number | undefined {
    const { slot, check } = this.#hash(key);
    const held = this.#slots.get(slot);
    if (held === undefined) return undefined;
    // Most slots hold one key: no array is made to look at it (a lookup or two a document).
    if (typeof held === 'number') return held % CHECKS === check ? (held - check) / CHECKS : undefined;
    for (const packed of held) if (packed % CHECKS === check) return (packed - check) / CHECKS;
    return undefined;
  }

  set(key: string, offset: number): void {
    if (!Number.isInteger(offset) || offset < 0 || offset > LARGEST_OFFSET) throw new RangeError(`a record offset past 128 GiB: ${offset}`);
    const { slot, check } = this.#hash(key);
    const packed = offset * CHECKS + check;
    const held = this.#slots.get(slot);
    if (held === undefined || (typeof held === 'number' && held % CHECKS === check)) {
      this.#slots.set(slot, packed);
    } else if (typeof held === 'number') {
      this.#slots.set(slot, [held, packed]);
    } else {
      const at = held.findIndex((other) => other % CHECKS === check);
      if (at === -1) held.push(packed);
      else held[at] = packed;
    }
  }

  delete(key: string): void {
    const { slot, check } = this.#hash(key);
    const held = this.#slots.get(slot);
    if (held === undefined) return;
    if (typeof held === 'number') {
      if (held % CHECKS === check) this.#slots.delete(slot);
      return;
    }
    const left = held.filter((packed) => packed % CHECKS !== check);
    this.#slots.set(slot, left.length === 1 ? left[0]! : left);
  }

  clear(): void {
    this.#slots.clear();
  }
}

/** cyrb53 (a public-domain 53-bit string hash): two 32-bit lanes, of which 30 and 16 bits are used. */
export function hashKey(key: string): KeyHash {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < key.length; index++) {
    const code = key.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return { slot: (h1 >>> 0) & 0x3fffffff, check: (h2 >>> 0) & 0xffff };
}
