/**
 * The contract's retry rules (spec: "Retry rules"), as pure functions:
 * - only 408, 429, 500, 502, 503, 504 are retried (plus network failures and our own request deadline, which
 *   are the transport's versions of 503 and 408); every other status returns at once;
 * - `Retry-After` (seconds or an HTTP date) is a floor; on a 429 without the header, a "retry after N s" hint in
 *   the error text counts, since the hosted API often puts it only there;
 * - otherwise min(2^attempt, 30) s, attempt being the 1-based number of the attempt that failed;
 * - jitter below 1 s on every wait, so a fleet of workers does not return in lockstep;
 * - at most 5 attempts in all.
 * And what a 429 says of the API's rate window (`rateLimitHint`), for the gate to pace by.
 */
import { MAX_ATTEMPTS, MAX_BACKOFF_MS, MAX_JITTER_MS } from '../contract/limits.js';
import type { RateLimitHint, RetryCandidate } from '../backend/errors.js';

/**
 * Milliseconds to wait from a Retry-After header value: delta-seconds, or an HTTP date relative to `nowMs`.
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

const HINT_PATTERN =
  /\b(?:retry|try again)\s+(?:after|in)\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\b/i;

/** A wait hinted in an error message ("please retry after 32s", "try again in 5 seconds"), in milliseconds. */
export function retryHintFromMessage(message: string): number | undefined {
  const match = HINT_PATTERN.exec(message);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] ?? 's').toLowerCase();
  if (unit.startsWith('ms') || unit.startsWith('milli')) return Math.round(amount);
  if (unit.startsWith('m')) return Math.round(amount * 60_000);
  return Math.round(amount * 1000);
}

const RESETS_AT_PATTERN = /\bresets?\s+at\s+([^,;()]+?\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s*(?:Z|GMT|UTC)?[+-]?\d{0,4})?)/i;

/** Epoch seconds or ms, or seconds from now: what `X-RateLimit-Reset`-style headers carry. In ms from now. */
function resetHeaderMs(value: string | undefined, nowMs: number): number | undefined {
  const number = Number(value?.split(/[,;]/)[0]?.trim());
  if (value === undefined || !Number.isFinite(number) || number < 0) return undefined;
  if (number > 1e12) return Math.max(0, number - nowMs);
  if (number > 1e9) return Math.max(0, number * 1000 - nowMs);
  return Math.round(number * 1000);
}

/** The first integer of a header value (`RateLimit-Limit: 20, 20;w=1` → 20). */
function leadingCount(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^\s*(\d+)/.exec(value);
  const count = match ? Number(match[1]) : Number.NaN;
  return Number.isInteger(count) && count > 0 ? count : undefined;
}

/** The window of an IETF `RateLimit-Policy` (or a `RateLimit-Limit` carrying one): `20;w=1` → 1000 ms. */
function policyWindowMs(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /;\s*w\s*=\s*(\d+(?:\.\d+)?)/i.exec(value);
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/**
 * What a 429 says of the API's request window: the wait (Retry-After, else the text's "retry after N s"), the reset
 * (`X-RateLimit-Reset`, `RateLimit-Reset`, or the text's "resets at <date>"), the window's length
 * (`RateLimit-Policy: N;w=S`) and the budget per window (`X-RateLimit-Limit`, `RateLimit-Limit`, the policy).
 */
export function rateLimitHint(header: (name: string) => string | undefined, message: string, nowMs: number): RateLimitHint {
  const hint: RateLimitHint = {};
  const policy = header('ratelimit-policy') ?? header('x-ratelimit-policy');
  const limitHeader = header('x-ratelimit-limit') ?? header('ratelimit-limit');
  const limit = leadingCount(limitHeader) ?? leadingCount(policy);
  if (limit !== undefined) hint.limit = limit;
  const windowMs = policyWindowMs(policy) ?? policyWindowMs(limitHeader);
  if (windowMs !== undefined && windowMs > 0) hint.windowMs = windowMs;
  let resetMs = resetHeaderMs(header('x-ratelimit-reset') ?? header('ratelimit-reset'), nowMs);
  const resetsAt = RESETS_AT_PATTERN.exec(message)?.[1];
  if (resetMs === undefined && resetsAt !== undefined) {
    const date = Date.parse(resetsAt.trim());
    if (!Number.isNaN(date)) resetMs = Math.max(0, date - nowMs);
  }
  if (resetMs !== undefined) hint.resetMs = resetMs;
  const waitMs = parseRetryAfter(header('retry-after'), nowMs) ?? retryHintFromMessage(message) ?? resetMs;
  if (waitMs !== undefined) hint.waitMs = waitMs;
  return hint;
}

/** The exponential part of the schedule: min(2^attempt, 30) seconds. */
export function backoffMs(attempt: number): number {
  return Math.min(2 ** attempt * 1000, MAX_BACKOFF_MS);
}

export interface RetrySettings {
  /** Attempts in all, first included; capped at the contract's 5. @default 5 */
  maxAttempts: number;
  /**
   * A server-requested wait longer than this is not waited out inside the client: the error goes back to the
   * caller with its `retryAfterMs`, so a queue can park the job instead of holding a worker slot.
   * @default 120000
   */
  maxWaitMs: number;
  /** Source of randomness for jitter, in [0, 1). @default Math.random */
  random: () => number;
}

export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
  maxAttempts: MAX_ATTEMPTS,
  maxWaitMs: 120_000,
  random: Math.random,
};

/**
 * How long to wait before the next attempt after `attempt` (1-based) failed with `error`;
 * undefined means do not retry.
 */
export function retryDelayMs(error: RetryCandidate, attempt: number, settings: RetrySettings): number | undefined {
  if (!error.retryable) return undefined;
  if (attempt >= Math.min(settings.maxAttempts, MAX_ATTEMPTS)) return undefined;
  const floor = error.retryAfterMs;
  if (floor !== undefined && floor > settings.maxWaitMs) return undefined;
  const base = floor ?? backoffMs(attempt);
  return base + Math.floor(settings.random() * MAX_JITTER_MS);
}
