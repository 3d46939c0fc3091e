/**
 * A Clock for tests: `sleep(ms)` resolves at once, records the requested wait and moves `now()` forward by it,
 * so a whole backoff schedule runs in microseconds and can be asserted exactly.
 */
import type { Clock } from '../../src/client/clock.js';

/** 2030-01-01T00:00:00Z: a whole second, so HTTP dates (second precision) relative to it are exact. */
export const FAKE_EPOCH_MS = Date.UTC(2030, 0, 1, 0, 0, 0);

export class FakeClock implements Clock {
  /** Every wait requested, in order. */
  readonly sleeps: number[] = [];
  /**
   * Called during each sleep, before it resolves: a test can abort the caller's signal here to simulate an
   * abort that arrives in the middle of a wait.
   */
  onSleep: ((ms: number) => void) | undefined;
  #now: number;

  constructor(startMs: number = FAKE_EPOCH_MS) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  /** Moves time forward without a sleep. */
  advance(ms: number): void {
    this.#now += ms;
  }

  get totalSleptMs(): number {
    return this.sleeps.reduce((sum, ms) => sum + ms, 0);
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    if (signal?.aborted) throw abortReason(signal);
    this.onSleep?.(ms);
    if (signal?.aborted) throw abortReason(signal);
    this.#now += ms;
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}
