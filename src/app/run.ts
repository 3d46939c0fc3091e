/**
 * `run`: convert every document below a source into an output, then stop. The source is listed into the output's
 * own queue while in-process workers convert; interrupted, the same call resumes (the queue lives in Redis, and
 * finished documents are skipped by their recorded change token).
 *
 *   const handle = run({ source: './archive', out: './md' });
 *   handle.on('document', ({ outcome }) => console.log(outcome.status, outcome.relativePath));
 *   const summary = await handle.done;
 */
import type { Logger } from 'pino';
import type { ParseApiError } from '../backend/errors.js';
import type { RunBlockedError } from '../errors/run-blocked.js';
import { integerSetting } from '../config/numbers.js';
import { documentCounts } from '../queue/document-counts.js';
import { retryFailedUnder } from '../queue/failed-under-other-options.js';
import { Producer } from '../queue/producer.js';
import { reclaimOrphanedJobs } from '../queue/reclaim.js';
import { DEFAULT_REDIS_WAIT_MS, unlessAborted } from '../queue/redis-outage.js';
import type { QueueControl } from '../queue/queue-control.js';
import { CompositionRoot, workerSettings } from './composition-root.js';
import { DrainWake } from './drain-wake.js';
import { PipelineEvents } from './events.js';
import { removedSetting } from './events-settings.js';
import { recordNotConverted } from './not-converted.js';
import { ListedPaths, removedSinceLastRun } from './removed-since-last-run.js';
import { DEFAULTS, type RunOptions } from './options.js';
import { processingSettingsFrom, validatedOptions } from './processing-settings.js';
import type { QueueHandle } from './queue-handle.js';
import { stoppedOutcome, SummaryCounter, type RunSummary } from './summary.js';

export interface RunHandle extends PipelineEvents {
  /** Resolves with the summary when the run ends (drained, refused by the API, or closed); rejects when it cannot start. */
  readonly done: Promise<RunSummary>;
  /** Live counts, for progress displays. */
  readonly counter: SummaryCounter;
  /** Stops taking documents, lets active ones finish, and resolves when everything is closed. */
  close(): Promise<RunSummary | undefined>;
}

export function run(options: RunOptions): RunHandle {
  const events = new PipelineEvents() as RunHandle;
  const counter = new SummaryCounter();
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const done = runToEnd(options, events, counter, signal).finally(() => events.end());
  // A caller that only listens to events must not get an unhandled rejection: done is always observed here.
  done.catch(() => undefined);
  Object.assign(events, {
    done,
    counter,
    close: async () => {
      stop.abort(new Error('closed'));
      return done.catch(() => undefined);
    },
  });
  return events;
}

