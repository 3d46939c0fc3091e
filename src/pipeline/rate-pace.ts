/**
 * Pacing at a request-rate limit (N requests per W-ms window): the policy ApiGate applies in one process and
 * SharedApiGate's Lua scripts apply for a queue's workers, step for step.
 *
 * Halving the concurrency on a rate 429 is probing: the rate the API allows is not a number of requests in flight,
 * so the limit swings between too many (bursts of 429s) and too few (an idle budget). Instead:
 * - The window W is what the 429s say: the window a `RateLimit-Policy` names, else the longest wait or reset any
 *   429 has told, in whole seconds (the wait to a fixed window's reset, or to a sliding window's oldest request, is
 *   at most W; the hosted API often says it only in its text, "retry after 1s").
 * - The budget N is what the API says (`X-RateLimit-Limit`) when it does; else what it accepted: the requests sent
 *   within W' (below) before the refused one and not refused (the ones sent after it were not in the count that
 *   refused it, answered or not). That count is never below N: the window that refused the request (fixed, of
 *   whatever phase, or sliding) lies within W' before it and held N accepted requests. It can be above N (a fixed
 *   window's count takes in the previous window's last requests), but never at or above the budget being spent: the
 *   pace let the refused request go because fewer than the budget went within W' before it. So the budget becomes
 *   the count when it is first learned, and the lesser of the two at each later refusal: it falls by at least one at
 *   every refusal until no window refuses, and never below N. The count reaches back exactly the span the pace
 *   spends the budget over, no further: reaching further (to forgive a refusal caused by jitter at a window's edge)
 *   counted as many requests as the budget, so a budget learned too high never came down (measured: refused in ten
 *   windows running). A refusal at a window's edge from jitter beyond the margin (the API counted a request later
 *   than it went: a loaded host's requests leave late) finds one request fewer than the budget, as a budget one
 *   too high does; the two are told apart by what came before: a budget that held for EDGE_WINDOWS windows' worth
 *   of successes since the last refusal keeps it at that one refusal, and a second within as many lowers it (one
 *   too high is refused in every window it is spent). A budget lowered that way is won back by the probe below. Counted, not halved: at the moment of a refusal what the API took in over one window is its budget,
 *   as the in-flight count is the concurrency limit at a concurrency 429. The 429s that follow within the same
 *   window are echoes of the same full window: they teach nothing, but for the requests sent before the counted one
 *   (within its count's span): still out when it was counted, they were counted as accepted, and each lowers the
 *   budget by one (two workers' slow start out of order on a loaded host counted 20 at a budget of 10).
 * - After any rate 429 the next request waits until the oldest request the count found has left the window: a
 *   full window refuses whatever comes before, and a sliding one frees its first slot then.
 * - The budget is spent per window, not spaced: a request may go when fewer than N requests went in the last
 *   W' = W × (1 + PACE_MARGIN), so no span of W' ever holds more than N. That one rule keeps within every kind of
 *   window whatever its phase: a fixed window opened by the first request after the last one closed (the hosted
 *   API's), one aligned to the clock, a sliding one; each counts requests within a span of W, and the margin covers
 *   the jitter between when a request went and when the API counted it. Spacing the budget evenly instead (one
 *   request every W'/N, as a token bucket's GCRA does) loses every turn a worker takes late (a CPU-starved host, a
 *   busy event loop): the next turn is due an interval after the late one, so the lateness of each of the N turns
 *   adds to the window (measured on a loaded 2-core host: 0.79 of the best schedule). Here a late request delays
 *   only its own slot's return, and a window in which the fleet sent fewer than N (an idle gap, documents waiting
 *   in the delayed set) is caught up at once by the next: turns not taken are not lost.
 * - A budget learned by counting is probed one higher after `probeAfter` windows without a 429 (backing off as the
 *   concurrency probe does), for a raised plan or a quieter fleet; a budget the API told is not. The probe holds
 *   only once a span of W' held the raised budget's requests, all accepted: a budget is never kept above what was
 *   seen to succeed (a queue too short to use the raised budget leaves the probe open, and a refusal of any request
 *   sent since takes it back). A probe that held says the budget was counted short (a first window that trickled,
 *   workers starting apart): the next comes one window's worth of successes after it held, not `probeAfter` windows, so a budget
 *   learned at a third of the API's is won back within a few windows rather than over hundreds (measured: two
 *   workers at a 10-per-second window that first counted 3 climbed one a 16 windows, the run at half speed).
 * A rate 429 that says no wait at all teaches no window: the gate falls back to halving its concurrency.
 */
