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
import { waitFor } from '../helpers/docmill-cli.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let redis: Redis;
let queue: string;
const gates: SharedApiGate[] = [];

function gate(options: { max: number; initial?: number; leaseMs?: number; probeAfter?: number; retryMs?: number }): SharedApiGate {
  const made = new SharedApiGate({ connection: redis, queue, ...options });
  gates.push(made);
  return made;
}

/** Resolves with the ticket, or with 'waiting' when no slot came within `ms` (a deadline for a slot expected). */
async function within(promise: Promise<GateTicket>, ms: number): Promise<GateTicket | 'waiting'> {
  return Promise.race([promise, new Promise<'waiting'>((done) => setTimeout(() => done('waiting'), ms))]);
}

/** Polls Redis (or the gate) until `condition` holds, for at most 5 s. */
async function until<T>(what: string, condition: () => T | Promise<T>): Promise<NonNullable<T>> {
  return waitFor(what, condition, { timeoutMs: 5000, intervalMs: 10 });
}

/** Whether a promise has settled, readable at any moment without waiting. */
function watch(promise: Promise<unknown>): { readonly settled: boolean } {
  const state = { settled: false };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

/** Lets every callback already due run (one turn of the event loop): no timer, no wait for time to pass. */
async function turn(): Promise<void> {
  await new Promise((done) => setImmediate(done));
}

async function sharedLimit(): Promise<number> {
  return Number(await redis.hget(`{docmill}:${queue}:gate`, 'limit'));
}

/** Requests out across the fleet, as Redis counts them: every outcome report that frees a slot has landed when this drops. */
async function leasesOut(): Promise<number> {
  return redis.zcard(`{docmill}:${queue}:gate:leases`);
}

/**
 * The last time (Redis's clock) a worker was refused a slot: a refused worker marks itself in the `waiting` set with
 * an expiry of its refusal time plus twice its retry interval. 0 when none was.
 */
async function lastRefusal(retryMs = 250): Promise<number> {
  const scored = await redis.zrange(`{docmill}:${queue}:gate:waiting`, 0, -1, 'WITHSCORES');
  const scores = scored.filter((_, index) => index % 2 === 1).map(Number);
  return scores.length === 0 ? 0 : Math.max(...scores) - 2 * retryMs;
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
    // B tries again by itself only after a minute: a slot it gets sooner was announced by the message that one freed.
    const b = gate({ max: 8, initial: 3, retryMs: 60_000 });
    const held = [await a.acquire(), await a.acquire(), await b.acquire()];
    const blocked = b.acquire();
    const granted = watch(blocked);
    // Redis refused B the fourth slot: B waits.
    await until('B refused a slot', async () => (await lastRefusal(60_000)) > 0);
    await turn();
    expect(granted.settled).toBe(false);
    expect(b.snapshot()).toMatchObject({ inFlight: 1, waiting: 1 });
    a.released(held[0] as GateTicket);
    const ticket = await within(blocked, 5000);
    expect(ticket).not.toBe('waiting');
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
    await until('both successes reported', async () => (await leasesOut()) === 0);
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
    await until('the refusal reported', async () => (await leasesOut()) === 5);
    expect(await sharedLimit()).toBe(5);
    // A learns it at its next request: at 5 in flight, its next request is refused a slot, and waits.
    const next = a.acquire();
    const granted = watch(next);
    await until('A refused a slot', async () => (await lastRefusal()) > 0 && a.limit === 5);
    await turn();
    expect(granted.settled).toBe(false);
    expect(a.snapshot()).toMatchObject({ limit: 5, inFlight: 3, waiting: 1 });
    a.succeeded(fromA[0] as GateTicket);
    expect(await within(next, 5000)).not.toBe('waiting');
  });

  it('after slow start, does not lower the shared limit for a concurrency 429 that came back as late as a parse', async () => {
    queue = `test-gate-${randomUUID()}`;
    const a = gate({ max: 8, initial: 5 });
    const b = gate({ max: 8, initial: 5 });
    // `late` is granted first and answered after `first` succeeds: it takes longer than that parse did, however
    // slowly the grants come on a loaded machine.
    const [late, first] = [await a.acquire(), await a.acquire()];
    const third = await b.acquire();
    // Slow start ends with a refusal at admission at 4 in flight: the limit is 3.
    const refusedInSlowStart = await b.acquire();
    b.concurrencyLimited(refusedInSlowStart);
    await until('the refusal reported', async () => (await leasesOut()) === 3);
    expect(await sharedLimit()).toBe(3);
    // Time for `late` to come back as late as a parse does: the policy compares durations.
    await new Promise((done) => setTimeout(done, 80));
    a.succeeded(first as GateTicket);
    await until('the success reported', async () => (await leasesOut()) === 2);
    const limit = await sharedLimit();
    a.concurrencyLimited(late as GateTicket);
    await until('the late refusal reported', async () => (await leasesOut()) === 1);
    expect(await sharedLimit()).toBe(limit);
    // Refused at admission: the limit drops to what the fleet has in flight (B's one request).
    const refused = await a.acquire();
    a.concurrencyLimited(refused);
    await until('the refusal at admission reported', async () => (await leasesOut()) === 1);
    expect(await sharedLimit()).toBe(1);
    b.succeeded(third);
  });

  it('hands a freed slot straight to the same worker\'s next request while no other worker waits', async () => {
    queue = `test-gate-${randomUUID()}`;
    const a = gate({ max: 1 });
    const first = await a.acquire();
    const second = a.acquire();
    a.succeeded(first);
    const held = await within(second, 5000);
    expect(held).not.toBe('waiting');
    const [lease, expiry] = await redis.zrange(`{docmill}:${queue}:gate:leases`, 0, -1, 'WITHSCORES');
    let third: GateTicket | undefined;
    void a.acquire().then((ticket) => (third = ticket));
    // This process holds its one slot (max 1): the third request waits here, without asking Redis.
    await turn();
    expect(third).toBeUndefined();
    expect(a.snapshot()).toMatchObject({ inFlight: 1, waiting: 1 });
    a.succeeded(held as GateTicket);
    // No round trip to Redis between the answer and the next request: the slot changed hands in this tick.
    await Promise.resolve();
    await Promise.resolve();
    expect(third).toBeDefined();
    // The report lands as a renewal of the same lease, not a new one.
    await until('the report landed', async () => Number(await redis.zscore(`{docmill}:${queue}:gate:leases`, lease ?? '')) > Number(expiry));
    expect(await leasesOut()).toBe(1);
  });

  it('probes above the learned limit once, for the whole fleet, after enough successes', async () => {
    queue = `test-gate-${randomUUID()}`;
    const a = gate({ max: 8, initial: 4, probeAfter: 2 });
    const b = gate({ max: 8, initial: 4, probeAfter: 2 });
    // Leave slow start: a concurrency 429 at 4 in flight (the API's limit is 3).
    const first = [await a.acquire(), await a.acquire(), await b.acquire(), await b.acquire()];
    a.concurrencyLimited(first[0] as GateTicket);
    await until('the refusal reported', async () => (await leasesOut()) === 3);
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
    await until('every success reported', async () => (await leasesOut()) === 0);
    expect(await sharedLimit()).toBe(4);
  });

  it('probes a paced budget learned short back up for the fleet while the queue holds more than a second of its work', async () => {
    queue = `test-gate-${randomUUID()}`;
    const a = gate({ max: 8, initial: 4, probeAfter: 1 });
    // 40 documents wait: under a second at 8 in flight to an API that answers at once, 2 s at 2 requests per 100 ms.
    a.setBacklog(40);
    const accepted = [await a.acquire(), await a.acquire()];
    for (const ticket of accepted) a.succeeded(ticket);
    await until('the successes reported', async () => (await leasesOut()) === 0);
    a.rateLimited(await a.acquire(), { windowMs: 100 });
    const paceBudget = async () => Number(await redis.hget(`{docmill}:${queue}:gate`, 'pN'));
    await until('the budget learned', async () => (await paceBudget()) === 2);
    for (let i = 0; i < 24; i++) {
      a.succeeded(await a.acquire());
      await until('the success reported', async () => (await leasesOut()) === 0);
    }
    expect(await paceBudget()).toBeGreaterThan(3);
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
    // When the holder's leases would expire were they not renewed (Redis's clock).
    const scored = await redis.zrange(`{docmill}:${queue}:gate:leases`, 0, -1, 'WITHSCORES');
    const unrenewedExpiry = Math.max(...scored.filter((_, index) => index % 2 === 1).map(Number));
    const survivor = gate({ max: 4, initial: 2 });
    const pending = survivor.acquire();
    const granted = watch(pending);
    // The live holder renews its leases: the survivor is still refused after they would have expired.
    await until('the survivor refused after the first leases would have expired', async () => (await lastRefusal()) > unrenewedExpiry);
    await turn();
    expect(granted.settled).toBe(false);
    expect(await leasesOut()).toBe(2);
    child.kill('SIGKILL');
    // Its leases expire 600 ms after their last renewal; the survivor tries again every 250 ms.
    expect(await within(pending, 1500)).not.toBe('waiting');
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
