/**
 * Pacing at a request-rate window (src/pipeline/rate-pace.ts, in ApiGate): the window and budget learned from what
 * the 429s say, the budget spent evenly. Simulated clock (vitest's fake timers) and a simulated API that counts
 * requests per window, so every figure is a count of requests, never a measured duration.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RateLimitHint } from '../../src/backend/errors.js';
import { ApiGate } from '../../src/pipeline/api-gate.js';
import { initialPace, PACE_MARGIN, paceDelayMs, paceIntervalMs, paceRefused, paceSlackMs, paceSucceeded, paceTake, windowFromHint } from '../../src/pipeline/rate-pace.js';

/** A window of `limit` requests per `ms`, opened by the first request after the last one closed, as the hosted API's. */
function fixedWindow(limit: number, ms: number) {
  let opened = Number.NEGATIVE_INFINITY;
  let consumed = 0;
  return (now: number): { ok: true } | { ok: false; waitMs: number } => {
    if (now >= opened + ms) {
      opened = now;
      consumed = 0;
    }
    consumed++;
    return consumed <= limit ? { ok: true } : { ok: false, waitMs: opened + ms - now };
  };
}

/** A window counting the requests it accepted in the last `ms`. */
function slidingWindow(limit: number, ms: number) {
  const accepted: number[] = [];
  return (now: number): { ok: true } | { ok: false; waitMs: number } => {
    while (accepted.length > 0 && (accepted[0] ?? 0) <= now - ms) accepted.shift();
    if (accepted.length < limit) {
      accepted.push(now);
      return { ok: true };
    }
    return { ok: false, waitMs: (accepted[0] ?? now) + ms - now };
  };
}

type Api = ReturnType<typeof fixedWindow>;

/** What the hosted API's 429 tells when the wait is only in its text: whole seconds, rounded up. */
const textOnly = (waitMs: number): RateLimitHint => ({ waitMs: Math.max(1, Math.ceil(waitMs / 1000)) * 1000 });

/**
 * `jobs` jobs parse `documents` documents through `gate`, each request answered after `latencyMs` of simulated time;
 * a refused document comes back after its wait, as a deferred job does. Returns the requests sent and refused, the
 * documents done, and the simulated seconds until the last was.
 */
async function run(gate: ApiGate, api: Api, options: { documents: number; jobs: number; latencyMs: number; hint?: (waitMs: number) => RateLimitHint }) {
  const { documents, jobs, latencyMs } = options;
  const hint = options.hint ?? textOnly;
  let next = 0;
  let sent = 0;
  let refused = 0;
  let done = 0;
  const start = Date.now();
  let lastDoneAt = start;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  async function job(): Promise<void> {
    while (next < documents) {
      next++;
      for (;;) {
        const ticket = await gate.acquire();
        sent++;
        const verdict = api(Date.now());
        await sleep(verdict.ok ? latencyMs : 1);
        if (verdict.ok) {
          gate.succeeded(ticket);
          done++;
          lastDoneAt = Date.now();
          break;
        }
        refused++;
        gate.rateLimited(ticket, hint(verdict.waitMs));
        await sleep(verdict.waitMs + 100);
      }
    }
  }
  const all = Promise.all(Array.from({ length: jobs }, job));
  await vi.advanceTimersByTimeAsync(600_000);
  await all;
  return { sent, refused, done, seconds: (lastDoneAt - start) / 1000 };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_800_000_000_000 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the window a 429 tells', () => {
  it('is the named window, else the longest of its wait and reset in whole seconds, else none', () => {
    expect(windowFromHint({ windowMs: 60_000, waitMs: 3000 })).toBe(60_000);
    expect(windowFromHint({ waitMs: 1000, resetMs: 400 })).toBe(1000);
    expect(windowFromHint({ resetMs: 11_200 })).toBe(12_000);
    expect(windowFromHint({ limit: 20 })).toBeUndefined();
    expect(windowFromHint({})).toBeUndefined();
  });
});