import type { RateLimitHint } from '../backend/errors.js';

/** Share of the window added to it as a margin against clock and network jitter at a window's edges. */
export const PACE_MARGIN = 0.02;

/**
 * The next probe's wait, as a multiple of `probeAfter` windows, once a probe was refused: twice the last (up to 64),
 * and never below one after a climb of held probes (each a window apart) found the ceiling.
 */
export function probeBackoffAfterRefusal(backoff: number): number {
  return Math.min(Math.max(1, backoff * 2), 64);
}

/**
 * A budget that has held for this many windows' worth of successes since the last refusal keeps it at one refusal
 * at a window's edge (see the header); the next refusal within as many lowers it.
 */
export const EDGE_WINDOWS = 4;

/** How long the log of sends is kept when no window is known yet: the longest per-minute window. */
export const SEND_LOG_MS = 60_000;

/** What the pace knows; the shared gate keeps the same fields in its Redis hash. */
export interface PaceState {
  /** W in ms; 0 while no rate 429 has told one (no pacing). */
  windowMs: number;
  /** N: requests per window. */
  budget: number;
  /** Whether the API told N (then no probing). */
  told: boolean;
  /** No request before this (ms): set by a rate 429, until the oldest request its count found has left the window. */
  heldUntil: number;
  /** Successes since the budget last changed. */
  successes: number;
  /** When the budget was last counted (a 429 within W of it is an echo). */
  countedAt: number;
  /**
   * When the refused request the budget was last counted at went (0: that count did not set the budget). A request
   * sent within the count's span before it, refused later, was still out when counted: counted as taken in, it
   * was not, and the budget loses it.
   */
  countedSentAt: number;
  /** The budget a probe raised from (0: no probe out), and when it began. */
  probeFrom: number;
  probeAt: number;
  /** Multiplies the windows needed before the next probe. */
  probeBackoff: number;
}

/** The requests sent after a moment (ms) and not refused, by when they went, oldest first. */
export type SentSince = (from: number) => readonly number[];

export function initialPace(): PaceState {
  return { windowMs: 0, budget: 0, told: false, heldUntil: 0, successes: 0, countedAt: 0, countedSentAt: 0, probeFrom: 0, probeAt: 0, probeBackoff: 1 };
}

/** W': the span no more than N requests may share (the window and its margin); 0 while not pacing. */
export function paceSpanMs(state: PaceState, margin = PACE_MARGIN): number {
  return state.windowMs > 0 && state.budget > 0 ? state.windowMs * (1 + margin) : 0;
}

/**
 * When the next request may go: not before the hold, and, with N requests sent within the last W', not before the
 * N-th latest of them has left it (then the span from it to the new one is longer than W').
 */
export function paceDueAt(state: PaceState, now: number, sentSince: SentSince, margin = PACE_MARGIN): number {
  const span = paceSpanMs(state, margin);
  if (span === 0) return state.windowMs > 0 ? state.heldUntil : 0;
  const recent = sentSince(now - span);
  const leaving = recent.length >= state.budget ? (recent[recent.length - state.budget] ?? 0) + span : 0;
  return Math.max(state.heldUntil, leaving);
}

/** How long a request must wait for its turn (0: it may go now). */
export function paceDelayMs(state: PaceState, now: number, sentSince: SentSince, margin = PACE_MARGIN): number {
  return state.windowMs > 0 ? Math.max(0, paceDueAt(state, now, sentSince, margin) - now) : 0;
}

/**
 * The window a 429 tells: the named window, else its longest wait or reset rounded up to whole seconds (windows are
 * whole seconds, and a wait to a window's end, told to the millisecond, is mostly shorter than the window);
 * undefined when it told none.
 */
