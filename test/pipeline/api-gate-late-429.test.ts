/**
 * A concurrency 429 teaches the gate what the API accepts only when it was a refusal at admission, answered at
 * once; one that comes back as late as a parse (the API took the request in, then failed it) frees its slot and
 * teaches nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiGate, answeredLate } from '../../src/pipeline/api-gate.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('ApiGate: late concurrency 429s', () => {
  it('after slow start, a 429 as late as a parse frees its slot and leaves the limit; one answered at once lowers it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const gate = new ApiGate({ max: 8, initial: 6 });
    // Slow start ends with a refusal at admission: the limit drops to the 5 still in flight.
    const tickets = [await gate.acquire(), await gate.acquire(), await gate.acquire(), await gate.acquire(), await gate.acquire(), await gate.acquire()];
    gate.concurrencyLimited(tickets[5]!);
    expect(gate.limit).toBe(5);
    vi.setSystemTime(Date.now() + 100);
    gate.succeeded(tickets[0]!);
    gate.concurrencyLimited(tickets[1]!);
    expect(gate.limit).toBe(5);
    expect(gate.snapshot().inFlight).toBe(3);

    const refusedAtOnce = await gate.acquire();
    gate.concurrencyLimited(refusedAtOnce);
    expect(gate.limit).toBe(3);
    for (const ticket of tickets.slice(2, 5)) gate.succeeded(ticket);
  });

  it('during slow start, a late 429 ends it without lowering the limit: successes then no longer raise it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const gate = new ApiGate({ max: 8, initial: 4 });
    const [first, late, third, fourth] = [await gate.acquire(), await gate.acquire(), await gate.acquire(), await gate.acquire()];
    vi.setSystemTime(Date.now() + 100);
    gate.succeeded(first!);
    expect(gate.limit).toBe(5);
    gate.concurrencyLimited(late!);
    expect(gate.limit).toBe(5);
    gate.succeeded(third!);
    gate.succeeded(fourth!);
    expect(gate.limit).toBe(5);
  });

  it('judges lateness against 3/4 of the usual duration, never below 25 ms, and not at all before a duration is known', () => {
    expect(answeredLate(5000, undefined)).toBe(false);
    expect(answeredLate(10, 0)).toBe(false);
    expect(answeredLate(30, 0)).toBe(true);
    expect(answeredLate(700, 1000)).toBe(false);
    expect(answeredLate(800, 1000)).toBe(true);
  });
});
