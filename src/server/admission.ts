/**
 * Admission for `docmill serve`: at most `maxConcurrent` parses at once; beyond that a short queue whose requests
 * are marked `concurrencyLimited` with the time they waited; beyond the queue, 429 at once (the contract's
 * `Concurrency limit reached` with Retry-After), so clients back off instead of piling up on the server.
 */
export interface AdmissionTicket {
  /** Milliseconds spent waiting in the queue; 0 when admitted at once. */
  queuedMs: number;
  release(): void;
}

export class Admission {
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued: number,
  ) {}

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#waiting.length;
  }

  /** A ticket, or undefined when both the slots and the queue are full (answer 429). */
  tryEnter(): Promise<AdmissionTicket> | undefined {
    if (this.#active < this.maxConcurrent) {
      this.#active++;
      return Promise.resolve(this.#ticket(0));
    }
    if (this.#waiting.length >= this.maxQueued) return undefined;
    const started = Date.now();
    return new Promise((resolve) => {
      this.#waiting.push(() => {
        this.#active++;
        resolve(this.#ticket(Date.now() - started));
      });
    });
  }

  #ticket(queuedMs: number): AdmissionTicket {
    let released = false;
    return {
      queuedMs,
      release: () => {
        if (released) return;
        released = true;
        this.#active--;
        this.#waiting.shift()?.();
      },
    };
  }
}
