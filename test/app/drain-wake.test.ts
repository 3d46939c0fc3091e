/**
 * DrainWake: `run`'s drain check wakes when the queue runs dry and at a job's end after that, and only then, so a run
 * ends as its last documents do, not at its next poll.
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
  it('wakes the check when the queue runs dry and at a job ending after that, not at one ending before, and sleeps out its time otherwise', async () => {
    const worker = new EventEmitter();
    const wake = new DrainWake(worker);
    try {
      const early = wake.sleep(10_000);
      worker.emit('completed');
      expect(await settledWithin(early, 50)).toBe(false);
      // BullMQ looks for the next job after the last one ended: the queue running dry then is the run's end.
      worker.emit('drained');
      expect(await settledWithin(early, 50)).toBe(true);
      const afterDry = wake.sleep(10_000);
      worker.emit('failed');
      expect(await settledWithin(afterDry, 50)).toBe(true);

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