async function runToEnd(options: RunOptions, events: PipelineEvents, counter: SummaryCounter, signal: AbortSignal): Promise<RunSummary> {
  const attempts = integerSetting(options.attempts ?? DEFAULTS.attempts, 'attempts');
  const { options: parseOptions, settings, fingerprint } = validatedOptions(options.parseOptions, processingSettingsFrom(options));
  const worker = workerSettings(options, parseOptions.timeout);
  const giveUpOnRedisAfterMs = integerSetting(options.redisWaitMs ?? DEFAULT_REDIS_WAIT_MS, 'redisWaitMs', { min: 0 });
  const removed = removedSetting(options.removed);
  return CompositionRoot.use(options, async (root) => {
    const { logger } = root;
    const opened = await root.openConversion(options, { naming: 'run', giveUpOnRedisAfterMs, defaultMetrics: false, processing: settings, worker, keepCompleted: false });
    const { store, handle } = opened;
    const source = opened.source ?? (await opened.sourceFor(options.source));
    const { queue, control } = handle;
    // Stopped, or Redis gone for longer than the run may wait: either way nothing may keep awaiting Redis.
    const stopOrLost = AbortSignal.any([signal, handle.outage.lost]);
    // Redis lost here: these wait for it, the run need not (it goes on to end as the drain loop decides).
    await unlessAborted(
      (async () => {
        await control.saveOptions(fingerprint, parseOptions, settings);
        await startBudget(handle, worker.maxCredits);
        const pause = await control.pauseReason();
        if (pause) {
          logger.warn({ reason: pause.message }, 'the queue was paused; running again resumes it');
          await control.resume();
        }
        // Rerunning means trying again: documents that failed last time go back to the queue, unless they were
        // queued under other options (the listing queues them again under this run's).
        const superseded = await retryFailedUnder(queue, fingerprint);
        if (superseded > 0) logger.info({ superseded }, 'failed documents of a run with other options are tried again with this run\'s');
        await reclaimForRun(handle, logger, events);
      })(),
      stopOrLost,
    );
    let stopFailure: ParseApiError | RunBlockedError | undefined;
    const parseWorker = opened.startWorker({
      counter,
      events,
      onSendingStopped: (error) => {
        stopFailure ??= error;
      },
      onPaused: () => events.publish({ type: 'status', status: 'paused: parse API credits exhausted; run `docmill resume` after adding credits' }),
    });
    logger.info({ source: options.source, out: options.out, queue: queue.name, redis: handle.target, concurrency: worker.concurrency }, 'run started');
    const producer = new Producer(queue, {
      existingJobs: (ids) => control.jobsThatExist(ids),
      optionsFingerprint: fingerprint,
      force: Boolean(options.force),
      attempts,
      removed,
      // Its removals are queued after the listing, behind every parse job that may copy their outputs: no grace.
      removalGraceMs: 0,
      onQueued: (count) => {
        counter.counts.queued += count;
        events.publish({ type: 'queued', count });
      },
      onSkipped: (entry) => recordNotConverted(entry, source.location, store, counter, events),
    });
    const listed = new ListedPaths();
    const listing = await unlessAborted(producer.enqueueAll(source, listed.record(source.list(signal))), stopOrLost);
    if (listing) {
      // Files an earlier run converted that the listing no longer finds: removals, recorded (and their outputs
      // deleted with `removed: 'delete'`) by the workers like any job.
      const gone = await unlessAborted(removedSinceLastRun(store, source, listed, stopOrLost), stopOrLost);
      if (gone && gone.length > 0) {
        await unlessAborted(producer.enqueueRemovals(source, gone), stopOrLost);
        logger.info({ removed: gone.length, outputs: removed }, 'files of an earlier run are gone');
      }
      events.publish({ type: 'listed', queued: listing.queued });
    }
    const wake = new DrainWake(parseWorker.worker);
    const ending = await waitUntilDrained(handle, control, events, stopOrLost, () => stopFailure, wake).finally(() => wake.stop());
    // Read after the worker has closed: documents that finish while it closes are part of the summary.
    const summaryBase = () => ({ queue: queue.name, out: options.out, failures: counter.failures(), notConverted: counter.notConvertedGroups(), skippedBy: counter.skippedBy, warnings: counter.warnings() });
    if (ending === 'stopped') {
      // Gracefully: documents in flight see the refusal before their next request and go back to waiting.
      await parseWorker.close();
      return { ...summaryBase(), outcome: stoppedOutcome(stopFailure), counts: counter.counts, failedInQueue: 0, error: stopFailure };
    }
    if (ending === 'redis-lost') {
      await parseWorker.close(true);
      return { ...summaryBase(), outcome: 'redis-unavailable', counts: counter.counts, failedInQueue: counter.counts.failed, error: handle.outage.lost.reason as Error };
    }
    if (ending === 'interrupted') {
      events.publish({ type: 'status', status: 'stopping' });
      await parseWorker.close();
      const failedInQueue = handle.outage.down ? undefined : await unlessAborted(queue.getJobCountByTypes('failed'), AbortSignal.timeout(3000));
      return { ...summaryBase(), outcome: 'interrupted', counts: counter.counts, failedInQueue: failedInQueue ?? counter.counts.failed };
    }
    if (ending === 'budget') {
      await parseWorker.close();
      const budget = await control.budget.state();
      const open = await documentCounts(queue, 'waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
      const waiting = Object.values(open).reduce((sum, count) => sum + count, 0);
      logger.warn({ ...budget, waiting }, 'run stopped at the credit budget; the remaining documents wait in the queue');
      return {
        ...summaryBase(),
        outcome: 'stopped-budget',
        counts: counter.counts,
        failedInQueue: await queue.getJobCountByTypes('failed'),
        budget: { maxCredits: budget.limit ?? 0, used: budget.used, waiting },
      };
    }
    await parseWorker.close();
    return {
      ...summaryBase(),
      outcome: 'completed',
      counts: counter.counts,
      failedInQueue: await queue.getJobCountByTypes('failed'),
    };
  });
}

/**
 * A run owns its queue (named from its output): when no worker is connected to it, jobs left active are a dead
 * run's, and are handed back at once instead of after their locks expire, on the embedded Redis and on a shared one
 * alike. When workers are connected (a fleet shares the queue), their locks decide, and the run says what it waits for.
 */
async function reclaimForRun(handle: QueueHandle, logger: Logger, events: PipelineEvents): Promise<void> {
  let reclaimed: number;
  try {
    reclaimed = await reclaimOrphanedJobs(handle.queue, handle.redis);
  } catch (error) {
    logger.warn({ err: error }, 'could not check for documents an interrupted run left in progress');
    return;
  }
  if (reclaimed > 0) {
    logger.info({ reclaimed }, 'resuming documents an interrupted run left in progress');
    return;
  }
  const active = await handle.queue.getActiveCount();
  if (active > 0) {
    const workers = await handle.queue.getWorkersCount().catch(() => 0);
    const status = `waiting for ${active} document(s) held by ${workers} other connected worker(s); they move on when those finish or their locks expire`;
    logger.warn({ active, workers }, status);
    events.publish({ type: 'status', status });
  }
}

/** stopped: this process stopped sending (a refused key, a RunBlockedError). */
type DrainEnding = 'drained' | 'stopped' | 'interrupted' | 'redis-lost' | 'budget';

async function waitUntilDrained(
  handle: QueueHandle,
  control: QueueControl,
  events: PipelineEvents,
  signal: AbortSignal,
  stopFailure: () => ParseApiError | RunBlockedError | undefined,
  wake: DrainWake,
): Promise<DrainEnding> {
  let lastStatus = '';
  for (;;) {
    if (stopFailure()) return 'stopped';
    if (handle.outage.lost.aborted) return 'redis-lost';
    if (signal.aborted) return 'interrupted';
    // While Redis is down these wait for it (ioredis queues them); `signal` ends the wait when the run must stop.
    const counts = await unlessAborted(handle.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children'), signal);
    if (!counts) continue;
    const open = Object.values(counts).reduce((sum, count) => sum + count, 0);
    if (open === 0) return 'drained';
    const pause = await unlessAborted(control.pauseReason(), signal);
    if (signal.aborted) continue;
    // At the budget, documents already sent finish; then the run ends, the rest left waiting.
    if (pause?.kind === 'budget' && (counts.active ?? 0) === 0) return 'budget';
    const status = pause ? `paused (${pause.kind}): run \`docmill resume --out …\` to continue` : '';
    if (status !== lastStatus) {
      events.publish({ type: 'status', status });
      lastStatus = status;
    }
    await wake.sleep(250);
  }
}

/**
 * A run's budget is its own: `maxCredits` is set for its queue, or cleared when not given. Credits used are counted
 * afresh when a new batch begins (the last one left nothing open); a rerun that resumes a stopped batch keeps them.
 */
async function startBudget(handle: QueueHandle, maxCredits: number | undefined): Promise<void> {
  const open = await handle.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
  if (Object.values(open).every((count) => count === 0)) await handle.control.budget.resetUsed();
  await handle.control.budget.setLimit(maxCredits);
}
