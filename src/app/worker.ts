/**
 * `startWorker`: convert queued documents into an output until closed — what `docmill worker` runs, one per
 * machine or several, sharing the API's limits through the queue. Given a `source`, it also lists that source and
 * then watches it for new and changed files (`docmill watch`).
 *
 *   const worker = startWorker({ out: 's3://bucket/md', redisUrl: 'redis://queue:6379' });
 *   worker.on('document', ({ outcome }) => …);
 *   process.on('SIGTERM', () => void worker.close());
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { startParseWorker } from '../../workers/parse-worker.js';
import type { ParseApiError } from '../backend/errors.js';
import { integerSetting } from '../config/numbers.js';
import { createLogger } from '../logging/logger.js';
import { DocmillMetrics } from '../metrics/metrics.js';
import { Producer } from '../queue/producer.js';
import { DEFAULT_QUEUE } from '../queue/queue-names.js';
import { unlessAborted } from '../queue/redis-outage.js';
import { PipelineEvents } from './events.js';
import { DEFAULTS, type StartWorkerOptions } from './options.js';
import {
  buildBackend,
  buildStore,
  defaultCheckpointDir,
  openQueue,
  S3ClientCache,
  sourceCloser,
  sourceFactory,
  validatedOptions,
} from './pipeline.js';
import { checkOcrLanguagesFor, processingSettingsFrom } from './processing-settings.js';
import { Resources } from './resources.js';
import { observeForMetrics } from './metrics-wiring.js';
import { reportingHooks, serveMetrics } from './worker-wiring.js';
import { lockDurationFor, recordNotConverted } from './run.js';
import { SummaryCounter, type RunCounts } from './summary.js';
import { watchInto } from './watch-into.js';

export interface WorkerSummary {
  /** closed: stopped by close() or the signal; stopped-auth: the API refused the key (nothing was marked failed). */
  outcome: 'closed' | 'stopped-auth';
  counts: RunCounts;
  queue: string;
  error?: ParseApiError | undefined;
}

export interface WorkerHandle extends PipelineEvents {
  /** Resolves when the worker has stopped; rejects when it cannot start. */
  readonly done: Promise<WorkerSummary>;
  readonly counter: SummaryCounter;
  /** Stops fetching, lets active documents finish (`force`: hands them back at once), closes everything. */
  close(force?: boolean): Promise<WorkerSummary | undefined>;
}

export function startWorker(options: StartWorkerOptions): WorkerHandle {
  const events = new PipelineEvents() as WorkerHandle;
  const counter = new SummaryCounter();
  const stop = new AbortController();
  let force = false;
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const done = workUntilStopped(options, events, counter, signal, () => force).finally(() => events.end());
  done.catch(() => undefined);
  Object.assign(events, {
    done,
    counter,
    close: async (forced = false) => {
      force = forced;
      stop.abort(new Error('closed'));
      return done.catch(() => undefined);
    },
  });
  return events;
}

