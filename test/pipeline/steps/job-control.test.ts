/**
 * The per-job context and the one helper that moves a job by BullMQ's control flow, on the shared Redis: what a
 * deferral or a pause leaves in Redis (the job's state, its saved request count and counters), and which errors are
 * control flow rather than failures.
 */
import { DelayedError, Job, RateLimitError, UnrecoverableError, WaitingChildrenError, WaitingError } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ParseAbortedError } from '../../../src/backend/errors.js';
import { JobContext } from '../../../src/pipeline/job-context.js';
import { deferUntil, isJobControl, park, waitForChildren } from '../../../src/pipeline/job-control.js';
import { RANGE_JOB_NAME } from '../../../src/queue/job-data.js';
import { rejectionOf } from '../../helpers/temp-files.js';
import { delayedUntil, jobData, openStepQueue, type StepQueue } from './step-fixtures.js';

let steps: StepQueue;

beforeEach(async () => {
  steps = await openStepQueue();
});

afterEach(async () => {
  await steps.close();
});

async function stored(ctx: JobContext): Promise<Job> {
  const job = await Job.fromId(steps.queue, ctx.job.id ?? '');
  if (!job) throw new Error('the job is gone');
  return job;
}

describe('JobContext', () => {
  it('starts its request count from what earlier starts saved, and saves it with the job\'s other counters', async () => {
    const ctx = await steps.context(jobData('a.html', { requestsMade: 2, throttles: 1 }));
    expect(ctx.requests).toBe(2);
    ctx.countRequests();
    ctx.countRequests(3);
    expect(ctx.requests).toBe(6);
    await ctx.saveProgress({ failures: 1 });
    expect((await stored(ctx)).data).toMatchObject({ requestsMade: 6, throttles: 1, failures: 1, relativePath: 'a.html' });
  });

  it("carries the document's time across starts: what earlier starts spent, and the last request's time", async () => {
    const ctx = await steps.context(jobData('a.html', { requestsMade: 1, workedMs: 40_000, lastAttemptMs: 30_000 }));
    expect(ctx.lastAttemptMs).toBe(30_000);
    const { durationMs, totalDurationMs } = ctx.durations();
    expect(totalDurationMs - durationMs).toBe(40_000);
    ctx.attemptSent();
    ctx.attemptAnswered();
    expect(ctx.lastAttemptMs).toBeLessThan(30_000);
    await ctx.saveProgress();
    await ctx.saveProgress();
    const saved = (await stored(ctx)).data as { workedMs: number; lastAttemptMs: number };
    // Saved twice in one start: the later total, not this start's time counted twice.
    expect(saved.workedMs).toBeGreaterThanOrEqual(40_000);
    expect(saved.workedMs).toBeLessThanOrEqual(ctx.durations().totalDurationMs);
    expect(saved.lastAttemptMs).toBe(ctx.lastAttemptMs);
  });

  it('knows a page range from a document, and the owner of its reservations', async () => {
    const range = await steps.context(jobData('book.pdf'), RANGE_JOB_NAME);
    const document = await steps.context(jobData('book.pdf'));
    expect(range.isRange).toBe(true);
    expect(document.isRange).toBe(false);
    expect(document.owner).toBe(document.job.id);
  });

  it('refuses to be read for options before they were loaded', async () => {
    const ctx = await steps.context(jobData('a.html'));
    expect(() => ctx.options).toThrow(/before they were loaded/);
  });
});

describe('job control', () => {
  it('defers a job to the delayed set until a time, with its requests and counters saved', async () => {
    const ctx = await steps.context(jobData('a.html'));
    ctx.countRequests(2);
    const until = Date.now() + 60_000;
    expect(await rejectionOf(deferUntil(ctx, until, { throttles: 1 }))).toBeInstanceOf(DelayedError);
    const job = await stored(ctx);
    expect(await job.getState()).toBe('delayed');
    expect(await delayedUntil(steps, job.id)).toBe(until);
    expect(job.data).toMatchObject({ requestsMade: 2, throttles: 1 });
    expect(job.attemptsMade).toBe(0);
  });

  it('parks a job back in waiting, unfailed, with its requests saved', async () => {
    const ctx = await steps.context(jobData('a.html'));
    ctx.countRequests();
    expect(await rejectionOf(park(ctx))).toBeInstanceOf(WaitingError);
    const job = await stored(ctx);
    expect(await job.getState()).toBe('waiting');
    expect(job.data).toMatchObject({ requestsMade: 1 });
    expect(job.attemptsMade).toBe(0);
  });

  it('does not wait for children without a token, and returns when there are none to wait for', async () => {
    const { job } = await steps.take(jobData('book.pdf'));
    expect(await rejectionOf(waitForChildren(new JobContext(job)))).toBeInstanceOf(UnrecoverableError);
    const ctx = await steps.context(jobData('book.pdf'));
    await expect(waitForChildren(ctx)).resolves.toBeUndefined();
  });

  it('tells BullMQ\'s control errors from failures', () => {
    for (const error of [new DelayedError(), new WaitingError(), new WaitingChildrenError(), new RateLimitError()]) expect(isJobControl(error)).toBe(true);
    for (const error of [new UnrecoverableError('x'), new ParseAbortedError(), new Error('x')]) expect(isJobControl(error)).toBe(false);
  });
});
