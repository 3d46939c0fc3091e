/**
 * The budget step on the shared Redis: what it reserves before a document is sent, what it counts after, what it does
 * when the budget would be passed, and what a release that fails does (Redis dropped at that very moment): logged,
 * counted, retried, and the budget right again once Redis answers.
 */
import { Job, WaitingChildrenError, WaitingError } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParseResult } from '../../../src/backend/parse-backend.js';
import type { UploadSource } from '../../../src/backend/upload-source.js';
import { DocmillMetrics } from '../../../src/metrics/metrics.js';
import { BudgetReleases } from '../../../src/pipeline/budget-releases.js';
import type { JobContext } from '../../../src/pipeline/job-context.js';
import { loadOptions } from '../../../src/pipeline/steps/load-options.js';
import { withinBudget, type BudgetDeps } from '../../../src/pipeline/steps/budget.js';
import { CreditBudget } from '../../../src/queue/credit-budget.js';
import { SHARED_REDIS_URL } from '../../helpers/docmill-cli.js';
import { freePort } from '../../helpers/recording-server.js';
import { rejectionOf } from '../../helpers/temp-files.js';
import { captureLogs, jobData, openStepQueue, type CapturedLogger, type StepQueue } from './step-fixtures.js';

/** A CSV: one credit by the hosted API's rules. */
const CSV: UploadSource = {
  fileName: 'prices.csv',
  size: 18,
  open: async function* () {
    yield Buffer.from('item,price\napple,3\n');
  },
};

function answer(creditsUsed?: number): ParseResult {
  return { data: { markdown: '| item |', metadata: creditsUsed === undefined ? {} : { creditsUsed } }, attempts: 1, durationMs: 1 };
}

let steps: StepQueue;
let logs: CapturedLogger;
let metrics: DocmillMetrics;
let deps: BudgetDeps;

beforeEach(async () => {
  steps = await openStepQueue();
  logs = captureLogs();
  metrics = new DocmillMetrics();
  deps = { control: steps.control, logger: logs.logger, releases: new BudgetReleases(steps.control.budget, { logger: logs.logger, metrics }), splitPages: undefined };
});

afterEach(async () => {
  await steps.close();
});

async function documentContext(path = 'prices.csv'): Promise<JobContext> {
  const ctx = await steps.context(jobData(path));
  ctx.useOptions(await loadOptions(ctx, steps.control));
  return ctx;
}

async function releaseFailures(): Promise<number> {
  return (await metrics.budgetReleaseFailures.get()).values[0]?.value ?? 0;
}

describe('withinBudget', () => {
  it('sends without reserving when the queue has no budget', async () => {
    const ctx = await documentContext();
    let sent = 0;
    await withinBudget(ctx, CSV, deps, async () => {
      sent++;
      expect(await steps.control.budget.state()).toEqual({ limit: undefined, used: 0, reserved: 0 });
      return answer(1);
    });
    expect(sent).toBe(1);
  });

  it('reserves the estimate while the document is sent, then counts what the API says it used', async () => {
    await steps.control.budget.setLimit(10);
    const ctx = await documentContext();
    await withinBudget(ctx, CSV, deps, async () => {
      expect(await steps.control.budget.state()).toEqual({ limit: 10, used: 0, reserved: 1 });
      return answer(2);
    });
    expect(await steps.control.budget.state()).toEqual({ limit: 10, used: 2, reserved: 0 });
    // No creditsUsed in the answer: the estimate is counted.
    await withinBudget(await documentContext('b.csv'), CSV, deps, async () => answer());
    expect(await steps.control.budget.state()).toEqual({ limit: 10, used: 3, reserved: 0 });
  });

  it('sends nothing when the estimate would pass the budget: the queue pauses and the document waits, unfailed', async () => {
    await steps.control.budget.setLimit(1);
    await steps.control.budget.settle('earlier', 1);
    const ctx = await documentContext();
    let sent = false;
    const error = await rejectionOf(
      withinBudget(ctx, CSV, deps, async () => {
        sent = true;
        return answer(1);
      }),
    );
    expect(error).toBeInstanceOf(WaitingError);
    expect(sent).toBe(false);
    expect((await steps.control.pauseReason())?.kind).toBe('budget');
    expect(await (await Job.fromId(steps.queue, ctx.job.id ?? ''))?.getState()).toBe('waiting');
    expect((await logs.line('credit budget reached')).file).toBe('prices.csv');
  });

  it('releases the reservation of a document sent without an answer, and keeps it while a long PDF waits for its ranges', async () => {
    await steps.control.budget.setLimit(10);
    const refused = new Error('refused');
    expect(await rejectionOf(withinBudget(await documentContext(), CSV, deps, () => Promise.reject(refused)))).toBe(refused);
    expect(await steps.control.budget.state()).toEqual({ limit: 10, used: 0, reserved: 0 });

    const waiting = await rejectionOf(withinBudget(await documentContext('book.csv'), CSV, deps, () => Promise.reject(new WaitingChildrenError())));
    expect(waiting).toBeInstanceOf(WaitingChildrenError);
    expect(await steps.control.budget.state()).toEqual({ limit: 10, used: 0, reserved: 1 });
    expect(await releaseFailures()).toBe(0);
  });
});

