/**
 * The content locks' round trips to Redis, against a real redis-server: what each call does to a lock, that calls
 * made together travel in one script call, and that a server which forgot the script (restarted, SCRIPT FLUSH) is
 * sent it again.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { LockRoundTrips } from '../../src/queue/lock-round-trips.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../../src/queue/embedded-redis.js';
import { docmillKey } from '../../src/queue/queue-names.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

describe('LockRoundTrips', () => {
  let dir: string;
  let server: EmbeddedRedis;
  let redis: Redis;

  beforeAll(async () => {
    dir = await makeTempDir();
    server = await startEmbeddedRedis(dir);
    redis = new Redis({ path: server.socket, lazyConnect: true });
    await redis.connect();
  });

  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
    await removeTempDir(dir);
  });

  const lock = (name: string) => docmillKey('locks-test', 'content-lock', name);
  const mark = (name: string) => docmillKey('locks-test', 'removed', name);

  it('takes, re-enters and lets go of a lock only for its owner', async () => {
    const locks = new LockRoundTrips(redis);
    const key = lock('a');
    expect(await locks.call({ kind: 'take', lockKey: key, owner: 'job-1', ttlMs: 30_000 })).toBe(1);
    expect(await locks.call({ kind: 'take', lockKey: key, owner: 'job-2', ttlMs: 30_000 })).toBe(0);
    // Re-entered by its owner (a job handed to another worker after its first one died).
    expect(await locks.call({ kind: 'take', lockKey: key, owner: 'job-1', ttlMs: 30_000 })).toBe(1);
    expect(await redis.pttl(key)).toBeGreaterThan(29_000);
    expect(await locks.call({ kind: 'release', lockKey: key, owner: 'job-2' })).toBe(0);
    expect(await redis.get(key)).toBe('job-1');
    expect(await locks.call({ kind: 'release', lockKey: key, owner: 'job-1' })).toBe(1);
    expect(await redis.get(key)).toBeNull();
    expect(await locks.call({ kind: 'take', lockKey: key, owner: 'job-2', ttlMs: 30_000 })).toBe(1);
  });

  it('keeps the lock and answers the removal when the file was removed after the job was queued, else lets go', async () => {
    const locks = new LockRoundTrips(redis);
    await redis.set(mark('removed'), '2000:delete');
    await locks.call({ kind: 'take', lockKey: lock('b'), owner: 'job-3', ttlMs: 30_000 });
    const removed = { kind: 'releaseUnlessRemoved', lockKey: lock('b'), markKey: mark('removed'), owner: 'job-3' } as const;
    expect(await locks.call({ ...removed, since: 1000 })).toBe('2000:delete');
    expect(await redis.get(lock('b'))).toBe('job-3');
    // A removal older than the job does not concern it.
    expect(await locks.call({ ...removed, since: 3000 })).toBe(0);
    expect(await redis.get(lock('b'))).toBeNull();
    await locks.call({ kind: 'take', lockKey: lock('c'), owner: 'job-4', ttlMs: 30_000 });
    expect(await locks.call({ kind: 'releaseUnlessRemoved', lockKey: lock('c'), markKey: mark('none'), owner: 'job-4', since: 0 })).toBe(0);
    expect(await redis.get(lock('c'))).toBeNull();
  });

  it('sends calls made together in one script call, each answered in turn', async () => {
    const locks = new LockRoundTrips(redis);
    // Script calls as they go to the server (by SHA1; with the text only where the server lacks it).
    const send = redis.sendCommand.bind(redis);
    const sent = vi.fn();
    const spy = vi.spyOn(redis, 'sendCommand').mockImplementation((command, stream) => {
      if (command.name === 'evalsha' || command.name === 'eval') sent(command.name);
      return send(command, stream);
    });
    try {
      const replies = await Promise.all([
        locks.call({ kind: 'take', lockKey: lock('d'), owner: 'job-5', ttlMs: 30_000 }),
        locks.call({ kind: 'take', lockKey: lock('d'), owner: 'job-6', ttlMs: 30_000 }),
        locks.call({ kind: 'take', lockKey: lock('e'), owner: 'job-6', ttlMs: 30_000 }),
        locks.call({ kind: 'release', lockKey: lock('d'), owner: 'job-5' }),
        locks.call({ kind: 'take', lockKey: lock('d'), owner: 'job-6', ttlMs: 30_000 }),
      ]);
      expect(replies).toEqual([1, 0, 1, 1, 1]);
      expect(sent).toHaveBeenCalledTimes(1);
      // Calls made while a batch is on its way go out together in the next one.
      const first = locks.call({ kind: 'release', lockKey: lock('d'), owner: 'job-6' });
      await Promise.resolve();
      const later = [locks.call({ kind: 'release', lockKey: lock('e'), owner: 'job-6' }), locks.call({ kind: 'release', lockKey: lock('e'), owner: 'job-6' })];
      expect(await Promise.all([first, ...later])).toEqual([1, 1, 0]);
      expect(sent).toHaveBeenCalledTimes(3);
    } finally {
      spy.mockRestore();
    }
  });

  it('sends the script again to a server that forgot it', async () => {
    const locks = new LockRoundTrips(redis);
    await locks.call({ kind: 'take', lockKey: lock('f'), owner: 'job-7', ttlMs: 30_000 });
    await redis.script('FLUSH');
    expect(await locks.call({ kind: 'release', lockKey: lock('f'), owner: 'job-7' })).toBe(1);
    expect(await redis.get(lock('f'))).toBeNull();
  });

  it('fails every call of a batch when Redis refuses it, and the next batch goes out', async () => {
    const locks = new LockRoundTrips(redis);
    await redis.set(lock('g'), 'job-8');
    // A lock key holding a list: GET fails inside the script, and the whole batch with it.
    await redis.rpush(lock('h'), 'x');
    const failing = [
      locks.call({ kind: 'take', lockKey: lock('h'), owner: 'job-8', ttlMs: 30_000 }),
      locks.call({ kind: 'release', lockKey: lock('g'), owner: 'job-8' }),
    ];
    for (const call of failing) await expect(call).rejects.toThrow(/WRONGTYPE/);
    expect(await locks.call({ kind: 'release', lockKey: lock('g'), owner: 'job-8' })).toBe(1);
  });
});
