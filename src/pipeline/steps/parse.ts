/**
 * Parse step: one attempt, through the API gate, counted in the job's requests. A slot is held only while the request
 * is out. No error is retried in place: after a 429 the document moves to BullMQ's delayed set until its Retry-After
 * has passed, after a 408, 5xx or network error until the contract's backoff has, so no worker sends it earlier and
 * neither a gate slot nor a job slot waits for it (a job sleeping through a 16 s backoff kept a document that was
 * ready from starting: measured, twice the time of a client that frees its slot in a storm of failing answers,
 * bench/fault-storm.ts). Only 429s teach the gate: a concurrency 429 its limit, a rate 429 its pace (the window and
 * budget the answer tells); 5xx, 408 and network errors say nothing about the API's capacity.
 */
import { ParseApiError, RateLimitedError } from '../../backend/errors.js';
import type { AttemptOutcome, ParseResult } from '../../backend/parse-backend.js';
import { pictureRenderingOf } from '../../common/processing-settings.js';
import type { UploadSource } from '../../backend/upload-source.js';
import type { GateTicket } from '../api-gate.js';
import type { JobContext } from '../job-context.js';
import type { StepDeps } from '../processor-deps.js';
import { SendingStopped } from '../sending.js';
import { afterFailedParse, type ParseFailureDeps } from './parse-failure.js';

export type ParseDeps = ParseFailureDeps & Pick<StepDeps, 'gate' | 'backend' | 'onRequest'>;

export async function parse(ctx: JobContext, upload: UploadSource, deps: ParseDeps): Promise<ParseResult> {
  const { gate } = deps;
  let ticket: GateTicket | undefined;
  try {
    const { ocrLanguages, images } = ctx.options.settings;
    return await deps.backend.parse(upload, ctx.options.sent, {
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(ocrLanguages ? { ocrLanguages } : {}),
      // A page range's result is checkpointed as JSON: its pictures stay in its text until the ranges are merged.
      ...(images && !ctx.isRange ? { liftImages: true } : {}),
      ...(images ? { pictures: pictureRenderingOf(ctx.options.settings) } : {}),
      shouldRetry: () => false,
      beforeAttempt: async (attemptSignal) => {
        await assertSending(ctx, deps);
        ticket = await gate.acquire(attemptSignal);
        ctx.attemptSent();
      },
      afterAttempt: (outcome) => {
        ctx.attemptAnswered();
        const held = ticket;
        ticket = undefined;
        settleAttempt(ctx, held, outcome, deps);
      },
    });
  } catch (error) {
    if (ticket) gate.released(ticket);
    await afterFailedParse(ctx, error, deps);
    throw error;
  }
}

/** Counts the attempt and tells the gate what it learned (a success, a queued answer, a concurrency 429, nothing). */
function settleAttempt(ctx: JobContext, ticket: GateTicket | undefined, outcome: AttemptOutcome, deps: ParseDeps): void {
  const { gate, metrics } = deps;
  if (!outcome.ok && outcome.error instanceof ParseApiError && outcome.error.sentNothing) {
    // Not sent (the key was refused meanwhile): no request to count, and nothing the gate could learn from.
    if (ticket) gate.released(ticket);
    return;
  }
  ctx.countRequests();
  deps.onRequest?.();
  if (outcome.ok) {
    metrics?.requests.inc({ status: 200 });
    deps.sending.throttlesAtFloor = 0;
    if (!ticket) return;
    if (outcome.data.metadata?.concurrencyLimited) {
      metrics?.queuedByApi.inc();
      gate.queuedByApi(ticket);
    } else {
      gate.succeeded(ticket);
    }
  } else {
    const { error } = outcome;
    metrics?.requests.inc({ status: error instanceof ParseApiError ? error.status : 0 });
    if (!ticket) return;
    if (error instanceof RateLimitedError && error.kind === 'concurrency') gate.concurrencyLimited(ticket);
    else if (error instanceof RateLimitedError) gate.rateLimited(ticket, error.rateLimit);
    else gate.released(ticket);
  }
  metrics?.apiConcurrency.set(gate.limit);
}

/** Throws SendingStopped when no request may go out: the key was refused, or the queue is paused (credits, auth). */
async function assertSending(ctx: JobContext, deps: ParseDeps): Promise<void> {
  if (deps.sending.keyRefusal) throw new SendingStopped('the parse API rejected the key');
  if (deps.sending.blocked) throw new SendingStopped(deps.sending.blocked.message);
  if ((await deps.control.sendingConditions()).paused) {
    // Paused at the credit budget, a document that reserved its credits before is inside it, and goes (so does a
    // page range of a long PDF that did): otherwise two documents racing for the last credits could stop each other.
    const { control } = deps;
    if ((await control.pauseReason())?.kind === 'budget' && (await control.budget.holds(ctx.job.id, ctx.job.parent?.id))) return;
    throw new SendingStopped('the queue is paused');
  }
}
