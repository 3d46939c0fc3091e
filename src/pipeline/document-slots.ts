/**
 * How many documents of group jobs this process converts at once. A document gives its slot back early when what is
 * left of it only waits (JobContext.leaveSlot: its outputs waiting for the store's group commit), so a wait that costs
 * no CPU does not keep the next document from starting. Slots are handed out in the order they were asked for.
 */
export class DocumentSlots {
  #free: number;
  readonly #queued: Array<() => void> = [];

  constructor(size: number) {
    this.#free = Math.max(1, size);
  }

  /** Runs `task` in a slot; `leave` gives the slot back before the task ends (once; later calls do nothing). */
  async run<T>(task: (leave: () => void) => Promise<T>): Promise<T> {
    await this.#take();
    let held = true;
    const leave = () => {
      if (!held) return;
      held = false;
      this.#giveBack();
    };
    try {
      return await task(leave);
    } finally {
      leave();
    }
  }

  #take(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queued.push(resolve));
  }

  #giveBack(): void {
    const next = this.#queued.shift();
    if (next) next();
    else this.#free++;
  }
}
