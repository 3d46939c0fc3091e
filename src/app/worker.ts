/**
 * `startWorker`: convert queued documents into an output until closed — what `docmill worker` runs, one per
 * machine or several, sharing the API's limits through the queue. Given a `source`, it also lists that source and
 * then watches it for new and changed files (`docmill watch`).
 *
 *   const worker = startWorker({ out: 's3://bucket/md', redisUrl: 'redis://queue:6379' });
 *   worker.on('document', ({ outcome }) => …);
 *   process.on('SIGTERM', () => void worker.close());
 */
import type { ParseApiError } from '../backend/errors.js';
import type { RunBlockedError } from '../errors/run-blocked.js';
import { integerSetting } from '../config/numbers.js';
import { Producer } from '../queue/producer.js';
import { waitForRoom } from '../queue/queue-room.js';
import { unlessAborted } from '../queue/redis-outage.js';
import { CompositionRoot, workerSettings } from './composition-root.js';
import { PipelineEvents } from './events.js';
import { recordNotConverted, type SkippedEntry } from './not-converted.js';
import { DEFAULTS, type StartWorkerOptions } from './options.js';
import { processingSettingsFrom, validatedOptions } from './processing-settings.js';
import { stoppedOutcome, SummaryCounter, type RunCounts } from './summary.js';
import { eventSettings, removedSetting } from './events-settings.js';
import { watchInto } from './watch-into.js';

export interface WorkerSummary {
  /**
   * closed: stopped by close() or the signal; stopped-auth: the API refused the key; stopped-blocked: nothing can be
   * converted here until repaired (RunBlockedError: the local engine's threads cannot start, the output is full).
   * Nothing was marked failed on either stop.
   */
  outcome: 'closed' | 'stopped-auth' | 'stopped-blocked';
  counts: RunCounts;
  queue: string;
  error?: ParseApiError | RunBlockedError | undefined;
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
  pipelineEvents: PipelineEvents,
  counter: SummaryCounter,
  signal: AbortSignal,
  forced: () => boolean,
): Promise<WorkerSummary> {
  const attempts = integerSetting(options.attempts ?? DEFAULTS.attempts, 'attempts');
  const pollIntervalMs = integerSetting(options.pollIntervalMs ?? DEFAULTS.pollIntervalMs, 'pollIntervalMs');
  const events = eventSettings(options);
  const removed = removedSetting(options.removed);
  const validated = options.source !== undefined ? validatedOptions(options.parseOptions, processingSettingsFrom(options)) : undefined;
  const worker = workerSettings(options, validated?.options.timeout);
  const stopped = new AbortController();
  const workSignal = AbortSignal.any([signal, stopped.signal]);
  return CompositionRoot.use(options, async (root) => {
    const { logger } = root;
    const opened = await root.openConversion(options, {
      naming: 'named',
      defaultMetrics: true,
      // A worker without a source applies each job's settings as it comes; a missing language then fails those documents.
      processing: validated?.settings,
      watch: {
        pollIntervalMs,
        checkpoint: options.source !== undefined ? { location: options.source, queue: options.queue, dir: options.checkpointDir } : undefined,
        events,
      },
      worker,
      stopping: workSignal,
      keepCompleted: true,
    });
    const { store, source, handle } = opened;
    // The queue's budget, for every worker on it; one started without a budget leaves the queue's as it is.
    if (worker.maxCredits !== undefined) {
      await handle.control.budget.setLimit(worker.maxCredits);
      // A queue stopped at its old budget goes on; the next document is checked against the new one.
      if ((await handle.control.pauseReason())?.kind === 'budget') await handle.control.resume();
    }
    let stopFailure: ParseApiError | RunBlockedError | undefined;
    const parseWorker = opened.startWorker({
      counter,
      events: pipelineEvents,
      onSendingStopped: (error) => {
        stopFailure ??= error;
        stopped.abort();
      },
    });
    logger.info({ queue: handle.queue.name, redis: handle.target, out: options.out, concurrency: worker.concurrency }, 'worker started');
    if (source && validated) {
      await handle.control.saveOptions(validated.fingerprint, validated.options, validated.settings);
      const onSkipped = (entry: SkippedEntry) => recordNotConverted(entry, source.location, store, counter, pipelineEvents);
      const producer = new Producer(handle.queue, {
        existingJobs: (ids) => handle.control.jobsThatExist(ids),
        // With events, the backfill and the event consumer queue the same new files at once: only one job per document
        // (its own id) makes them one, so that backfill groups nothing.
        ...(events ? { grouping: false as const } : {}),
        optionsFingerprint: validated.fingerprint,
        force: Boolean(options.force),
        attempts,
        removed,
        onQueued: (count) => {
          counter.counts.queued += count;
          pipelineEvents.publish({ type: 'queued', count });
        },
        onSkipped,
      });
      const backfill = async () => {
        // While Redis is down, queueing waits for it; stopping must not.
        const listing = await unlessAborted(producer.enqueueAll(source, source.list(workSignal)), workSignal);
        if (listing) {
          pipelineEvents.publish({ type: 'listed', queued: listing.queued });
          logger.info({ queued: listing.queued, notQueued: listing.skipped }, 'initial listing queued');
        }
        return listing !== undefined;
      };
      const watch = () =>
        unlessAborted(watchInto(source, producer, logger, workSignal, onSkipped, { waitForRoom: (signal) => waitForRoom(handle.queue, signal) }), workSignal);
      // With events, the backfill listing runs beside the event consumer (a document both report is one job); a
      // polling watch starts once the listing is queued, as its first poll records what the listing saw.
      if (events) await Promise.all([backfill(), watch()]);
      else if (await backfill()) await watch();
    } else {
      await new Promise<void>((resolveWait) => {
        if (workSignal.aborted) return resolveWait();
        workSignal.addEventListener('abort', () => resolveWait(), { once: true });
      });
    }
    if (stopFailure) {
      await parseWorker.close();
      return { outcome: stoppedOutcome(stopFailure), counts: counter.counts, queue: handle.queue.name, error: stopFailure };
    }
    logger.info('stopping: finishing active documents');
    await parseWorker.close(forced());
    return { outcome: 'closed', counts: counter.counts, queue: handle.queue.name };
  });
}
