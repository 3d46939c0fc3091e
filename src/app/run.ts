/**
 * `run`: convert every document below a source into an output, then stop. The source is listed into the output's
 * own queue while in-process workers convert; interrupted, the same call resumes (the queue lives in Redis, and
 * finished documents are skipped by their recorded change token).
 *
 *   const handle = run({ source: './archive', out: './md' });
 *   handle.on('document', ({ outcome }) => console.log(outcome.status, outcome.relativePath));
 *   const summary = await handle.done;
 */
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { startParseWorker, type ParseWorker } from '../../workers/parse-worker.js';
import type { ParseApiError } from '../backend/errors.js';
import { integerSetting } from '../config/numbers.js';
import { MAX_TIMEOUT_MS } from '../contract/limits.js';
import { createLogger } from '../logging/logger.js';
import { DocmillMetrics } from '../metrics/metrics.js';
import { Producer } from '../queue/producer.js';
import { reclaimOrphanedJobs } from '../queue/reclaim.js';
import { DEFAULT_REDIS_WAIT_MS, unlessAborted } from '../queue/redis-outage.js';
import type { QueueControl } from '../queue/queue-control.js';
import { PipelineEvents } from './events.js';
import { notConvertedRecord, type SkippedEntry } from './not-converted.js';
import type { DocumentOutcome } from '../pipeline/outcome.js';
import type { OutputStore } from '../store/output-store.js';
import { DEFAULTS, type RunOptions } from './options.js';
import { buildBackend, buildStore, openQueue, S3ClientCache, sourceCloser, sourceFactory, validatedOptions, type QueueHandle } from './pipeline.js';
import { checkOcrLanguagesFor, processingSettingsFrom } from './processing-settings.js';
import { Resources } from './resources.js';
import { observeForMetrics } from './metrics-wiring.js';
import { reportingHooks, serveMetrics } from './worker-wiring.js';
import { SummaryCounter, type RunSummary } from './summary.js';

export interface RunHandle extends PipelineEvents {
  /** Resolves with the summary when the run ends (drained, refused by the API, or closed); rejects when it cannot start. */
  readonly done: Promise<RunSummary>;
  /** Live counts, for progress displays. */
  readonly counter: SummaryCounter;
  /** Stops taking documents, lets active ones finish, and resolves when everything is closed. */
  close(): Promise<RunSummary | undefined>;
}

