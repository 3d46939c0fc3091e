/**
 * How many parse requests this process keeps in flight, adapted to what the API accepts.
 *
 * BullMQ's worker concurrency decides how many jobs are open; this gate decides how many of them are talking to
 * the API at once. Keeping the two apart lets a job read its file, hash it, and write its outputs while other
 * jobs hold the API's slots, so the API's real limit is used to the full.
 *
 * - Slow start: the limit starts low and grows by one per success (doubling every round trip) until the first
 *   429, so a run does not open with a burst of refusals.
 * - A `Concurrency limit reached` 429 is answered at once, so what is still in flight once the refused request has
 *   left is what the API accepted: the limit drops to that number (at least 1), on every such 429. Halving instead
 *   would park the limit at half the API's and leave it climbing back (measured: 0.71 of the throughput possible).
 *   A 429 that comes back as late as a parse does (at least 3/4 of the smoothed duration of a success) was not
 *   refused at admission: the API took the request in and failed it, as a 503 would, and what is in flight then
 *   says nothing of what it accepts, so it does not lower the limit; it only ends slow start (a busy client's own
 *   delays can make a refusal at admission look late, and the next one that does not will lower it).
 * - A `Rate limit exceeded` 429 is about requests per window, not concurrency: the gate learns the window and its
 *   budget from what the 429 says and spends it per window (./rate-pace.ts), leaving the concurrency limit
 *   alone. Only a rate 429 that tells no wait at all (nothing to learn a window from) halves the limit.
 * - After `probeAfter × limit` successes in a row the gate probes one request higher, to find headroom a raised
 *   plan or a quieter fleet has left. A refused probe doubles the successes needed before the next (up to 64×), a
 *   successful one resets that, so at a stable ceiling the probes, and the 429s they cost, thin out geometrically.
 *   No probe is made when the work left (the queue's backlog, told by `setBacklog`) would be done within about a
 *   second at the current rate (the limit over the latency, or a paced budget's own rate when lower: a budget learned a
 *   few requests short at a 1-s window is probed back while hundreds of documents wait): a refused probe then costs its document a Retry-After wait at the very end of the
 *   run, with the API idle (measured: 2 % of a 50 s run).
 *
 * Several worker processes on one queue (`docmill worker` on several machines) face one API limit, so they must
 * learn it together: each with its own gate, every worker's slow start and probes cost 429s of their own, and the
 * fleet's decreases chase each other (measured: 14.5 % of requests refused with 4 workers, 1.2 % with one).
 * SharedApiGate (./shared-gate.ts) keeps this policy in Redis, keyed by the queue, as one in-flight count with a
 * lease per request rather than one learned limit divided among the connected workers, because:
 * - the decrease rule needs the fleet's in-flight count at the moment of a 429 ("what is still in flight is what
 *   the API accepted"); a divided limit knows only its own share of it;
 * - a share strands capacity: a worker whose jobs are reading, writing or waiting in the delayed set leaves its
 *   share idle while another's jobs queue for slots; shares of a small limit (C = 4 among 3 workers) do not even
 *   divide evenly;
 * - membership needs no bookkeeping: a worker that dies stops renewing its leases and its slots come back when
 *   they expire, where a divided limit must first notice the worker is gone before re-dividing.
 * The cost is one Redis round trip per request (a Lua script to take a slot, one to report its outcome); a worker
 * refused a slot waits for a message that one freed, not for a poll. This class stays the gate of a process
 * without Redis to share (the benchmarks' diagnosis, tests of the policy).
 */
import type { RateLimitHint } from '../backend/errors.js';
import { initialPace, paceDelayMs, paceRefused, paceSpanMs, paceSucceeded, requestsPerSecond, SEND_LOG_MS, type PaceState, type SentSince } from './rate-pace.js';

/** What DocumentProcessor needs of a gate: ApiGate within one process, SharedApiGate across a queue's workers. */
export interface ParseGate {
  readonly limit: number;
  /** Whether requests are spaced by a learned rate budget (as of the last answer the gate has heard of). */
  readonly pacing: boolean;
  snapshot(): GateSnapshot;
  acquire(signal?: AbortSignal): Promise<GateTicket>;
  setBacklog(documents: number | undefined): void;
  succeeded(ticket: GateTicket): void;
  concurrencyLimited(ticket: GateTicket): void;
  rateLimited(ticket: GateTicket, hint?: RateLimitHint): void;
  queuedByApi(ticket: GateTicket): void;
  released(ticket: GateTicket): void;
}

