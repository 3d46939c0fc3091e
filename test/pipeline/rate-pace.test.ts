/**
 * Pacing at a request-rate window (src/pipeline/rate-pace.ts, in ApiGate): the window and budget learned from what
 * the 429s say, the budget spent evenly. Simulated clock (vitest's fake timers) and a simulated API that counts
 * requests per window, so every figure is a count of requests, never a measured duration.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RateLimitHint } from '../../src/backend/errors.js';
import { ApiGate } from '../../src/pipeline/api-gate.js';
import { EDGE_WINDOWS, initialPace, PACE_MARGIN, paceDelayMs, paceRefused, paceSucceeded, windowFromHint } from '../../src/pipeline/rate-pace.js';

/** The pace's view of a log of send times: the ones after a moment, oldest first. */
const since = (sends: readonly number[]) => (from: number) => sends.filter((at) => at > from);

/** The most requests any span of `ms` holds. */
function mostWithin(sent: readonly number[], ms: number): number {
  const sorted = [...sent].sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; first < sorted.length; first++) {
    while (last < sorted.length && (sorted[last] ?? 0) < (sorted[first] ?? 0) + ms) last++;
    most = Math.max(most, last - first);
  }
  return most;
}

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
  it('counts the budget from the requests the API accepted in the window, and lets the next go once the oldest has left it', () => {
    const pace = initialPace();
    const sends = Array.from({ length: 20 }, (_, i) => 1000 + i * 10);
    expect(paceRefused(pace, { waitMs: 1000 }, 1250, 1245, since(sends))).toBe(true);
    expect(pace.windowMs).toBe(1000);
    expect(pace.budget).toBe(20);
    // The next request waits for the oldest counted one to leave the window (and its margin).
    const span = 1000 * (1 + PACE_MARGIN);
    expect(paceDelayMs(pace, 1250, since(sends))).toBeCloseTo(1000 + span - 1250);
    // Then one slot comes back per request that leaves, each a window after it went.
    expect(paceDelayMs(pace, 1000 + span + 1, since(sends))).toBe(0);
    sends.push(1000 + span + 1);
    expect(paceDelayMs(pace, 1000 + span + 1, since(sends))).toBeCloseTo(10 - 1);
  });

  it('never lets a span of one window hold more than the budget, and workers woken late lose no more than their lateness', () => {
    for (const budget of [1, 3, 10, 20, 100]) {
      const pace = initialPace();
      paceRefused(pace, { waitMs: 1000, limit: budget }, 0, undefined, since([]));
      const sent: number[] = [];
      let now = 0;
      let draw = 7;
      while (sent.length < budget * 30) {
        const wait = paceDelayMs(pace, now, since(sent));
        if (wait > 0) {
          // A worker waiting for its turn is woken late by a busy event loop or a starved CPU, by up to 2 % of the
          // window (a fixed sequence: the test is repeatable). Spaced evenly, every late turn would push the later
          // ones back.
          draw = (draw * 31 + 11) % 17;
          now += wait + (draw / 17) * 20;
          continue;
        }
        sent.push(now);
      }
      expect(mostWithin(sent, 1000), `budget ${budget}`).toBeLessThanOrEqual(budget);
      // The budget is spent: at least 0.95 of it over the windows from the first request to a window after the last.
      const windows = ((sent.at(-1) ?? 0) - (sent[0] ?? 0)) / 1000 + 1;
      expect(sent.length / windows / budget, `budget ${budget}`).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('catches up a window the fleet left short: after an idle spell the whole budget may go at once, and not one more', () => {
    const pace = initialPace();
    paceRefused(pace, { waitMs: 1000, limit: 20 }, 0, undefined, since([]));
    // Five requests, then nobody for half a window (documents in the delayed set, workers busy reading).
    const sent = [0, 50, 100, 150, 200];
    let now = 700;
    let burst = 0;
    while (paceDelayMs(pace, now, since(sent)) === 0) {
      sent.push(now);
      burst++;
    }
    expect(burst).toBe(15);
    // Once the first five have left the window, five more at once.
    now = 200 + 1000 * (1 + PACE_MARGIN) + 1;
    burst = 0;
    while (paceDelayMs(pace, now, since(sent)) === 0) {
      sent.push(now);
      burst++;
    }
    expect(burst).toBe(5);
    expect(mostWithin(sent, 1000)).toBe(20);
  });

  it('takes the budget the API tells (X-RateLimit-Limit) and does not probe above it', () => {
    const pace = initialPace();
    paceRefused(pace, { waitMs: 1000, limit: 50 }, 5000, 4990, since(Array.from({ length: 3 }, (_, i) => 4500 + i)));
    expect(pace.budget).toBe(50);
    for (let i = 0; i < 10_000; i++) paceSucceeded(pace, 6000 + i, 16, true, 50);
    expect(pace.budget).toBe(50);
  });

  it('learns nothing from a 429 that tells no wait (the gate halves instead)', () => {
    const pace = initialPace();
    expect(paceRefused(pace, {}, 5000, 4990, since(Array.from({ length: 3 }, (_, i) => 4500 + i)))).toBe(false);
    expect(pace.windowMs).toBe(0);
    expect(paceDelayMs(pace, 5000, since([4500, 4600, 4700]))).toBe(0);
  });

  it('does not count again within the window: the 429s after the first are echoes of the same full window', () => {
    const pace = initialPace();
    paceRefused(pace, { waitMs: 1000 }, 5000, 4990, since(Array.from({ length: 20 }, (_, i) => 4100 + i)));
    // Every later refusal in the same window finds fewer accepted (refused ones are taken out as time slides).
    paceRefused(pace, { waitMs: 1000 }, 5300, 5290, since(Array.from({ length: 14 }, (_, i) => 4400 + i)));
    paceRefused(pace, { waitMs: 1000 }, 5600, 5590, since(Array.from({ length: 9 }, (_, i) => 4700 + i)));
    expect(pace.budget).toBe(20);
    // A window later, a 429 counts again.
    paceRefused(pace, { waitMs: 1000 }, 6100, 6090, since(Array.from({ length: 18 }, (_, i) => 5200 + i)));
    expect(pace.budget).toBe(18);
  });

  it('an echo of a request sent before the counted one (still out when counted) takes it back out of the budget', () => {
    const pace = initialPace();
    // 20 sent from 4100 on; the one sent at 4990 is refused first, while 10 sent before it are still out: counted 20.
    const sends = Array.from({ length: 20 }, (_, i) => 4100 + i);
    paceRefused(pace, { waitMs: 1000 }, 5000, 4990, since(sends));
    expect(pace.budget).toBe(20);
    // Their 429s come in the same window: each was counted as accepted, and was not.
    for (let i = 0; i < 10; i++) paceRefused(pace, { waitMs: 1000 }, 5010 + i, 4110 + i, since(sends.slice(0, 10)));
    expect(pace.budget).toBe(10);
    // A refusal of one sent after the counted one is an echo that teaches nothing.
    paceRefused(pace, { waitMs: 1000 }, 5100, 5050, since(sends.slice(0, 10)));
    expect(pace.budget).toBe(10);
  });

  it('brings a budget counted too high down at every refusal, never below what the window that refused held', () => {
    const pace = initialPace();
    const span = 1000 * (1 + PACE_MARGIN);
    // A fixed window of 20 opened at 0 took 20 in its last 100 ms; the next opened at 1000 took 20 more; the 21st
    // of the second is refused, and the count before it takes in the first window's tail: 20 + 20 × 0.02 / 0.1.
    const sends = [...Array.from({ length: 20 }, (_, i) => 900 + i * 5), ...Array.from({ length: 20 }, (_, i) => 1000 + i * 40)];
    paceRefused(pace, { waitMs: 1000 }, 1801, 1800, since(sends));
    expect(pace.budget).toBeGreaterThan(20);
    // Paced at that budget, every refusal it still meets finds fewer requests before it than the budget (the pace let
    // it go), and at least the 20 the refusing window held: the budget falls until no window refuses.
    const api = fixedWindow(20, 1000);
    const sent: number[] = [];
    let now = 5000;
    let refusals = 0;
    while (sent.length < 20 * 40) {
      now += paceDelayMs(pace, now, since(sent));
      if (api(now).ok) {
        sent.push(now);
        paceSucceeded(pace, now, 16, false, since(sent)(now - span).length);
      } else {
        refusals++;
        paceRefused(pace, { waitMs: 1000 }, now + 1, now, since(sent));
        expect(pace.budget).toBeGreaterThanOrEqual(20);
      }
      now += 1;
    }
    expect(pace.budget).toBe(20);
    expect(refusals).toBeLessThanOrEqual(sends.length - 20 + 1);
    expect(mostWithin(sent, 1000)).toBeLessThanOrEqual(20);
  });

  it("keeps a budget that held at one refusal at a window's edge (jitter beyond the margin); a second soon after costs one, which the probe wins back", () => {
    const pace = initialPace();
    const earlier = Array.from({ length: 20 }, (_, i) => -3000 + i * 20);
    paceRefused(pace, { waitMs: 1000 }, -2590, -2600, since(earlier));
    expect(pace.budget).toBe(20);
    // The budget holds for EDGE_WINDOWS windows, every span spent and accepted.
    for (let i = 0; i < EDGE_WINDOWS * 20; i++) paceSucceeded(pace, -2000 + i, 16, true, 20);
    // 20 more, then one as soon as the first of them has left the window and its margin; the API still counted that
    // first one in the same window (it arrived late), and refused it: one request fewer than the budget before it,
    // as with a budget one too high.
    const sends = Array.from({ length: 20 }, (_, i) => i * 20);
    const edge = 1000 * (1 + PACE_MARGIN) + 0.5;
    expect(paceDelayMs(pace, edge, since(sends))).toBe(0);
    paceRefused(pace, { waitMs: 1000 }, edge + 1, edge, since(sends));
    expect(pace.budget).toBe(20);
    // The same again two windows later: a budget one too high would be refused in every window, so it is lowered.
    paceSucceeded(pace, 2100, 16, true, 20);
    const later = sends.map((at) => at + 2100);
    paceRefused(pace, { waitMs: 1000 }, 2100 + edge + 1, 2100 + edge, since(later));
    expect(pace.budget).toBe(19);
    // 16 clean windows later, probed one higher; the probe holds once a span held 20 accepted requests.
    for (let i = 0; i < 16 * 19; i++) paceSucceeded(pace, 5000 + i, 16, true, 19);
    expect(pace.budget).toBe(20);
    expect(pace.probeFrom).toBe(19);
    for (let i = 0; i < 40; i++) paceSucceeded(pace, 9000 + i, 16, true, 19);
    expect(pace.probeFrom).toBe(19);
    paceSucceeded(pace, 9100, 16, true, 20);
    expect(pace.probeFrom).toBe(0);
    expect(pace.budget).toBe(20);
  });

  it('probes a counted budget one higher after enough clean windows, and a refused probe goes back and waits twice as long', () => {
    const pace = initialPace();
    paceRefused(pace, { waitMs: 1000 }, 5000, 4990, since(Array.from({ length: 10 }, (_, i) => 4100 + i)));
    for (let i = 0; i < 4 * 10 - 1; i++) paceSucceeded(pace, 6000 + i, 4, true, 10);
    expect(pace.budget).toBe(10);
    paceSucceeded(pace, 7000, 4, true, 10);
    expect(pace.budget).toBe(11);
    paceRefused(pace, { waitMs: 1000 }, 7100, 7050, since(Array.from({ length: 11 }, (_, i) => 6200 + i)));
    expect(pace.budget).toBe(10);
    for (let i = 0; i < 4 * 10 * 2 - 1; i++) paceSucceeded(pace, 8000 + i, 4, true, 10);
    expect(pace.budget).toBe(10);
    paceSucceeded(pace, 9000, 4, true, 10);
    expect(pace.budget).toBe(11);
  });

  it('wins back a budget counted at a third of the API\'s a window or two a step once a probe holds, and waits the usual span after the climb is refused', () => {
    const pace = initialPace();
    // The first window trickled: 3 requests counted where the API allows 10.
    paceRefused(pace, { waitMs: 1000 }, 1000, 990, since([100, 400, 700]));
    expect(pace.budget).toBe(3);
    let now = 2000;
    let successes = 0;
    const succeed = (spent: number) => {
      paceSucceeded(pace, now++, 16, true, spent);
      successes++;
    };
    for (let i = 0; i < 16 * 3; i++) succeed(3);
    expect(pace.budget).toBe(4);
    // Every held probe starts the next a window later: the budget climbs to the API's 10 within a few dozen
    // successes, not the 16 windows a step (528 successes) of a probe after every clean stretch.
    successes = 0;
    while (pace.budget < 11 && successes < 200) succeed(Math.min(pace.budget, 10));
    expect(pace.budget).toBe(11);
    expect(successes).toBeLessThanOrEqual(2 * (4 + 5 + 6 + 7 + 8 + 9 + 10));
    // The probe to 11 is refused: back to 10, and the next probe waits 16 windows, as after any refused probe.
    paceRefused(pace, { waitMs: 1000 }, now + 10, now + 5, since(Array.from({ length: 10 }, (_, i) => now - 500 + i)));
    expect(pace.budget).toBe(10);
    for (let i = 0; i < 16 * 10 - 1; i++) succeed(10);
    expect(pace.budget).toBe(10);
    succeed(10);
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
