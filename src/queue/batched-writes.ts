/**
 * Writes to one key that go out as they come, except that those asked for while one is under way go out together
 * next, in one write: no wait is added to a write when none is under way, and documents finishing side by side share
 * a round trip. Each caller learns the outcome of the write that carried its item.
 */
interface Batch<T> {
  items: T[];
  settled: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class BatchedWrites<T> {
  /** The keys with a write under way, and what is asked for meanwhile (sent when it ends). */
  readonly #busy = new Map<string, Batch<T> | undefined>();

  constructor(private readonly write: (key: string, items: readonly T[]) => Promise<void>) {}

  add(key: string, item: T): Promise<void> {
    if (!this.#busy.has(key)) return this.#send(key, [item]);
    let next = this.#busy.get(key);
    if (!next) {
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const settled = new Promise<void>((ok, fail) => {
        resolve = ok;
        reject = fail;
      });
      next = { items: [], settled, resolve, reject };
      this.#busy.set(key, next);
    }
    next.items.push(item);
    return next.settled;
  }

  #send(key: string, items: readonly T[]): Promise<void> {
    this.#busy.set(key, undefined);
    const sent = this.write(key, items);
    const after = (): void => {
      const next = this.#busy.get(key);
      if (!next) {
        this.#busy.delete(key);
        return;
      }
      this.#send(key, next.items).then(next.resolve, next.reject);
    };
    sent.then(after, after);
    return sent;
  }
}
