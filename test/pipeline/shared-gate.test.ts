/**
 * The API gate shared by the worker processes of one queue, against the real Redis on 127.0.0.1:6379: one
 * in-flight count for the fleet, what one worker learns every worker uses, and a dead worker's slots come back.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GateTicket } from '../../src/pipeline/api-gate.js';
import { SharedApiGate } from '../../src/pipeline/shared-gate.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let redis: Redis;
let queue: string;
const gates: SharedApiGate[] = [];

function gate(options: { max: number; initial?: number; leaseMs?: number; probeAfter?: number }): SharedApiGate {
  const made = new SharedApiGate({ connection: redis, queue, ...options });
  gates.push(made);
  return made;
}

/** Resolves with the ticket, or with 'waiting' when no slot came within `ms`. */
async function within(promise: Promise<GateTicket>, ms: number): Promise<GateTicket | 'waiting'> {
  return Promise.race([promise, new Promise<'waiting'>((done) => setTimeout(() => done('waiting'), ms))]);
}

/** Lets the outcome scripts reach Redis (outcomes are reported without awaiting). */
async function settled(): Promise<void> {
  await redis.ping();
  await new Promise((done) => setTimeout(done, 30));
}

async function sharedLimit(): Promise<number> {
  return Number(await redis.hget(`{docmill}:${queue}:gate`, 'limit'));
}

beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
});

afterEach(async () => {
  await Promise.all(gates.splice(0).map((g) => g.close()));
  const keys = await redis.keys(`{docmill}:${queue}:gate*`);
  if (keys.length) await redis.del(...keys);
});

afterAll(() => {
  redis.disconnect();
});

