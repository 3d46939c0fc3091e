/**
 * Collects lines in memory and hands them over in batches of at most `maxLines`: when `maxLines` are waiting, `intervalMs` after the
 * first waiting line, and on close(). Used by the S3 store, whose objects cannot be appended to, to turn manifest
 * lines into a few segment objects instead of one object per line.
 *
 * Batches are written one at a time, in order. A batch that fails to write goes back in front of the waiting
 * lines and is tried again with the next batch, so a passing S3 outage loses nothing; lines are lost only if
 * the process ends without a successful close().
 */

export interface LineBatcherOptions {
  maxLines: number;
  intervalMs: number;
  /** Writes one batch; a rejection keeps the lines for the next attempt. */
  writeBatch(lines: string[]): Promise<void>;
  /** Told when a timer-driven flush fails (nobody awaits it); the lines stay queued and the timer is re-armed. */
  onBackgroundError?: ((error: unknown) => void) | undefined;
}

export class LineBatcher {
  private waiting: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The last flush; each flush starts after the previous one settles. */
  private flushChain: Promise<void> = Promise.resolve();

  constructor(private readonly options: LineBatcherOptions) {}

  get pendingLines(): number {
    return this.waiting.length;
  }

  /** Queues a line; resolves at once, or after the flush it triggered when the batch is full. */
  async add(line: string): Promise<void> {
    this.waiting.push(line);
    if (this.waiting.length >= this.options.maxLines) {
      await this.flush();
    } else {
      this.armTimer();
    }
  }

  /** Writes everything waiting now (after any flush in progress); rejects when that write fails. */
  flush(): Promise<void> {
    this.disarmTimer();
    const run = this.flushChain.then(() => this.writeWaiting());
    this.flushChain = run.catch(() => undefined);
    return run;
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    await this.flush();
  }

  /** Writes everything waiting, in batches of at most maxLines (a burst of adds can queue more before it runs). */
  private async writeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxLines);
      try {
        await this.options.writeBatch(batch);
      } catch (error) {
        this.waiting = batch.concat(this.waiting);
        throw error;
      }
    }
  }

  private armTimer(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((error: unknown) => {
        this.options.onBackgroundError?.(error);
        this.armTimer();
      });
    }, this.options.intervalMs);
    // A pending flush must not keep a finished process alive; close() writes whatever is left.
    this.timer.unref();
  }

  private disarmTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
