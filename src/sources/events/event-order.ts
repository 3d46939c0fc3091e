/**
 * Which events of one key still matter, by their `sequencer`: S3 delivers notifications at least once and in no
 * promised order, and the sequencer is its answer: of two events on the same key, the one with the greater
 * hexadecimal value happened later. An event whose sequencer is not greater than the last one acted on for its key is
 * a duplicate or a late arrival (an older "created" after a newer "removed") and changes nothing.
 *
 * Remembered per key in memory, for a bounded number of keys (the least recently seen are forgotten first): enough
 * for the window in which a queue redelivers or reorders. Across processes and restarts the watch relies on what the
 * store says instead (a created event's object is read by its ETag; a removal is checked against the bucket).
 */

/** Sign of a − b as hexadecimal numbers (sequencers of different lengths are compared as left-padded). */
export function compareSequencers(a: string, b: string): number {
  const width = Math.max(a.length, b.length);
  const left = a.toUpperCase().padStart(width, '0');
  const right = b.toUpperCase().padStart(width, '0');
  return left < right ? -1 : left > right ? 1 : 0;
}

const DEFAULT_REMEMBERED_KEYS = 100_000;

export class EventOrder {
  readonly #last = new Map<string, string>();

  constructor(private readonly limit = DEFAULT_REMEMBERED_KEYS) {}

  /**
   * True when the event is newer than every event acted on for `key` (or carries no sequencer), and records it; false
   * for a duplicate or an older event.
   */
  admit(key: string, sequencer: string | undefined): boolean {
    if (sequencer === undefined) return true;
    const last = this.#last.get(key);
    if (last !== undefined && compareSequencers(sequencer, last) <= 0) return false;
    this.#last.delete(key); // re-inserted last: a Map iterates oldest first
    this.#last.set(key, sequencer);
    if (this.#last.size > this.limit) this.#last.delete(this.#last.keys().next().value!);
    return true;
  }

  /** Forgets an admitted event that could not be acted on, so its redelivery is admitted again. */
  forget(key: string, sequencer: string | undefined): void {
    if (sequencer !== undefined && this.#last.get(key) === sequencer) this.#last.delete(key);
  }
}
