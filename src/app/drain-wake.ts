/**
 * Wakes `run`'s drain check when this process's worker finds its queue run dry (BullMQ's `drained`: nothing left
 * waiting to fetch) and whenever it ends a job after that, so the end of the last documents is seen at once, not at
 * the next poll.
 * Before the queue runs dry, jobs ending wake nothing: the poll alone paces the check while there is work to fetch.
 */
/** What DrainWake hears of a BullMQ Worker. */
export interface WorkerJobEnds {
  on(event: 'drained' | 'completed' | 'failed', listener: () => void): unknown;
  off(event: 'drained' | 'completed' | 'failed', listener: () => void): unknown;
}

export class DrainWake {
  readonly #worker: WorkerJobEnds;
  #dry = false;
  #wake: (() => void) | undefined;

  constructor(worker: WorkerJobEnds) {
    this.#worker = worker;
    worker.on('drained', this.#onDrained);
    worker.on('completed', this.#onJobEnd);
    worker.on('failed', this.#onJobEnd);
  }

  /** Resolves after `ms`, or sooner when a job ends after the queue ran dry. */
  async sleep(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.#wake = resolve;
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    this.#wake = undefined;
  }

  stop(): void {
    this.#worker.off('drained', this.#onDrained);
    this.#worker.off('completed', this.#onJobEnd);
    this.#worker.off('failed', this.#onJobEnd);
    this.#wake?.();
  }

  readonly #onDrained = (): void => {
    this.#dry = true;
    // The queue may run dry after the last job ended (BullMQ looks for the next job once a job is done): wake then too.
    this.#wake?.();
  };

  readonly #onJobEnd = (): void => {
    if (this.#dry) this.#wake?.();
  };
}