export interface ApiGateOptions {
  /** The ceiling (`--concurrency`). */
  max: number;
  /** Where to start. @default min(max, 2), then slow start */
  initial?: number;
  /** Multiplicative decrease on a per-minute 429. @default 0.5 */
  decrease?: number;
  /** Successes per unit of limit before probing one higher (and windows before probing a counted rate budget). @default 16 */
  probeAfter?: number;
}

export interface GateSnapshot {
  limit: number;
  inFlight: number;
  waiting: number;
}

export class ApiGate implements ParseGate {
  #limit: number;
  #inFlight = 0;
  #successes = 0;
  #slowStart = true;
  /** The limit the last probe raised from, while its outcome is unknown. */
  #probeFrom: number | undefined;
  /** Multiplies the successes needed before the next probe. */
  #probeBackoff = 1;
  /** Jobs waiting in the queue, when known. */
  #backlog: number | undefined;
  /** Smoothed request duration, for judging whether the backlog outlasts a probe's possible Retry-After. */
  #latencyMs: number | undefined;
  /** Throttles that arrive for requests sent before the last decrease are echoes of the same overload. */
  #epoch = 0;
  readonly #waiters: (() => void)[] = [];
  /** The rate window's pace, and the requests sent within the send log's reach (refused ones taken out). */
  readonly #pace: PaceState = initialPace();
  readonly #sent = new Map<GateTicket, number>();
  /** Tickets whose outcome was told: a second report of the same request must neither free a slot nor teach. */
  readonly #settled = new WeakSet<GateTicket>();
  readonly #max: number;
  readonly #decrease: number;
  readonly #probeAfter: number;

  constructor(options: ApiGateOptions) {
    if (!Number.isInteger(options.max) || options.max < 1) throw new RangeError('ApiGate max must be a positive integer');
    this.#max = options.max;
    this.#limit = Math.min(options.initial ?? 2, options.max);
    this.#decrease = options.decrease ?? 0.5;
    this.#probeAfter = options.probeAfter ?? 16;
  }

  get limit(): number {
    return this.#limit;
  }

  get pacing(): boolean {
    return this.#pace.windowMs > 0;
  }

  /** The requests per window the gate spends at a rate limit (0 while it has learned none). */
  get paceBudget(): number {
    return this.#pace.budget;
  }