/** The job lock must outlive the longest parse (its timeout, plus upload and queueing). */
export function lockDurationFor(option: number | undefined, timeoutMs: number = MAX_TIMEOUT_MS): number {
  return option !== undefined ? integerSetting(option, 'lockDurationMs') : timeoutMs + 60_000;
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
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const environment = options.environment;
  const concurrency = integerSetting(options.concurrency ?? DEFAULTS.concurrency, 'concurrency');
  const attempts = integerSetting(options.attempts ?? DEFAULTS.attempts, 'attempts');
  const { options: parseOptions, settings, fingerprint } = validatedOptions(options.parseOptions, processingSettingsFrom(options));
  const lockDurationMs = lockDurationFor(options.lockDurationMs, parseOptions.timeout);
  const maxCredits = options.maxCredits === undefined ? undefined : integerSetting(options.maxCredits, 'maxCredits', { min: 0 });
  const resources = new Resources(logger);
  let worker: ParseWorker | undefined;
  let authFailure: ParseApiError | undefined;
  try {
    const backend = resources.add('parse backend', buildBackend(options, logger, environment), (b) => b.close());
    checkOcrLanguagesFor(backend, settings);
    const s3 = resources.add('S3 client', new S3ClientCache(options.s3), (c) => c.close());
    const store = resources.add('store', buildStore(options.out, s3), (s) => s.close());
    const sources = resources.add('sources', sourceCloser(), (c) => c.close());
    const sourceFor = sources.track(
      sourceFactory(s3, {
        selection: { include: options.include ?? [], exclude: options.exclude ?? [] },
        ignorePaths: options.out.startsWith('s3://') ? [] : [resolve(options.out)],
      }),
    );
    const source = sourceFor(options.source);
    const giveUpOnRedisAfterMs = integerSetting(options.redisWaitMs ?? DEFAULT_REDIS_WAIT_MS, 'redisWaitMs', { min: 0 });
    const handle = resources.add('queue', await openQueue({ ...options, out: options.out, giveUpOnRedisAfterMs }, 'run', logger, environment), (h) => h.close());
    // Stopped, or Redis gone for longer than the run may wait: either way nothing may keep awaiting Redis.
    const stopOrLost = AbortSignal.any([signal, handle.outage.lost]);
    const metrics = new DocmillMetrics();
    await serveMetrics(resources, metrics, options.metricsPort, logger, { queue: handle.queue, dashboard: options.dashboard });
    observeForMetrics(resources, metrics, { handle, backend, api: options, environment, metricsPort: options.metricsPort }, logger);
    const { queue, control } = handle;
    // Redis lost here: these wait for it, the run need not (it goes on to end as the drain loop decides).
    await unlessAborted(
      (async () => {
        await control.saveOptions(fingerprint, parseOptions, settings);
        await startBudget(handle, maxCredits);
        const pause = await control.pauseReason();
        if (pause) {
          logger.warn({ reason: pause.message }, 'the queue was paused; running again resumes it');
          await control.resume();
        }
        // Rerunning means trying again: documents that failed last time go back to the queue.
        await queue.retryJobs({ state: 'failed' });
        await reclaimForRun(handle, logger, events);
      })(),
      stopOrLost,
    );
    worker = startParseWorker({
      connection: handle.redis,
      queue,
      control,
      store,
      backend,
      sourceFor,
      logger,
      metrics,
      concurrency,
      lockDurationMs,
      splitPages: options.splitPages === undefined ? undefined : integerSetting(options.splitPages, 'splitPages'),
      ...reportingHooks(handle, counter, events),
      onAuthFailure: (error) => {
        authFailure ??= error;
      },
      onPaused: () => events.publish({ type: 'status', status: 'paused: parse API credits exhausted; run `docmill resume` after adding credits' }),
    });
    logger.info({ source: options.source, out: options.out, queue: queue.name, redis: handle.target, concurrency }, 'run started');
    const producer = new Producer(queue, {
      optionsFingerprint: fingerprint,
      force: Boolean(options.force),
      attempts,
      keepCompleted: false,
      onQueued: (count) => {
        counter.counts.queued += count;
        events.publish({ type: 'queued', count });
      },
      onSkipped: (entry) => recordNotConverted(entry, source.location, store, counter, events),
    });
    const listing = await unlessAborted(producer.enqueueAll(source, source.list(signal)), stopOrLost);
    if (listing) events.publish({ type: 'listed', queued: listing.queued });
    const ending = await waitUntilDrained(handle, control, events, stopOrLost, () => authFailure);
    // Read after the worker has closed: documents that finish while it closes are part of the summary.
    const summaryBase = () => ({ queue: queue.name, out: options.out, failures: counter.failures(), notConverted: counter.notConvertedGroups(), skippedBy: counter.skippedBy });
    if (ending === 'auth') {
      // Gracefully: documents in flight see the refusal before their next request and go back to waiting.
      await worker.close();
      return { ...summaryBase(), outcome: 'stopped-auth', counts: counter.counts, failedInQueue: 0, error: authFailure };
    }
    if (ending === 'redis-lost') {
      await worker.close(true);
      return { ...summaryBase(), outcome: 'redis-unavailable', counts: counter.counts, failedInQueue: counter.counts.failed, error: handle.outage.lost.reason as Error };
    }
    if (ending === 'interrupted') {
      events.publish({ type: 'status', status: 'stopping' });
      await worker.close();
      const failedInQueue = handle.outage.down ? undefined : await unlessAborted(queue.getJobCountByTypes('failed'), AbortSignal.timeout(3000));
      return { ...summaryBase(), outcome: 'interrupted', counts: counter.counts, failedInQueue: failedInQueue ?? counter.counts.failed };
    }
    if (ending === 'budget') {
      await worker.close();
      const budget = await control.budget.state();
      const open = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
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
    await worker.close();
    return {
      ...summaryBase(),
      outcome: 'completed',
      counts: counter.counts,
      failedInQueue: await queue.getJobCountByTypes('failed'),
    };
  } finally {
    await worker?.close(true).catch(() => undefined);
    await resources.close();
  }
}

/** Records a listed file docmill will not convert, counts it, and tells the caller. */
export async function recordNotConverted(
  entry: SkippedEntry,
  sourceLocation: string,
  store: OutputStore | undefined,
  counter: SummaryCounter,
  events: PipelineEvents,
): Promise<void> {
  const record = notConvertedRecord(entry, sourceLocation);
  if (!record) return;
  await store?.appendManifest(record);
  if (record.status === 'failed') {
    const outcome: DocumentOutcome = { status: 'failed', relativePath: record.path, requests: 0, durationMs: 0, error: record.error, record };
    counter.record(outcome);
    events.publish({ type: 'document', outcome });
    return;
  }
  const reason = record.reason ?? entry.reason;
  counter.notConverted(record.path, reason);
  events.publish({ type: 'not-converted', path: record.path, reason, extension: record.extension, record });
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

type DrainEnding = 'drained' | 'auth' | 'interrupted' | 'redis-lost' | 'budget';

async function waitUntilDrained(
  handle: QueueHandle,
  control: QueueControl,
  events: PipelineEvents,
  signal: AbortSignal,
  authFailure: () => ParseApiError | undefined,
): Promise<DrainEnding> {
  let lastStatus = '';
  for (;;) {
    if (authFailure()) return 'auth';
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
    await new Promise((resolveWait) => setTimeout(resolveWait, 250));
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