export function windowFromHint(hint: RateLimitHint): number | undefined {
  if (hint.windowMs !== undefined && hint.windowMs > 0) return hint.windowMs;
  const told = Math.max(hint.waitMs ?? 0, hint.resetMs ?? 0);
  return told > 0 ? Math.ceil(told / 1000) * 1000 : undefined;
}

/**
 * A rate 429 for a request sent at `sentAt`: learns the window and the budget. `sentBefore(from)` lists the
 * requests sent after `from` and before the refused one, not refused: what the API had taken in when it refused it
 * (the ones sent after it, answered or not yet, were not in that count). Returns false when the 429 told no window
 * (nothing learned: the caller falls back to halving).
 */
export function paceRefused(
  state: PaceState,
  hint: RateLimitHint,
  now: number,
  sentAt: number | undefined,
  sentBefore: SentSince,
  margin = PACE_MARGIN,
): boolean {
  const told = windowFromHint(hint);
  if (told === undefined) return false;
  const grew = told > state.windowMs;
  state.windowMs = hint.windowMs !== undefined && hint.windowMs > 0 ? hint.windowMs : Math.max(state.windowMs, told);
  const refusedProbe = state.probeFrom > 0 && sentAt !== undefined && sentAt >= state.probeAt;
  const span = state.windowMs * (1 + margin);
  const accepted = sentBefore((sentAt ?? now) - span);
  if (hint.limit !== undefined && hint.limit > 0) {
    state.budget = hint.limit;
    state.told = true;
  } else if (refusedProbe) {
    state.budget = state.probeFrom;
    state.probeBackoff = probeBackoffAfterRefusal(state.probeBackoff);
  } else if (state.budget === 0 || grew || now >= state.countedAt + state.windowMs) {
    const count = Math.max(1, accepted.length);
    if (state.budget === 0 || grew) state.budget = count;
    else if (!(state.successes >= EDGE_WINDOWS * state.budget && count >= state.budget - 1)) state.budget = Math.min(state.budget, count);
    state.countedAt = now;
    state.countedSentAt = state.budget === count ? (sentAt ?? now) : 0;
  } else if (sentAt !== undefined && sentAt < state.countedSentAt && sentAt > state.countedSentAt - span) {
    // An echo of a request the count took for accepted (out, not yet answered, when counted): it was refused.
    state.budget = Math.max(1, state.budget - 1);
  }
  const oldest = accepted[0];
  if (oldest !== undefined) state.heldUntil = Math.max(state.heldUntil, oldest + span);
  state.probeFrom = 0;
  state.successes = 0;
  return true;
}

/**
 * The rate the gate sends at now, in requests a second: its concurrency limit over the latency, or the paced budget
 * per window when that is lower (a queue at a 10-per-second window drains at 10 a second, however fast the API
 * answers). Whether a probe is worth its possible refusal is judged against it.
 */
export function requestsPerSecond(limit: number, latencyMs: number, pace: Pick<PaceState, 'budget' | 'windowMs'>): number {
  const byConcurrency = (limit * 1000) / Math.max(1, latencyMs);
  return pace.windowMs > 0 && pace.budget > 0 ? Math.min(byConcurrency, (pace.budget * 1000) / pace.windowMs) : byConcurrency;
}

/**
 * A request succeeded: after enough windows without a 429, a counted budget is probed one higher. `spentInSpan` is
 * how many requests went within the last W' and were not refused: a probe holds once they reach its budget.
 */
export function paceSucceeded(state: PaceState, now: number, probeAfter: number, mayProbe: boolean, spentInSpan: number): void {
  if (state.windowMs <= 0 || state.told) return;
  state.successes++;
  if (state.probeFrom > 0 && state.successes >= state.budget && spentInSpan >= state.budget) {
    state.probeFrom = 0;
    state.probeBackoff = 1 / probeAfter;
    state.successes = 0;
  }
  if (state.probeFrom === 0 && mayProbe && state.successes >= probeAfter * state.budget * state.probeBackoff) {
    state.probeFrom = state.budget;
    state.probeAt = now;
    state.budget++;
    state.successes = 0;
  }
}
