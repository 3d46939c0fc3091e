/**
 * The adaptive gate against a simulated API with a fixed concurrency limit, driven step by step: the limit must
 * settle on the API's own, not half of it, and probes above it must thin out.
 */
import { describe, expect, it } from 'vitest';
import { ApiGate, type GateTicket } from '../../src/pipeline/api-gate.js';

/** Takes every free slot (as many waiting jobs would), returning the tickets. */
async function fill(gate: ApiGate): Promise<GateTicket[]> {
  const tickets: GateTicket[] = [];
  while (gate.snapshot().inFlight < gate.limit) tickets.push(await gate.acquire());
  return tickets;
}

/**
 * Rounds of "send all we may, the API accepts its first `apiLimit` in flight and refuses the rest at once, the
 * accepted ones then succeed". Returns the limit after each round and the refusals counted.
 */
async function simulate(gate: ApiGate, apiLimit: number, rounds: number) {
  const limits: number[] = [];
  let refused = 0;
  let sent = 0;
  for (let round = 0; round < rounds; round++) {
    const tickets = await fill(gate);
    sent += tickets.length;
    const accepted = tickets.slice(0, apiLimit);
    for (const ticket of tickets.slice(apiLimit)) {
      gate.concurrencyLimited(ticket);
      refused++;
    }
    for (const ticket of accepted) gate.succeeded(ticket);
    limits.push(gate.limit);
  }
  return { limits, refused, sent };
}

describe('ApiGate', () => {
  it('starts low and doubles per round trip until the first 429 (slow start)', async () => {
    const gate = new ApiGate({ max: 64 });
    expect(gate.limit).toBe(2);
    const { limits } = await simulate(gate, 100, 4);
    expect(limits).toEqual([4, 8, 16, 32]);
  });

  it('settles on the API limit exactly after a refusal, not on half of it', async () => {
    const gate = new ApiGate({ max: 16 });
    const { limits } = await simulate(gate, 4, 6);
    expect(limits.slice(2)).toEqual([4, 4, 4, 4]);
  });

  it('probes above a stable ceiling rarely, and ever more rarely while probes fail (≤ 2 % refusals)', async () => {
    const gate = new ApiGate({ max: 16, probeAfter: 16 });
    const { refused, sent, limits } = await simulate(gate, 4, 2000);
    expect(Math.max(...limits.slice(10))).toBeLessThanOrEqual(5);
    expect(refused / sent).toBeLessThan(0.02);
  });

  it('finds new headroom when the API raises its limit', async () => {
    const gate = new ApiGate({ max: 16, probeAfter: 2 });
    await simulate(gate, 4, 20);
    const { limits } = await simulate(gate, 8, 400);
    // At the new ceiling, give or take the occasional probe one above it.
    expect(Math.min(...limits.slice(-50))).toBe(8);
    expect(Math.max(...limits.slice(-50))).toBeLessThanOrEqual(9);
  });

  it('does not probe when the queue is nearly drained, so the last documents never wait out a refusal', async () => {
    const gate = new ApiGate({ max: 16, probeAfter: 1 });
    await simulate(gate, 4, 10);
    gate.setBacklog(0);
    const nearlyDone = await simulate(gate, 4, 200);
    expect(nearlyDone.refused).toBe(0);
    gate.setBacklog(undefined);
    const unknown = await simulate(gate, 4, 200);
    expect(unknown.refused).toBeGreaterThan(0);
  });

  it('probes a paced budget learned short back up while the queue holds more than a second of work at that pace', async () => {
    const gate = new ApiGate({ max: 8, probeAfter: 1 });
    // 40 documents wait: gone in well under a second at 8 in flight to an API that answers at once, but two seconds at
    // 2 requests per 100 ms, the pace this gate is about to learn.
    gate.setBacklog(40);
    const accepted = [await gate.acquire(), await gate.acquire()];
    for (const ticket of accepted) gate.succeeded(ticket);
    gate.rateLimited(await gate.acquire(), { windowMs: 100 });
    expect(gate.paceBudget).toBe(2);
    for (let i = 0; i < 24; i++) gate.succeeded(await gate.acquire());
    expect(gate.paceBudget).toBeGreaterThan(3);
    // With nothing left waiting a probe is not worth its possible refusal.
    gate.setBacklog(0);
    const before = gate.paceBudget;
    for (let i = 0; i < 12; i++) gate.succeeded(await gate.acquire());
    expect(gate.paceBudget).toBe(before);
  });

  it('halves on a per-minute rate 429, once per overload', async () => {
    const gate = new ApiGate({ max: 16, initial: 8 });
    const tickets = await fill(gate);
    for (const ticket of tickets) gate.rateLimited(ticket);
    expect(gate.limit).toBe(4);
  });

  it('never goes below 1 or above max, and wakes waiters when slots free up', async () => {
    const gate = new ApiGate({ max: 3, initial: 1 });
    const first = await gate.acquire();
    let second: GateTicket | undefined;
    const waiting = gate.acquire().then((ticket) => (second = ticket));
    // Queued: a slot is granted only when one frees, synchronously, so after a turn of the event loop it still waits.
    await new Promise((resolve) => setImmediate(resolve));
    expect(second).toBeUndefined();
    expect(gate.snapshot()).toEqual({ limit: 1, inFlight: 1, waiting: 1 });
    gate.concurrencyLimited(first);
    expect(gate.limit).toBe(1);
    await waiting;
    expect(second).toBeDefined();
    if (second) gate.succeeded(second);
    for (let i = 0; i < 100; i++) gate.succeeded(await gate.acquire());
    expect(gate.limit).toBeLessThanOrEqual(3);
  });

  it('a waiter whose signal aborts leaves the queue', async () => {
    const gate = new ApiGate({ max: 1, initial: 1 });
    await gate.acquire();
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(gate.snapshot().waiting).toBe(0);
  });
});
