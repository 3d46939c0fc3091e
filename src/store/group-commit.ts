/**
 * Group commit of a local store's outputs: each output's temporary file waits here, written and closed, and one
 * flush pass (one syncfs: common/disk-flush.ts) makes every file waiting durable at once; each is renamed into place
 * after it. A pass starts `windowMs` after the first file began waiting, or at once when `maxWaiting` files wait; one
 * runs at a time, and files that begin waiting meanwhile go to the next.
 *
 * Why a window and not a pass as soon as one is free: passes taken back to back hold the files of one or two
 * documents each, and cost more than the fsyncs they replace (BENCHMARKS.md, section 15). A document waiting here
 * holds no conversion slot (JobContext.leaveSlot), so the window delays when a document is recorded, not how many
 * are converted meanwhile. When no document is converting any more (`passNow`), no file is coming to join the
 * files waiting, and the window would only delay them: the pass starts at once.
 */

export interface GroupCommitOptions {
  /** Makes the files at these paths durable; rejects with the file system's error. */
  flush(paths: readonly string[]): Promise<void>;
  /** The longest a file waits for a pass to start. */
  windowMs: number;
  /** Files waiting that start a pass without waiting for the window. */
  maxWaiting: number;
}

interface Waiting {
  path: string;
  since: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class GroupCommit {
  readonly #options: GroupCommitOptions;
  #waiting: Waiting[] = [];
  #timer: NodeJS.Timeout | undefined;
  #pass: Promise<void> | undefined;
  /** Set by passNow while a pass is under way: the next pass starts as soon as it ends. */
  #soon = false;

  constructor(options: GroupCommitOptions) {
    this.#options = options;
  }

  /** Resolves once the file at `path` (written and closed) is durable; rejects when its pass failed. */
  whenFlushed(path: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ path, since: Date.now(), resolve, reject });
      this.#schedule();
    });
  }

  /** Flushes whatever waits now (after the pass under way, if any): a store closing leaves nothing waiting. */
  async flush(): Promise<void> {
    await this.#pass;
    if (this.#waiting.length > 0) await this.#startPass();
  }

  /** Starts a pass for the files waiting now without waiting out the window (after the pass under way, if any). */
  passNow(): void {
    if (this.#waiting.length === 0) return;
    if (this.#pass !== undefined) {
      this.#soon = true;
      return;
    }
    void this.#startPass();
  }

  #schedule(): void {
    if (this.#pass !== undefined) return; // the pass under way schedules the next when it ends
    if (this.#soon || this.#waiting.length >= this.#options.maxWaiting) {
      void this.#startPass();
      return;
    }
    if (this.#timer !== undefined) return;
    const oldest = this.#waiting[0];
    const delay = oldest === undefined ? this.#options.windowMs : Math.max(0, oldest.since + this.#options.windowMs - Date.now());
    this.#timer = setTimeout(() => void this.#startPass(), delay);
  }

  #startPass(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#soon = false;
    const pass = this.#runPass().finally(() => {
      this.#pass = undefined;
      if (this.#waiting.length > 0) this.#schedule();
    });
    this.#pass = pass;
    return pass;
  }

  /** One flush of every file waiting; never rejects: the files' writers are told. */
  async #runPass(): Promise<void> {
    const batch = this.#waiting;
    this.#waiting = [];
    try {
      await this.#options.flush(batch.map((waiting) => waiting.path));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    for (const waiting of batch) waiting.resolve();
  }
}