describe('the pace, as pure steps', () => {
  it('counts the budget from the requests the API accepted in the window, and spends it one request per W/N', () => {
    const pace = initialPace();
    const sends = Array.from({ length: 20 }, (_, i) => 1000 + i * 10);
    const accepted = (from: number) => {
      const kept = sends.filter((at) => at >= from);
      return { count: kept.length, oldest: kept[0] };
    };
    expect(paceRefused(pace, { waitMs: 1000 }, 1250, 1245, accepted)).toBe(true);
    expect(pace.windowMs).toBe(1000);
    expect(pace.budget).toBe(20);
    expect(paceIntervalMs(pace)).toBeCloseTo((1000 * (1 + PACE_MARGIN)) / 20);
    // The next request waits for the oldest counted one to leave the window.
    expect(paceDelayMs(pace, 1250)).toBe(1000 + 1000 - 1250);
    paceTake(pace, 2000);
    paceTake(pace, 2000);
    expect(paceDelayMs(pace, 2000)).toBeCloseTo(2 * paceIntervalMs(pace));
  });

  it('never lets a span of one window hold more than the budget, and a worker woken a little late loses no turn', () => {
    for (const budget of [1, 3, 10, 20, 100]) {
      const pace = initialPace();
      paceRefused(pace, { waitMs: 1000, limit: budget }, 0, undefined, () => ({ count: 0, oldest: undefined }));
      const sent: number[] = [];
      let now = 0;
      let draw = 7;
      while (sent.length < budget * 30) {
        now += paceDelayMs(pace, now);
        // A worker woken late by a busy event loop, by up to the slack (a fixed sequence: the test is repeatable).
        draw = (draw * 31 + 11) % 17;
        now += (draw / 17) * paceSlackMs(pace);
        if (paceDelayMs(pace, now) > 0) continue;
        paceTake(pace, now);
        sent.push(now);
      }
      let most = 0;
      for (let first = 0, last = 0; first < sent.length; first++) {
        while (last < sent.length && (sent[last] ?? 0) < (sent[first] ?? 0) + 1000) last++;
        most = Math.max(most, last - first);
      }
      expect(most, `budget ${budget}`).toBeLessThanOrEqual(budget);
      // And, late wake-ups within the slack notwithstanding, the budget is spent: at least 0.95 of it over 30 windows.
      const windows = ((sent.at(-1) ?? 0) - (sent[0] ?? 0)) / 1000 + 1 / budget;
      expect(sent.length / windows / budget, `budget ${budget}`).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('takes the budget the API tells (X-RateLimit-Limit) and does not probe above it', () => {
    const pace = initialPace();
    paceRefused(pace, { waitMs: 1000, limit: 50 }, 5000, 4990, () => ({ count: 3, oldest: 4500 }));
    expect(pace.budget).toBe(50);
    for (let i = 0; i < 10_000; i++) paceSucceeded(pace, 6000 + i, 16, true);
    expect(pace.budget).toBe(50);
  });

  it('learns nothing from a 429 that tells no wait (the gate halves instead)', () => {
    const pace = initialPace();
    expect(paceRefused(pace, {}, 5000, 4990, () => ({ count: 3, oldest: 4500 }))).toBe(false);
    expect(pace.windowMs).toBe(0);
    expect(paceDelayMs(pace, 5000)).toBe(0);
  });

  it('does not count again within the window: the 429s after the first are echoes of the same full window', () => {
    const pace = initialPace();
    paceRefused(pace, { waitMs: 1000 }, 5000, 4990, () => ({ count: 20, oldest: 4100 }));
    // Every later refusal in the same window finds fewer accepted (refused ones are taken out as time slides).
    paceRefused(pace, { waitMs: 1000 }, 5300, 5290, () => ({ count: 14, oldest: 4400 }));
    paceRefused(pace, { waitMs: 1000 }, 5600, 5590, () => ({ count: 9, oldest: 4700 }));
    expect(pace.budget).toBe(20);
    // A window later, a 429 counts again.
    paceRefused(pace, { waitMs: 1000 }, 6100, 6090, () => ({ count: 18, oldest: 5200 }));
    expect(pace.budget).toBe(18);
  });

  it('probes a counted budget one higher after enough clean windows, and a refused probe goes back and waits twice as long', () => {
    const pace = initialPace();
    paceRefused(pace, { waitMs: 1000 }, 5000, 4990, () => ({ count: 10, oldest: 4100 }));
    for (let i = 0; i < 4 * 10 - 1; i++) paceSucceeded(pace, 6000 + i, 4, true);
    expect(pace.budget).toBe(10);
    paceSucceeded(pace, 7000, 4, true);
    expect(pace.budget).toBe(11);
    paceRefused(pace, { waitMs: 1000 }, 7100, 7050, () => ({ count: 11, oldest: 6200 }));
    expect(pace.budget).toBe(10);
    for (let i = 0; i < 4 * 10 * 2 - 1; i++) paceSucceeded(pace, 8000 + i, 4, true);
    expect(pace.budget).toBe(10);
    paceSucceeded(pace, 9000, 4, true);
    expect(pace.budget).toBe(11);
  });
});

describe('ApiGate at a request-rate window', () => {
  it('at 20 per 1-s fixed window, the wait only in the text: everything done, ≥ 0.95 of the best schedule, ≤ 5 % refused', async () => {
    const gate = new ApiGate({ max: 16 });
    const result = await run(gate, fixedWindow(20, 1000), { documents: 1000, jobs: 20, latencyMs: 100 });
    expect(result.done).toBe(1000);
    expect(result.refused / result.sent).toBeLessThanOrEqual(0.05);
    // 1,000 documents at 20 per window take 50 windows at best.
    expect(1000 / result.seconds / 20).toBeGreaterThanOrEqual(0.95);
    expect(gate.pacing).toBe(true);
    // The concurrency limit is not what paces: it is not halved by the 429s.
    expect(gate.limit).toBeGreaterThan(2);
  });

  it('at a sliding window, and with Retry-After and X-RateLimit-Limit told, the same', async () => {
    const sliding = await run(new ApiGate({ max: 16 }), slidingWindow(20, 1000), { documents: 600, jobs: 20, latencyMs: 100 });
    expect(sliding.done).toBe(600);
    expect(sliding.refused / sliding.sent).toBeLessThanOrEqual(0.05);
    expect(600 / sliding.seconds / 20).toBeGreaterThanOrEqual(0.95);
    const told = await run(new ApiGate({ max: 16 }), fixedWindow(20, 1000), {
      documents: 600,
      jobs: 20,
      latencyMs: 100,
      hint: (waitMs) => ({ waitMs: Math.ceil(waitMs / 1000) * 1000, resetMs: waitMs, limit: 20 }),
    });
    expect(told.done).toBe(600);
    expect(told.refused / told.sent).toBeLessThanOrEqual(0.05);
  });

  it('at a 15-s window, learns the window from the longest wait the 429s tell', async () => {
    const gate = new ApiGate({ max: 16 });
    const result = await run(gate, fixedWindow(20, 15_000), { documents: 400, jobs: 20, latencyMs: 100 });
    expect(result.done).toBe(400);
    expect(result.refused / result.sent).toBeLessThanOrEqual(0.1);
    // 400 documents at 20 per 15 s take 300 s at best.
    expect(400 / result.seconds / (20 / 15)).toBeGreaterThanOrEqual(0.9);
  });

  it('a rate 429 that tells no wait halves the concurrency limit, as before', async () => {
    const gate = new ApiGate({ max: 16, initial: 8 });
    const tickets = [];
    while (gate.snapshot().inFlight < gate.limit) tickets.push(await gate.acquire());
    for (const ticket of tickets) gate.rateLimited(ticket, {});
    expect(gate.limit).toBe(4);
    expect(gate.pacing).toBe(false);
  });
});
