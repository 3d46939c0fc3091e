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
 *   in the last W (a little more, see PACE_MARGIN) and not refused, counted at the first 429 of a window. Counted,
 *   not halved: at the moment of a refusal what the API took in over one window is its budget, as the in-flight
 *   count is the concurrency limit at a concurrency 429. The 429s that follow within the same window are echoes
 *   of the same full window (what they would count shrinks by every refusal): they teach nothing.
 * - After any rate 429 the next request waits until the oldest request the count found has left the window: a
 *   full window refuses whatever comes before, and a sliding one frees its first slot then.
 * - The budget is spent evenly: one request every I = W × (1 + PACE_MARGIN) / N, kept as the time the next request
 *   is due (GCRA, a token bucket's other form), so a fixed window never sees N + 1 and a sliding one never fills
 *   early. A request may go up to a slack τ before it is due, so a worker woken a little late (a busy event loop)
 *   does not push every later request back; τ is small enough that no span of W holds more than N requests
 *   (1 + (W + τ) / I ≤ N), and there is no burst after a quiet spell: a burst is what a window counts.
 * - A budget learned by counting is probed one higher after `probeAfter` windows without a 429 (backing off as the
 *   concurrency probe does), for a raised plan or a quieter fleet; a budget the API told is not.
 * A rate 429 that says no wait at all teaches no window: the gate falls back to halving its concurrency.
 */
import type { RateLimitHint } from '../backend/errors.js';

/** Share of the budget's interval added as a margin against clock and network jitter at a window's edges. */
export const PACE_MARGIN = 0.02;

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
  /** When the next request may go (ms). */
  nextAt: number;
  /** Successes since the budget last changed. */
  successes: number;
  /** When the budget was last counted (a 429 within W of it is an echo). */
  countedAt: number;
  /** The budget a probe raised from (0: no probe out), and when it began. */
  probeFrom: number;
  probeAt: number;
  /** Multiplies the windows needed before the next probe. */
  probeBackoff: number;
}

export function initialPace(): PaceState {
  return { windowMs: 0, budget: 0, told: false, nextAt: 0, successes: 0, countedAt: 0, probeFrom: 0, probeAt: 0, probeBackoff: 1 };
}

/** ms between two requests at this pace (0: not pacing). */
export function paceIntervalMs(state: PaceState, margin = PACE_MARGIN): number {
  return state.windowMs > 0 && state.budget > 0 ? (state.windowMs * (1 + margin)) / state.budget : 0;
}

/** τ: how early a request may go before it is due (see the header), in ms. */
export function paceSlackMs(state: PaceState, margin = PACE_MARGIN): number {
  return paceIntervalMs(state, margin) * Math.min(1, (state.budget * margin) / (1 + margin) / 2);
}

/** How long a request must wait for its turn (0: it may go now). */
export function paceDelayMs(state: PaceState, now: number, margin = PACE_MARGIN): number {
  return state.windowMs > 0 ? Math.max(0, state.nextAt - paceSlackMs(state, margin) - now) : 0;
}

/** A request goes now: the next one may go an interval later. */
export function paceTake(state: PaceState, now: number, margin = PACE_MARGIN): void {
  if (state.windowMs > 0) state.nextAt = Math.max(state.nextAt, now) + paceIntervalMs(state, margin);
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

/** The requests sent from a moment on and not refused: how many, and when the first of them went. */
export interface SentSince {
  count: number;
  oldest: number | undefined;
}

/**
 * A rate 429 for a request sent at `sentAt`: learns the window and the budget. `acceptedSince(from)` tells the
 * requests sent from `from` on and not refused (this one already taken out). Returns false when the 429 told no
 * window (nothing learned: the caller falls back to halving).
 */
export function paceRefused(
  state: PaceState,
  hint: RateLimitHint,
  now: number,
  sentAt: number | undefined,
  acceptedSince: (from: number) => SentSince,
  margin = PACE_MARGIN,
): boolean {
  const told = windowFromHint(hint);
  if (told === undefined) return false;
  const grew = told > state.windowMs;
  state.windowMs = hint.windowMs !== undefined && hint.windowMs > 0 ? hint.windowMs : Math.max(state.windowMs, told);
  const refusedProbe = state.probeFrom > 0 && sentAt !== undefined && sentAt >= state.probeAt;
  const accepted = acceptedSince(now - state.windowMs * (1 + margin));
  if (hint.limit !== undefined && hint.limit > 0) {
    state.budget = hint.limit;
    state.told = true;
  } else if (refusedProbe) {
    state.budget = state.probeFrom;
    state.probeBackoff = Math.min(state.probeBackoff * 2, 64);
  } else if (state.budget === 0 || grew || now >= state.countedAt + state.windowMs) {
    const count = Math.max(1, accepted.count);
    state.budget = state.budget === 0 || grew ? count : Math.min(state.budget, count);
    state.countedAt = now;
  }
  if (accepted.oldest !== undefined) state.nextAt = Math.max(state.nextAt, accepted.oldest + state.windowMs + paceSlackMs(state, margin));
  state.probeFrom = 0;
  state.successes = 0;
  return true;
}

/** A request succeeded: after enough windows without a 429, a counted budget is probed one higher. */
export function paceSucceeded(state: PaceState, now: number, probeAfter: number, mayProbe: boolean): void {
  if (state.windowMs <= 0 || state.told) return;
  state.successes++;
  // A full window at the probed budget without a refusal: the probe held.
  if (state.probeFrom > 0 && state.successes >= state.budget) {
    state.probeFrom = 0;
    state.probeBackoff = 1;
  }
  if (state.probeFrom === 0 && mayProbe && state.successes >= probeAfter * state.budget * state.probeBackoff) {
    state.probeFrom = state.budget;
    state.probeAt = now;
    state.budget++;
    state.successes = 0;
  }
}
