/**
 * DrainWake: `run`'s drain check wakes at a job's end once the queue has run dry, and only then, so a run ends as its
 * last documents do, not at its next poll.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { DrainWake } from '../../src/app/drain-wake.js';

async function settledWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
  clearTimeout(timer);
  return settled;
}

describe('DrainWake', () => {
  it('wakes the check at a job ending after the queue ran dry, not at one ending before, and sleeps out its time otherwise', async () => {
    const worker = new EventEmitter();
    const wake = new DrainWake(worker);
    try {
      const early = wake.sleep(10_000);
      worker.emit('completed');
      expect(await settledWithin(early, 50)).toBe(false);
      worker.emit('drained');
      worker.emit('failed');
      expect(await settledWithin(early, 50)).toBe(true);

      expect(await settledWithin(wake.sleep(20), 1000)).toBe(true);
      const last = wake.sleep(10_000);
      worker.emit('completed');
      expect(await settledWithin(last, 50)).toBe(true);
    } finally {
      wake.stop();
    }
    expect(worker.listenerCount('completed') + worker.listenerCount('failed') + worker.listenerCount('drained')).toBe(0);
  });
});
