/**
 * WHAT-IF ONLY (benchmark diagnosis, never used by docmill): a copy of src/pipeline/api-gate.ts as of this
 * benchmark, with two changes, to test the suggestions in BENCHMARKS.md without touching src/:
 *
 * 1. `concurrencyLimited`: every `Concurrency limit reached` 429 (echoes of the same burst included) caps the limit
 *    at the number still in flight once the refused request has left, instead of min(limit × decrease,
 *    in flight − 1) for the first 429 of a burst only. A concurrency 429 is answered at once, so what is still in
 *    flight is what the API accepted: the limit lands on the API's own, not on half of it, and there is no climb
 *    back (the sawtooth in the request log).
 * 2. Probe back-off: a probe (one step above the limit) that is refused doubles the successes needed before the
 *    next probe, up to 64×; a probe that succeeds resets it. At a stable ceiling the probes, and so the 429s and
 *    the Retry-After waits they cost, thin out geometrically instead of coming every probeAfter × limit successes.
 *
 * Everything else is unchanged.
 *
 * Original header follows.
 */
/**
 * How many parse requests this process keeps in flight, adapted to what the API accepts (AIMD).
 *
 * BullMQ's worker concurrency decides how many jobs are open; this gate decides how many of them are talking to
 * the API at once. Keeping the two apart lets a job read its file, hash it, and write its outputs while other
 * jobs hold the API's slots, so the API's real limit is used to the full.
 *
 * - A `Concurrency limit reached` 429 means the API's limit is at most the number we had in flight minus one:
 *   the limit drops to min(limit × decrease, inFlight − 1), at least 1. Further 429s from the same burst (requests
 *   that were already in flight when we lowered it) do not lower it again.
 * - A `Rate limit exceeded` 429 is about requests per minute, not concurrency: the limit drops multiplicatively.
 * - Successes raise the limit by one after `probeAfter × limit` consecutive successes, so the gate probes for
 *   headroom now and then instead of hammering a ceiling (each probe above the API's limit costs one 429).
 */
interface ApiGateOptions {
  /** The ceiling (`--concurrency`). */
  max: number;
  /** Where to start. @default max */
  initial?: number;
  /** Multiplicative decrease factor on a 429. @default 0.5 */
  decrease?: number;
  /** Successes per unit of limit before probing one higher. @default 16 */
  probeAfter?: number;
}

interface GateSnapshot {
  limit: number;
  inFlight: number;
  waiting: number;
}

export class WhatIfApiGate {
  #limit: number;
  #inFlight = 0;
  #successes = 0;
  /** WHAT-IF (change 2): the limit the last probe raised from, while its outcome is unknown. */
  #probeFrom: number | undefined;
  /** WHAT-IF (change 2): multiplies the successes needed before the next probe. */
  #probeBackoff = 1;
  /** Throttles that arrive for requests sent before the last decrease are echoes of the same overload. */
  #epoch = 0;
  readonly #waiters: (() => void)[] = [];
  readonly #max: number;
  readonly #decrease: number;
  readonly #probeAfter: number;

  constructor(options: ApiGateOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) throw new RangeError('ApiGate max must be a positive integer');
    this.#max = options.max;
    this.#limit = Math.min(options.initial ?? options.max, options.max);
    this.#decrease = options.decrease ?? 0.5;
    this.#probeAfter = options.probeAfter ?? 16;
  }

  get limit(): number {
    return this.#limit;
  }

  snapshot(): GateSnapshot {
    return { limit: this.#limit, inFlight: this.#inFlight, waiting: this.#waiters.length };
  }

  /** Waits for a slot; returns a ticket to pass to the outcome call. */
  async acquire(signal?: AbortSignal): Promise<GateTicket> {
    while (this.#inFlight >= this.#limit) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const index = this.#waiters.indexOf(wake);
          if (index >= 0) this.#waiters.splice(index, 1);
          reject(signal?.reason);
        };
        this.#waiters.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    this.#inFlight++;
    return { epoch: this.#epoch, inFlightAtStart: this.#inFlight };
  }

  /** The request succeeded. */
  succeeded(ticket: GateTicket): void {
    this.#release();
    // WHAT-IF (change 2): a request that ran above the ceiling the last probe started from succeeded: the probe
    // found headroom, so probing goes back to its normal pace.
    if (this.#probeFrom !== undefined && ticket.inFlightAtStart > this.#probeFrom) {
      this.#probeFrom = undefined;
      this.#probeBackoff = 1;
    }
    this.#successes++;
    if (this.#limit < this.#max && this.#successes >= this.#probeAfter * this.#limit * this.#probeBackoff) {
      this.#probeFrom = this.#limit;
      this.#limit++;
      this.#successes = 0;
      this.#wake();
    }
  }

  /** The request was refused with a concurrency 429. */
  concurrencyLimited(ticket: GateTicket): void {
    // WHAT-IF: was
    //   const inFlight = this.#inFlight; this.#release(); if (ticket.epoch !== this.#epoch) return;
    //   const observed = Math.max(1, inFlight - 1);
    //   this.#lower(Math.min(Math.floor(this.#limit * this.#decrease), observed));
    // now: every concurrency 429, echoes included, caps the limit at what is still in flight once the refused
    // request has left (refusals come back at once, so what is left is what the API accepted). Never raises it.
    void ticket;
    this.#release();
    // WHAT-IF (change 2): a probe that ends in a concurrency 429 doubles the wait before the next one (at most
    // 64 times the normal pace); a probe that succeeds resets it (see succeeded).
    if (this.#probeFrom !== undefined) {
      this.#probeBackoff = Math.min(this.#probeBackoff * 2, 64);
      this.#probeFrom = undefined;
    }
    this.#lower(Math.max(1, this.#inFlight));
  }

  /** The request was refused with a per-minute rate 429. */
  rateLimited(ticket: GateTicket): void {
    this.#release();
    if (ticket.epoch !== this.#epoch) return;
    this.#lower(Math.floor(this.#limit * this.#decrease));
  }

  /** The API queued the request (`metadata.concurrencyLimited`): we are at its limit; stop probing above it. */
  queuedByApi(ticket: GateTicket): void {
    this.#release();
    this.#successes = 0;
    if (ticket.epoch === this.#epoch && this.#limit > 1 && ticket.inFlightAtStart <= this.#limit) {
      this.#lower(Math.max(1, ticket.inFlightAtStart - 1));
    }
  }

  /** Any other outcome (an error unrelated to load): frees the slot without learning anything. */
  released(_ticket: GateTicket): void {
    this.#release();
  }

  #lower(target: number): void {
    const next = Math.max(1, Math.min(this.#limit, target));
    this.#successes = 0;
    this.#epoch++;
    this.#limit = next;
  }

  #release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#wake();
  }

  #wake(): void {
    let free = this.#limit - this.#inFlight;
    while (free > 0 && this.#waiters.length > 0) {
      this.#waiters.shift()?.();
      free--;
    }
  }
}

interface GateTicket {
  readonly epoch: number;
  readonly inFlightAtStart: number;
}