  snapshot(): GateSnapshot {
    return { limit: this.#limit, inFlight: this.#inFlight, waiting: this.#waiters.length };
  }

  /** Waits for a slot; returns a ticket to pass to the outcome call. */
  async acquire(signal?: AbortSignal): Promise<GateTicket> {
    for (;;) {
      signal?.throwIfAborted();
      if (this.#inFlight < this.#limit) {
        const turnInMs = paceDelayMs(this.#pace, Date.now(), this.#sentSince);
        if (turnInMs <= 0) break;
        await sleep(turnInMs, signal);
        continue;
      }
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
    const now = Date.now();
    const ticket = { epoch: this.#epoch, inFlightAtStart: this.#inFlight, startedAt: now };
    this.#logSend(ticket, now);
    return ticket;
  }

  /** Keeps the send times a rate 429 counts the budget from, as far back as the window (or a minute) reaches. */
  #logSend(ticket: GateTicket, now: number): void {
    this.#sent.set(ticket, now);
    const from = now - Math.max(SEND_LOG_MS, this.#pace.windowMs * 2);
    for (const [old, at] of this.#sent) {
      if (at >= from) break;
      this.#sent.delete(old);
    }
  }

  /** The send times after `from`, oldest first (the log is kept in the order the requests went). */
  readonly #sentSince = (from: number): number[] => [...this.#sent.values()].filter((at) => at > from);

  /** The same, of the requests that went before `ticket`'s (by the log's order: times to the ms can tie). */
  #sentBefore(ticket: GateTicket): SentSince {
    const before: number[] = [];
    for (const [sent, at] of this.#sent) {
      if (sent === ticket) break;
      before.push(at);
    }
    return (from) => before.filter((at) => at > from);
  }

  /** How many documents are left in the queue, queued or in a group being worked on (undefined: unknown, probe as usual). */
  setBacklog(documents: number | undefined): void {
    this.#backlog = documents;
  }

  /** The request succeeded. */
  succeeded(ticket: GateTicket): void {
    if (!this.#settle(ticket)) return;
    this.#release();
    const took = Date.now() - ticket.startedAt;
    this.#latencyMs = this.#latencyMs === undefined ? took : this.#latencyMs * 0.9 + took * 0.1;
    if (this.#probeFrom !== undefined && ticket.inFlightAtStart > this.#probeFrom) {
      this.#probeFrom = undefined;
      this.#probeBackoff = 1;
    }
    const now = Date.now();
    paceSucceeded(this.#pace, now, this.#probeAfter, this.#probeWorthwhile(), this.#sentSince(now - paceSpanMs(this.#pace)).length);
    if (this.#slowStart) {
      if (this.#limit < this.#max) {
        this.#limit++;
        this.#wake();
      }
      return;
    }
    this.#successes++;
    if (this.#limit < this.#max && this.#successes >= this.#probeAfter * this.#limit * this.#probeBackoff && this.#probeWorthwhile()) {
      this.#probeFrom = this.#limit;
      this.#limit++;
      this.#successes = 0;
      this.#wake();
    }
  }

  /** The request was refused with a concurrency 429. */
  concurrencyLimited(ticket: GateTicket): void {
    if (!this.#settle(ticket)) return;
    this.#release();
    this.#slowStart = false;
    if (answeredLate(Date.now() - ticket.startedAt, this.#latencyMs)) return;
    if (this.#probeFrom !== undefined) {
      this.#probeBackoff = Math.min(this.#probeBackoff * 2, 64);
      this.#probeFrom = undefined;
    }
    this.#lower(Math.max(1, this.#inFlight));
  }

  /** The request was refused with a rate 429; `hint` is what the 429 said of the window (see the class comment). */
  rateLimited(ticket: GateTicket, hint: RateLimitHint = {}): void {
    if (!this.#settle(ticket)) return;
    this.#release();
    this.#slowStart = false;
    const sentAt = this.#sent.get(ticket);
    const sentBefore = this.#sentBefore(ticket);
    this.#sent.delete(ticket);
    if (paceRefused(this.#pace, hint, Date.now(), sentAt, sentBefore)) return;
    if (ticket.epoch !== this.#epoch) return;
    this.#lower(Math.floor(this.#limit * this.#decrease));
  }

  /** The API queued the request (`metadata.concurrencyLimited`): we are at its limit; stop probing above it. */
  queuedByApi(ticket: GateTicket): void {
    if (!this.#settle(ticket)) return;
    this.#release();
    this.#slowStart = false;
    this.#successes = 0;
    if (ticket.epoch === this.#epoch && this.#limit > 1 && ticket.inFlightAtStart <= this.#limit) {
      this.#lower(Math.max(1, ticket.inFlightAtStart - 1));
    }
  }

  /** Any other outcome (an error unrelated to load): frees the slot without learning anything. */
  released(ticket: GateTicket): void {
    if (!this.#settle(ticket)) return;
    this.#release();
  }

  /** Marks the ticket settled; false when it already was. */
  #settle(ticket: GateTicket): boolean {
    if (this.#settled.has(ticket)) return false;
    this.#settled.add(ticket);
    return true;
  }

  /** Whether the work left lasts longer than a second at the current rate (see the class comment). */
  #probeWorthwhile(): boolean {
    if (this.#backlog === undefined || this.#latencyMs === undefined) return true;
    return this.#backlog + this.#waiters.length >= requestsPerSecond(this.#limit, this.#latencyMs, this.#pace);
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

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Below this, a 429 counts as answered at once whatever the requests' usual duration (loopback APIs, tests). */
const AT_ONCE_MS = 25;

/**
 * Whether a concurrency 429 that took `tookMs` came back as late as a parse (see the class comment): at least 3/4
 * of the smoothed duration of a success, and at least AT_ONCE_MS. Unknown durations count as at once.
 */
export function answeredLate(tookMs: number, latencyMs: number | undefined): boolean {
  return latencyMs !== undefined && tookMs >= Math.max(AT_ONCE_MS, latencyMs * 0.75);
}

export interface GateTicket {
  readonly epoch: number;
  readonly inFlightAtStart: number;
  readonly startedAt: number;
}