describe('a release that fails', () => {
  let flaky: Redis;

  afterEach(() => {
    flaky.disconnect();
  });

  it('is logged, counted and retried until the reservation is released; the document\'s own error goes on', async () => {
    await steps.control.budget.setLimit(1);
    // Releases go over a connection of their own, which drops while the document is out (and comes back by itself).
    flaky = new Redis(SHARED_REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    await flaky.connect();
    const releases = new BudgetReleases(new CreditBudget(flaky, steps.name), { logger: logs.logger, metrics, retryDelayMs: () => 20 });
    const ctx = await documentContext();
    const unavailable = new Error('503 from the API');

    const error = await rejectionOf(
      withinBudget(ctx, CSV, { ...deps, releases }, async () => {
        flaky.disconnect(true);
        throw unavailable;
      }),
    );

    expect(error).toBe(unavailable);
    const logged = await logs.line('could not release a credit reservation');
    expect(logged).toMatchObject({ level: 40, file: 'prices.csv', attempt: 1 });
    expect(await releaseFailures()).toBeGreaterThanOrEqual(1);

    await releases.settled();
    expect(await steps.control.budget.state()).toEqual({ limit: 1, used: 0, reserved: 0 });
    expect((await steps.control.budget.reserve('another', 1, 60_000)).ok).toBe(true);
    expect(releases.pending).toBe(0);
    expect((await logs.line('credit reservation released')).tries).toBeGreaterThanOrEqual(2);
  });

  it('gives up once the next try would come after the reservation has expired by itself', async () => {
    await steps.control.budget.setLimit(5);
    // Redis unreachable for releases: a port nothing listens on, tried again and again.
    const port = await freePort();
    flaky = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    flaky.on('error', () => undefined);
    const releases = new BudgetReleases(new CreditBudget(flaky, steps.name), { logger: logs.logger, metrics, retryDelayMs: () => 20 });
    const reservation = await steps.control.budget.reserve('job-1', 2, 200);
    if (!reservation.ok) throw new Error('the reservation was refused');
    await releases.release({ owner: 'job-1', reservation, file: 'a.csv' });
    await releases.settled();
    expect((await logs.line('left to expire by itself')).msg).toContain('after its expiry');
    expect(await releaseFailures()).toBeGreaterThanOrEqual(2);
    expect(Date.now()).toBeGreaterThanOrEqual(reservation.expiresAt - 20);
  });

  it('stops retrying on a connection closed for good', async () => {
    await steps.control.budget.setLimit(5);
    flaky = new Redis(SHARED_REDIS_URL, { lazyConnect: true });
    await flaky.connect();
    await flaky.quit();
    const releases = new BudgetReleases(new CreditBudget(flaky, steps.name), { logger: logs.logger, metrics, retryDelayMs: () => 20 });
    const reservation = await steps.control.budget.reserve('job-1', 2, 60_000);
    if (!reservation.ok) throw new Error('the reservation was refused');
    await releases.release({ owner: 'job-1', reservation, file: 'a.csv' });
    await releases.settled();
    expect((await logs.line('left to expire by itself')).msg).toContain('connection to Redis is closed');
    expect(await releaseFailures()).toBe(1);
  });
});
