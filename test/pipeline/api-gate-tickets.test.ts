/**
 * The adaptive gate's public API on the paths the simulation in api-gate.test.ts does not take: responses the API
 * held in its concurrency queue (`data.metadata.concurrencyLimited` with `concurrencyQueueDurationMs`, reported to
 * the gate as `queuedByApi`), and tickets settled more than once.
 */
import { describe, expect, it } from 'vitest';
import { ApiGate, type GateTicket } from '../../src/pipeline/api-gate.js';

/** Takes every free slot (as many waiting jobs would), returning the tickets in the order they were granted. */
async function fill(gate: ApiGate): Promise<GateTicket[]> {
  const tickets: GateTicket[] = [];
  while (gate.snapshot().inFlight < gate.limit) tickets.push(await gate.acquire());
  return tickets;
}

/**
 * Whether `promise` has settled once every callback already due has run (one turn of the event loop). The gate grants
 * a slot synchronously when one frees, so a request still unsettled after the turn is waiting for one.
 */
async function settledNow(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

/**
 * Rounds of "send all we may; the API serves its first `apiLimit` at once and holds the rest in its queue, answering
 * them later marked `concurrencyLimited`". Returns the limit after each round and how many requests were queued.
 */
async function simulateQueueingApi(gate: ApiGate, apiLimit: number, rounds: number) {
  const limits: number[] = [];
  let queued = 0;
  let sent = 0;
  for (let round = 0; round < rounds; round++) {
    const tickets = await fill(gate);
    sent += tickets.length;
    for (const ticket of tickets.slice(0, apiLimit)) gate.succeeded(ticket);
    for (const ticket of tickets.slice(apiLimit)) {
      gate.queuedByApi(ticket);
      queued++;
    }
    limits.push(gate.limit);
  }
  return { limits, queued, sent };
}

describe('ApiGate: responses the API held in its concurrency queue', () => {
  it('lowers the limit to what the API served at once (the queued request excluded), not to half', async () => {
    const gate = new ApiGate({ max: 16, initial: 8 });
    const tickets = await fill(gate);
    expect(tickets).toHaveLength(8);
    // The API served five at once; the sixth waited in its queue.
    gate.queuedByApi(tickets[5]!);
    expect(gate.limit).toBe(5);
  });

  it('lowers once per overload: later queued answers for requests sent before the decrease are echoes', async () => {
    const gate = new ApiGate({ max: 16, initial: 8 });
    const tickets = await fill(gate);
    for (const ticket of tickets.slice(4)) gate.queuedByApi(ticket);
    expect(gate.limit).toBe(4);
    for (const ticket of tickets.slice(0, 4)) gate.succeeded(ticket);
    expect(gate.snapshot()).toEqual({ limit: 4, inFlight: 0, waiting: 0 });
  });

  it('ends slow start: successes after a queued answer no longer raise the limit one by one', async () => {
    const gate = new ApiGate({ max: 16, initial: 2 });
    // Slow start: one more per success.
    for (let i = 0; i < 2; i++) gate.succeeded(await gate.acquire());
    expect(gate.limit).toBe(4);
    const tickets = await fill(gate);
    gate.queuedByApi(tickets[3]!);
    expect(gate.limit).toBe(3);
    for (const ticket of tickets.slice(0, 3)) gate.succeeded(ticket);
    for (let i = 0; i < 10; i++) gate.succeeded(await gate.acquire());
    expect(gate.limit).toBe(3);
  });

  it('never lowers below one request in flight', async () => {
    const gate = new ApiGate({ max: 4, initial: 1 });
    for (let i = 0; i < 5; i++) gate.queuedByApi(await gate.acquire());
    expect(gate.limit).toBe(1);
    const ticket = await gate.acquire();
    expect(gate.snapshot()).toEqual({ limit: 1, inFlight: 1, waiting: 0 });
    gate.succeeded(ticket);
  });

  it('frees the slot of a queued request: a waiter gets it', async () => {
    const gate = new ApiGate({ max: 2, initial: 2 });
    const [first, second] = (await fill(gate)) as [GateTicket, GateTicket];
    const third = gate.acquire();
    expect(await settledNow(third)).toBe(false);
    expect(gate.snapshot()).toEqual({ limit: 2, inFlight: 2, waiting: 1 });
    gate.queuedByApi(second);
    // The limit is now 1 and `first` still holds it: the waiter must wait for it.
    expect(gate.limit).toBe(1);
    expect(await settledNow(third)).toBe(false);
    expect(gate.snapshot()).toEqual({ limit: 1, inFlight: 1, waiting: 1 });
    gate.succeeded(first);
    expect(gate.snapshot().waiting).toBe(0);
    expect(await settledNow(third)).toBe(true);
    gate.succeeded(await third);
  });

  it('settles on the limit of an API that queues beyond it, probing above it rarely', async () => {
    const gate = new ApiGate({ max: 16, probeAfter: 16 });
    const { limits, queued, sent } = await simulateQueueingApi(gate, 4, 2000);
    // Slow start overshoots once, then the limit stays at the API's, give or take a probe one above it.
    expect(Math.min(...limits.slice(2))).toBe(4);
    expect(Math.max(...limits.slice(2))).toBeLessThanOrEqual(5);
    expect(queued / sent).toBeLessThan(0.02);
  });
});

describe('ApiGate: a ticket settles once', () => {
  it('releasing a ticket twice frees one slot, not two', async () => {
    const gate = new ApiGate({ max: 2, initial: 2 });
    const [first] = (await fill(gate)) as [GateTicket, GateTicket];
    gate.released(first);
    gate.released(first);
    expect(gate.snapshot().inFlight).toBe(1);
    const third = await gate.acquire();
    // `second` and `third` hold both slots: a fourth request must wait.
    const fourth = gate.acquire();
    expect(await settledNow(fourth)).toBe(false);
    expect(gate.snapshot()).toMatchObject({ limit: 2, inFlight: 2, waiting: 1 });
    gate.released(third);
    gate.released(await fourth);
  });

  it('a success reported twice raises the limit once', async () => {
    const gate = new ApiGate({ max: 8, initial: 2 });
    const ticket = await gate.acquire();
    gate.succeeded(ticket);
    gate.succeeded(ticket);
    expect(gate.limit).toBe(3);
    expect(gate.snapshot().inFlight).toBe(0);
  });

  it('an outcome reported after the ticket was settled changes nothing', async () => {
    const gate = new ApiGate({ max: 8, initial: 4 });
    const tickets = await fill(gate);
    gate.succeeded(tickets[0]!);
    const after = gate.snapshot();
    expect(after).toEqual({ limit: 5, inFlight: 3, waiting: 0 });
    gate.concurrencyLimited(tickets[0]!);
    gate.queuedByApi(tickets[0]!);
    gate.rateLimited(tickets[0]!);
    gate.released(tickets[0]!);
    expect(gate.snapshot()).toEqual(after);
  });
});
