/**
 * The one place a job leaves its start by BullMQ's control flow rather than by finishing or failing: to the delayed
 * set until a time (a Retry-After, a backoff), back to waiting (a paused queue holds it), or to waiting-children (a
 * long PDF's page ranges). Each move needs the job's token, and the processor must then throw BullMQ's matching error
 * so the worker leaves the job where it was moved; `isJobControl` tells those errors from failures.
 */
import type { Job } from 'bullmq';
import { DelayedError, RateLimitError, UnrecoverableError, WaitingChildrenError, WaitingError } from '../queue/commonjs-packages.js';
import type { ParseJobData } from '../queue/job-data.js';
import type { JobContext } from './job-context.js';

/**
 * A document of a group job that needs a job of its own (its page ranges are children of its job): the group moves
 * it out, as it does a document deferred or parked (./group-member.ts).
 */
export class LeaveGroupError extends Error {
  constructor(readonly why: string) {
    super(`moved out of its group: ${why}`);
    this.name = 'LeaveGroupError';
  }
}

/** Whether `error` is BullMQ's control flow (the job was moved, or the worker is rate limited), not a failure. */
export function isJobControl(error: unknown): boolean {
  return (
    error instanceof LeaveGroupError ||
    error instanceof DelayedError ||
    error instanceof WaitingError ||
    error instanceof WaitingChildrenError ||
    error instanceof RateLimitError
  );
}

/** Moves the job to the delayed set until `timestamp`, saving its request count and `fields`; ends this start. */
export async function deferUntil(ctx: JobContext, timestamp: number, fields: Partial<ParseJobData> = {}): Promise<never> {
  await ctx.saveProgress(fields);
  return delayJobUntil(ctx.job, ctx.token, timestamp);
}

/** Moves any job (a parse job, a removal) to the delayed set until `timestamp`; ends this start. */
export async function delayJobUntil(job: Pick<Job, 'moveToDelayed'>, token: string | undefined, timestamp: number): Promise<never> {
  await job.moveToDelayed(timestamp, token);
  throw new DelayedError();
}

/** Moves the job back to waiting (a paused queue holds it), saving its request count; ends this start, unfailed. */
export async function park(ctx: JobContext): Promise<never> {
  await ctx.saveProgress();
  await ctx.job.moveToWait(ctx.token);
  throw new WaitingError();
}

/**
 * Moves the job to waiting-children until its children are done, ending this start; returns when BullMQ did not move
 * it (every child finished meanwhile), so the caller looks at them again.
 */
export async function waitForChildren(ctx: JobContext): Promise<void> {
  if (ctx.token === undefined) throw new UnrecoverableError('a split document needs its job token to wait for its ranges');
  if (await ctx.job.moveToWaitingChildren(ctx.token)) throw new WaitingChildrenError();
}
