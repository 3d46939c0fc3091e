/**
 * The decisions after a 429, without I/O: how long the document waits, and whether the whole queue waits with it.
 */
import { describe, expect, it } from 'vitest';
import { pacesQueue, throttleWaitMs, THROTTLES_AT_FLOOR_BEFORE_QUEUE_PAUSE } from '../../../src/pipeline/steps/parse-failure.js';

describe('throttleWaitMs', () => {
  it('waits the Retry-After, plus jitter below 250 ms', () => {
    expect(throttleWaitMs(7000, 1, () => 0)).toBe(7000);
    expect(throttleWaitMs(7000, 1, () => 0.999)).toBe(7249);
  });

  it('without a Retry-After, waits the contract backoff for the throttles so far, capped at the fifth', () => {
    expect(throttleWaitMs(undefined, 1, () => 0)).toBe(2000);
    expect(throttleWaitMs(undefined, 3, () => 0)).toBe(8000);
    expect(throttleWaitMs(undefined, 9, () => 0)).toBe(throttleWaitMs(undefined, 5, () => 0));
  });
});

describe('pacesQueue', () => {
  it('paces the queue on every per-minute 429 (the budget is the team\'s)', () => {
    expect(pacesQueue('rate', 0)).toBe(true);
  });

  it('paces it on concurrency 429s only after several in a row at a limit of 1', () => {
    expect(pacesQueue('concurrency', THROTTLES_AT_FLOOR_BEFORE_QUEUE_PAUSE - 1)).toBe(false);
    expect(pacesQueue('concurrency', THROTTLES_AT_FLOOR_BEFORE_QUEUE_PAUSE)).toBe(true);
  });
});
