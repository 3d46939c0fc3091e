/**
 * What a failed parse attempt does next. A 429 waits its Retry-After (or the contract's backoff) in the delayed set, and
 * a per-minute one pauses every worker of the queue for it, unless the gate already paces at the learned rate; a 408, 5xx or network error waits the contract's backoff there
 * too; 402 pauses the queue, and 401/403 pause it and stop this process sending with the key at once (in-flight
 * documents of every worker see the pause before their next request). A RunBlockedError (the local engine's threads
 * cannot start) stops this process sending, the queue left as it is (blocked.ts). Throttling, exhausted credits, a
 * refused key and a blocked run never cost the document an attempt and never fail it: the job goes back to waiting,
 * unfailed. Any other error returns to the caller, which fails the document.
 */
import {
  CreditsExhaustedError,
  isKeyRefusal,
  isRetryCandidate,
  RateLimitedError,
  type RateLimitKind,
  type RetryCandidate,
} from '../../backend/errors.js';
import { backoffMs, DEFAULT_RETRY_SETTINGS, retryDelayMs } from '../../client/retry-policy.js';
import type { JobContext } from '../job-context.js';
import { deferUntil, park } from '../job-control.js';
import type { StepDeps } from '../processor-deps.js';
import { SendingStopped } from '../sending.js';
import { stopIfBlocked } from './blocked.js';

/** 429s in a row at a limit of 1 before the whole queue is paused for the Retry-After. */
export const THROTTLES_AT_FLOOR_BEFORE_QUEUE_PAUSE = 3;

export type ParseFailureDeps = Pick<StepDeps, 'queue' | 'control' | 'gate' | 'metrics' | 'logger' | 'sending' | 'onSendingStopped' | 'onPaused'>;

/** Defers or parks the job for errors that are not the document's (ending this start); returns for the rest. */
export async function afterFailedParse(ctx: JobContext, error: unknown, deps: ParseFailureDeps): Promise<void> {
  if (error instanceof SendingStopped) await park(ctx);
  if (error instanceof RateLimitedError) await deferForThrottle(ctx, error, deps);
  if (isRetryCandidate(error) && error.retryable) await deferRetry(ctx, error, deps);
  await stopSending(ctx, error, deps);
}

/** Pure: a 429's wait: its Retry-After, else the contract's backoff for the throttles so far, plus up to 250 ms of jitter. */
export function throttleWaitMs(retryAfterMs: number | undefined, throttles: number, random: () => number = Math.random): number {
  return (retryAfterMs ?? backoffMs(Math.min(throttles, 5))) + Math.floor(random() * 250);
}

/** Pure: whether a 429 paces the whole queue: a per-minute one always (the budget is the team's), a concurrency one after a few in a row at a limit of 1. */
export function pacesQueue(kind: RateLimitKind, throttlesAtFloor: number): boolean {
  return kind === 'rate' || throttlesAtFloor >= THROTTLES_AT_FLOOR_BEFORE_QUEUE_PAUSE;
}

async function deferForThrottle(ctx: JobContext, error: RateLimitedError, deps: ParseFailureDeps): Promise<never> {
  const { gate, metrics, queue, logger, sending } = deps;
  metrics?.throttled.inc({ kind: error.kind });
  const throttles = (ctx.latestData().throttles ?? 0) + 1;
  const waitMs = throttleWaitMs(error.retryAfterMs, throttles);
  sending.throttlesAtFloor = gate.limit === 1 ? sending.throttlesAtFloor + 1 : 0;
  // A gate that already paces at the learned rate spends the budget for every worker: pausing the queue as well
  // would idle the budget for the whole wait at each stray 429 at a window's edge.
  const gatePaces = error.kind === 'rate' && gate.pacing;
  if (pacesQueue(error.kind, sending.throttlesAtFloor) && !gatePaces) {
    logger.warn({ waitMs, kind: error.kind, message: error.apiMessage }, 'parse API throttling: pacing the queue for the Retry-After');
    await queue.rateLimit(waitMs);
    metrics?.rateLimitPauses.inc();
    sending.throttlesAtFloor = 0;
  } else {
    logger.debug({ waitMs, limit: gate.limit }, 'parse API concurrency limit: the document waits its Retry-After');
  }
  metrics?.retryAfterWait.inc(waitMs / 1000);
  return deferUntil(ctx, Date.now() + waitMs, { throttles });
}

/**
 * A 408, 5xx or network error: the contract's wait before the next attempt (its Retry-After, else the backoff),
 * spent in the delayed set. After the contract's attempts the count starts again and the error goes to BullMQ,
 * whose own attempts (`--attempts`) and backoff take over.
 */
async function deferRetry(ctx: JobContext, error: RetryCandidate, deps: ParseFailureDeps): Promise<void> {
  const failures = (ctx.latestData().failures ?? 0) + 1;
  const delayMs = retryDelayMs(error, failures, { ...DEFAULT_RETRY_SETTINGS, maxWaitMs: Number.POSITIVE_INFINITY });
  if (delayMs === undefined) {
    await ctx.saveProgress({ failures: 0 });
    return;
  }
  deps.logger.warn({ file: ctx.data.relativePath, attempt: failures, delayMs, code: error.code, reason: error.message }, 'parse attempt failed; retrying after the backoff');
  await deferUntil(ctx, Date.now() + delayMs, { failures });
}

/**
 * 402 pauses the queue; 401/403 pause it too and stop this process sending with the key; a RunBlockedError stops
 * this process sending (blocked.ts). The job waits, unfailed.
 */
async function stopSending(ctx: JobContext, error: unknown, deps: ParseFailureDeps): Promise<void> {
  if (error instanceof CreditsExhaustedError) {
    await deps.control.pause('credits', `${error.message} — add credits, then run \`docmill resume\``);
    deps.logger.error({ status: error.status, message: error.apiMessage }, 'parse API: credits exhausted; queue paused, no job failed');
    deps.onPaused?.(error);
    await park(ctx);
  }
  if (isKeyRefusal(error)) {
    const first = deps.sending.keyRefusal === undefined;
    deps.sending.keyRefusal ??= error;
    if (first) {
      await deps.control.pause('auth', `${error.message} — fix the key, then run again or \`docmill resume\``);
      deps.logger.error({ status: error.status, message: error.apiMessage }, 'parse API rejected the key: sending stopped, queue paused, no job failed');
    }
    deps.onSendingStopped?.(error);
    await park(ctx);
  }
  await stopIfBlocked(ctx, error, deps);
}