describe('SharedApiGate', () => {
  it('gives the workers of one queue one in-flight count: a second worker waits for the first to free a slot', async () => {
    queue = `test-gate-${randomUUID()}`;
    const a = gate({ max: 8, initial: 3 });
    const b = gate({ max: 8, initial: 3 });
    const held = [await a.acquire(), await a.acquire(), await b.acquire()];
    const blocked = b.acquire();
    expect(await within(blocked, 150)).toBe('waiting');
    const freedAt = Date.now();
    a.released(held[0] as GateTicket);
    const ticket = await within(blocked, 1000);
    expect(ticket).not.toBe('waiting');
    // Woken by the message that a slot freed, not by the fallback retry (250 ms).
    expect(Date.now() - freedAt).toBeLessThan(200);
    expect(a.snapshot().inFlight + b.snapshot().inFlight).toBe(3);
  });

  it('grows the shared limit by every worker\'s successes during slow start', async () => {
    queue = `test-gate-${randomUUID()}`;
    const a = gate({ max: 16 });
    const b = gate({ max: 16 });
    expect(a.limit).toBe(2);
    const ta = await a.acquire();
    const tb = await b.acquire();
    a.succeeded(ta);
    b.succeeded(tb);
    await settled();
    expect(await sharedLimit()).toBe(4);
    await b.acquire();
    expect(b.limit).toBe(4);
  });

  it('lowers the limit to what the whole fleet had in flight when one worker is refused with a concurrency 429', async () => {
    queue = `test-gate-${randomUUID()}`;
    const a = gate({ max: 16, initial: 8 });
    const b = gate({ max: 16, initial: 8 });
    const fromA = [await a.acquire(), await a.acquire(), await a.acquire()];
    const fromB = [await b.acquire(), await b.acquire(), await b.acquire()];
    // The API accepts 5: B's last request is refused while the other five are out.
    b.concurrencyLimited(fromB[2] as GateTicket);
    await settled();
    expect(await sharedLimit()).toBe(5);
    // A learns it at its next request: at 5 in flight, its next request waits.
    const next = a.acquire();
    next.catch(() => undefined);
    expect(await within(next, 150)).toBe('waiting');
    expect(a.limit).toBe(5);
    a.succeeded(fromA[0] as GateTicket);
    expect(await within(next, 1000)).not.toBe('waiting');
  });

  it('after slow start, does not lower the shared limit for a concurrency 429 that came back as late as a parse', async () => {
    queue = `test-gate-${randomUUID()}`;
    const a = gate({ max: 8, initial: 5 });
    const b = gate({ max: 8, initial: 5 });
    const [first, late] = [await a.acquire(), await a.acquire()];
    const third = await b.acquire();
    // Slow start ends with a refusal at admission at 4 in flight: the limit is 3.
    const refusedInSlowStart = await b.acquire();
    b.concurrencyLimited(refusedInSlowStart);
    await settled();
    expect(await sharedLimit()).toBe(3);
    await new Promise((done) => setTimeout(done, 80));
    a.succeeded(first as GateTicket);
    await settled();
    const limit = await sharedLimit();
    a.concurrencyLimited(late as GateTicket);
    await settled();
    expect(await sharedLimit()).toBe(limit);
    // Refused at admission: the limit drops to what the fleet has in flight (B's one request).
    const refused = await a.acquire();
    a.concurrencyLimited(refused);
    await settled();
    expect(await sharedLimit()).toBe(1);
    b.succeeded(third);
  });

  it('hands a freed slot straight to the same worker\'s next request while no other worker waits', async () => {
    queue = `test-gate-${randomUUID()}`;
    const a = gate({ max: 1 });
    const first = await a.acquire();
    const second = a.acquire();
    a.succeeded(first);
    const held = await within(second, 1000);
    expect(held).not.toBe('waiting');
    await settled();
    let third: GateTicket | undefined;
    void a.acquire().then((ticket) => (third = ticket));
    await new Promise((done) => setTimeout(done, 20));
    expect(third).toBeUndefined();
    a.succeeded(held as GateTicket);
    // No round trip to Redis between the answer and the next request: the slot changed hands in this tick.
    await Promise.resolve();
    await Promise.resolve();
    expect(third).toBeDefined();
    await settled();
    expect(await redis.zcard(`{docmill}:${queue}:gate:leases`)).toBe(1);
  });

  it('probes above the learned limit once, for the whole fleet, after enough successes', async () => {
    queue = `test-gate-${randomUUID()}`;
    const a = gate({ max: 8, initial: 4, probeAfter: 2 });
    const b = gate({ max: 8, initial: 4, probeAfter: 2 });
    // Leave slow start: a concurrency 429 at 4 in flight (the API's limit is 3).
    const first = [await a.acquire(), await a.acquire(), await b.acquire(), await b.acquire()];
    a.concurrencyLimited(first[0] as GateTicket);
    await settled();
    expect(await sharedLimit()).toBe(3);
    for (const ticket of first.slice(1, 2)) a.succeeded(ticket);
    for (const ticket of first.slice(2)) b.succeeded(ticket);
    // probeAfter × limit = 6 successes between the two workers raise the limit by one, once.
    for (let i = 0; i < 3; i++) {
      const ta = await a.acquire();
      const tb = await b.acquire();
      a.succeeded(ta);
      b.succeeded(tb);
    }
    await settled();
    expect(await sharedLimit()).toBe(4);
  });

  it('gives back the slots of a worker that died holding them once its leases expire', async () => {
    queue = `test-gate-${randomUUID()}`;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { Redis } from 'ioredis';
         import { SharedApiGate } from './src/pipeline/shared-gate.ts';
         const gate = new SharedApiGate({ connection: new Redis('${REDIS_URL}'), queue: '${queue}', max: 4, initial: 2, leaseMs: 600 });
         await gate.acquire(); await gate.acquire();
         process.stdout.write('held\\n');
         setInterval(() => {}, 1000);`,
      ],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((done, fail) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('held')) done();
      });
      child.once('exit', (code) => fail(new Error(`the holder exited (${code}) before holding its slots`)));
    });
    const survivor = gate({ max: 4, initial: 2 });
    const pending = survivor.acquire();
    // The live holder renews its leases: no slot for the survivor while it lives.
    expect(await within(pending, 1000)).toBe('waiting');
    child.kill('SIGKILL');
    const startedWaiting = Date.now();
    const ticket = await within(pending, 3000);
    expect(ticket).not.toBe('waiting');
    expect(Date.now() - startedWaiting).toBeLessThan(1500);
  }, 20_000);

  it('an aborted wait takes no slot, and a closing worker gives its slots back', async () => {
    queue = `test-gate-${randomUUID()}`;
    const a = gate({ max: 4, initial: 1 });
    const b = gate({ max: 4, initial: 1 });
    await a.acquire();
    const abort = new AbortController();
    const waiting = b.acquire(abort.signal);
    abort.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await a.close();
    const ticket = await within(b.acquire(), 1000);
    expect(ticket).not.toBe('waiting');
    expect(b.snapshot()).toMatchObject({ inFlight: 1, waiting: 0 });
  });
});