async function workUntilStopped(
  options: StartWorkerOptions,
  events: PipelineEvents,
  counter: SummaryCounter,
  signal: AbortSignal,
  forced: () => boolean,
): Promise<WorkerSummary> {
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const environment = options.environment;
  const concurrency = integerSetting(options.concurrency ?? DEFAULTS.concurrency, 'concurrency');
  const attempts = integerSetting(options.attempts ?? DEFAULTS.attempts, 'attempts');
  const pollIntervalMs = integerSetting(options.pollIntervalMs ?? DEFAULTS.pollIntervalMs, 'pollIntervalMs');
  const validated = options.source !== undefined ? validatedOptions(options.parseOptions, processingSettingsFrom(options)) : undefined;
  const lockDurationMs = lockDurationFor(options.lockDurationMs, validated?.options.timeout);
  const maxCredits = options.maxCredits === undefined ? undefined : integerSetting(options.maxCredits, 'maxCredits', { min: 0 });
  const resources = new Resources(logger);
  const stopped = new AbortController();
  const workSignal = AbortSignal.any([signal, stopped.signal]);
  let authFailure: ParseApiError | undefined;
  try {
    const backend = resources.add('parse backend', buildBackend(options, logger, environment), (b) => b.close());
    // A worker without a source applies each job's settings as it comes; a missing language then fails those documents.
    if (validated) checkOcrLanguagesFor(backend, validated.settings);
    const s3 = resources.add('S3 client', new S3ClientCache(options.s3), (c) => c.close());
    const store = resources.add('store', buildStore(options.out, s3), (s) => s.close());
    const sources = resources.add('sources', sourceCloser(), (c) => c.close());
    const cacheDir = environment?.cacheDir ?? join(homedir(), '.cache');
    const sourceFor = sources.track(
      sourceFactory(s3, {
        selection: { include: options.include ?? [], exclude: options.exclude ?? [] },
        ...(options.out.startsWith('s3://') ? {} : { ignorePaths: [resolve(options.out)] }),
        pollIntervalMs,
        ...(options.source !== undefined
          ? { checkpointDir: options.checkpointDir ?? defaultCheckpointDir(options.source, options.queue ?? DEFAULT_QUEUE, cacheDir) }
          : {}),
      }),
    );
    const source = options.source !== undefined ? sourceFor(options.source) : undefined;
    const handle = resources.add('queue', await openQueue(options, 'named', logger, environment), (h) => h.close());
    // The queue's budget, for every worker on it; one started without a budget leaves the queue's as it is.
    if (maxCredits !== undefined) {
      await handle.control.budget.setLimit(maxCredits);
      // A queue stopped at its old budget goes on; the next document is checked against the new one.
      if ((await handle.control.pauseReason())?.kind === 'budget') await handle.control.resume();
    }
    const metrics = new DocmillMetrics({ defaultMetrics: true });
    await serveMetrics(resources, metrics, options.metricsPort, logger, { queue: handle.queue, dashboard: options.dashboard });
    observeForMetrics(resources, metrics, { handle, backend, api: options, environment, metricsPort: options.metricsPort }, logger);
    const worker = resources.add(
      'worker',
      startParseWorker({
        connection: handle.redis,
        queue: handle.queue,
        control: handle.control,
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
          stopped.abort();
        },
      }),
      (w) => w.close(true),
    );
    logger.info({ queue: handle.queue.name, redis: handle.target, out: options.out, concurrency }, 'worker started');
    if (source && validated) {
      await handle.control.saveOptions(validated.fingerprint, validated.options, validated.settings);
      const producer = new Producer(handle.queue, {
        optionsFingerprint: validated.fingerprint,
        force: Boolean(options.force),
        attempts,
        onQueued: (count) => {
          counter.counts.queued += count;
          events.publish({ type: 'queued', count });
        },
        onSkipped: (entry) => recordNotConverted(entry, source.location, store, counter, events),
      });
      // While Redis is down, queueing waits for it; stopping must not.
      const listing = await unlessAborted(producer.enqueueAll(source, source.list(workSignal)), workSignal);
      if (listing) {
        events.publish({ type: 'listed', queued: listing.queued });
        logger.info({ queued: listing.queued, notQueued: listing.skipped }, 'initial listing queued');
        const onSkipped = (entry: Parameters<typeof recordNotConverted>[0]) => recordNotConverted(entry, source.location, store, counter, events);
        await unlessAborted(watchInto(source, producer, logger, workSignal, onSkipped), workSignal);
      }
    } else {
      await new Promise<void>((resolveWait) => {
        if (workSignal.aborted) return resolveWait();
        workSignal.addEventListener('abort', () => resolveWait(), { once: true });
      });
    }
    if (authFailure) {
      await worker.close();
      return { outcome: 'stopped-auth', counts: counter.counts, queue: handle.queue.name, error: authFailure };
    }
    logger.info('stopping: finishing active documents');
    await worker.close(forced());
    return { outcome: 'closed', counts: counter.counts, queue: handle.queue.name };
  } finally {
    await resources.close();
  }
}
