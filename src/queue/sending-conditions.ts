/**
 * What every document checks before it is sent: whether the queue is paused, and the credit budget's limit. Both are
 * read in one round trip and the reading is shared by the documents that ask within FRESH_MS of it: read for each
 * document, they were two of a small document's five round trips to Redis. A pause or a budget set by this process
 * is seen at once (it forgets the reading); one set by another process, within FRESH_MS, as a paused queue already
 * lets the jobs it holds finish. The budget itself is never passed meanwhile: a reservation checks it in Redis.
 */

/** How long a reading is shared. */
export const FRESH_MS = 100;

export interface SendingConditions {
  paused: boolean;
  /** The credit budget, or undefined when the queue has none. */
  budgetLimit: number | undefined;
}

export class SharedReading<T> {
  #last: { startedAt: number; value: Promise<T> } | undefined;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly freshMs = FRESH_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The last reading when it began less than `freshMs` ago (still under way or not), else a new one. */
  current(): Promise<T> {
    const last = this.#last;
    if (last && this.now() - last.startedAt < this.freshMs) return last.value;
    const entry = { startedAt: this.now(), value: this.read() };
    this.#last = entry;
    // A failed reading is not shared: the next caller reads again.
    entry.value.catch(() => {
      if (this.#last === entry) this.#last = undefined;
    });
    return entry.value;
  }

  /** The next caller reads afresh (this process changed what is read). */
  forget(): void {
    this.#last = undefined;
  }
}
