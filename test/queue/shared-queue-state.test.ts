/**
 * What a document reads from Redis before it is sent (paused? the budget?) is shared by the documents of a short
 * while, and the group notes of documents finished side by side go out together; both against the shared Redis.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { BatchedWrites } from '../../src/queue/batched-writes.js';
import { QueueControl } from '../../src/queue/queue-control.js';
import { QUEUE_PREFIX } from '../../src/queue/queue-names.js';
import { FRESH_MS, SharedReading } from '../../src/queue/sending-conditions.js';
import { openStepQueue, type StepQueue } from '../pipeline/steps/step-fixtures.js';
import { SHARED_REDIS_URL } from '../helpers/docmill-cli.js';

describe('SharedReading', () => {
  it('reads once for the callers of a short while, again after it, and again after a failed reading', async () => {
    let now = 0;
    let reads = 0;
    let fail = false;
    const reading = new SharedReading(
      async () => {
        reads += 1;
        if (fail) throw new Error('Redis went away');
        return reads;
      },
      100,
      () => now,
    );
    expect(await Promise.all([reading.current(), reading.current()])).toEqual([1, 1]);
    now = 99;
    expect(await reading.current()).toBe(1);
    now = 100;
    expect(await reading.current()).toBe(2);
    fail = true;
    now = 300;
    await expect(reading.current()).rejects.toThrow('Redis went away');
    fail = false;
    expect(await reading.current()).toBe(4);
    reading.forget();
    expect(await reading.current()).toBe(5);
  });
});

describe('BatchedWrites', () => {
  it('sends a first item at once and those asked for meanwhile together next, each caller told of its own write', async () => {
    const writes: string[][] = [];
    const pending: (() => void)[] = [];
    const failing = new Set<string>();
    const batched = new BatchedWrites<string>(async (key, items) => {
      writes.push([key, ...items]);
      await new Promise<void>((resolve) => pending.push(resolve));
      if (items.some((item) => failing.has(item))) throw new Error(`write of ${items.join(',')} failed`);
    });
    const first = batched.add('g1', 'a');
    const second = batched.add('g1', 'b');
    const third = batched.add('g1', 'c');
    const other = batched.add('g2', 'x');
    expect(writes).toEqual([['g1', 'a'], ['g2', 'x']]);
    pending.shift()?.();
    await first;
    expect(writes).toEqual([['g1', 'a'], ['g2', 'x'], ['g1', 'b', 'c']]);
    pending.shift()?.();
    await other;
    failing.add('d');
    const fourth = batched.add('g1', 'd');
    pending.shift()?.();
    await Promise.all([second, third]);
    expect(writes.at(-1)).toEqual(['g1', 'd']);
    pending.shift()?.();
    await expect(fourth).rejects.toThrow('write of d failed');
    // Nothing under way any more: the next item goes out at once.
    const fifth = batched.add('g1', 'e');
    expect(writes.at(-1)).toEqual(['g1', 'e']);
    pending.shift()?.();
    await fifth;
  });
});

describe('QueueControl on Redis', () => {
  let steps: StepQueue;
  let other: { redis: Redis; queue: Queue; control: QueueControl };

  beforeEach(async () => {
    steps = await openStepQueue();
    // Another worker's process on the same queue.
    const redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(steps.name, { connection: redis, prefix: QUEUE_PREFIX });
    other = { redis, queue, control: new QueueControl(redis, queue) };
  });

  afterEach(async () => {
    await other.queue.close();
    other.redis.disconnect();
    await steps.close();
  });

  it('sees its own pause and budget at once, another process’s within the reading’s life', async () => {
    const { control } = steps;
    expect(await control.sendingConditions()).toEqual({ paused: false, budgetLimit: undefined });
    await control.budget.setLimit(40);
    await control.pause('manual', 'paused by hand');
    expect(await control.sendingConditions()).toEqual({ paused: true, budgetLimit: 40 });
    await control.resume();
    expect((await control.sendingConditions()).paused).toBe(false);

    await other.control.pause('auth', 'the key was refused');
    await other.control.budget.setLimit(undefined);
    await new Promise((resolve) => setTimeout(resolve, FRESH_MS + 20));
    expect(await control.sendingConditions()).toEqual({ paused: true, budgetLimit: undefined });
    expect(await control.pauseReason()).toMatchObject({ kind: 'auth' });
  });

  it('notes every document of a group finished side by side, in fewer writes than documents', async () => {
    const { control, redis } = steps;
    const group = 'group-1';
    await redis.hset(steps.queue.toKey(group), 'name', 'parse');
    const ids = Array.from({ length: 12 }, (_, index) => `doc-${index}`);
    // The writes are counted on the client rather than with MONITOR: a MONITOR feed on the Redis the other test
    // files share races ioredis' own reply queue (its "Command queue state error").
    const writes = vi.spyOn(redis, 'hset');
    try {
      await Promise.all(ids.map((id) => control.noteRecordedInGroup(group, id)));
      expect(await control.recordedInGroup(group, [...ids, 'doc-unknown'])).toEqual(new Set(ids));
      // Another process on the queue reads the same notes from Redis.
      expect(await other.control.recordedInGroup(group, ids)).toEqual(new Set(ids));
      expect(writes.mock.calls.length).toBeGreaterThan(0);
      expect(writes.mock.calls.length).toBeLessThan(ids.length);
    } finally {
      writes.mockRestore();
    }
  });
});
