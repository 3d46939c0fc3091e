/**
 * `docmill worker --out <dest>`: process a shared queue until stopped. Run one per machine (or several); they
 * share the API's limits through the queue. `docmill watch` is a source watcher and a worker in one process.
 */
import { resolve } from 'node:path';
import { startParseWorker } from '../../../workers/parse-worker.js';
import type { ParseApiError } from '../../backend/errors.js';
import { DocmillMetrics } from '../../metrics/metrics.js';
import { Producer } from '../../queue/producer.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { type ParseFlags } from '../parse-flags.js';
import { type ApiFlagValues, type ConnectionFlags, type S3Flags, type SourceFlags, type WorkerFlags } from '../pipeline-flags.js';
import { buildBackend, buildStore, defaultCheckpointDir, openQueue, S3ClientCache, sourceFactory, validatedOptions } from '../pipeline-setup.js';
import { DEFAULT_QUEUE } from '../../queue/queue-names.js';
import { reportError } from '../report-error.js';
import { UsageError } from '../usage-error.js';
import { watchInto } from '../watch-loop.js';
import { lockDurationFor, positiveInteger, startMetricsServer } from '../worker-settings.js';

export interface WorkerCommandFlags extends ConnectionFlags, ApiFlagValues, S3Flags, WorkerFlags {}

export interface WatchFlags extends WorkerCommandFlags, ParseFlags, SourceFlags {
  force?: boolean;
  pollInterval: string;
  checkpoint?: string;
}


/** A worker until a signal; with a source location, also the watcher that feeds the queue. */
export async function serve(location: string | undefined, flags: WatchFlags | WorkerCommandFlags, context: CliContext): Promise<number> {
  const { logger } = context;
  if (!flags.out) throw new UsageError(`${location ? 'watch' : 'worker'} needs --out <folder or s3://bucket/prefix>`);
  const out = flags.out;
  const concurrency = positiveInteger(flags.concurrency, '--concurrency');
  const watchFlags = location ? (flags as WatchFlags) : undefined;
  const validated = watchFlags ? await validatedOptions(watchFlags) : undefined;
  const backend = buildBackend(flags, context.env, logger);
  const s3 = new S3ClientCache(flags);
  const store = buildStore(out, s3);
  const sourceFor = sourceFactory(s3, {
    ...(watchFlags ? { selection: { include: watchFlags.include, exclude: watchFlags.exclude } } : {}),
    ...(out.startsWith('s3://') ? {} : { ignorePaths: [resolve(out)] }),
    ...(watchFlags ? { pollIntervalMs: positiveInteger(watchFlags.pollInterval, '--poll-interval') } : {}),
    ...(location && watchFlags
      ? { checkpointDir: watchFlags.checkpoint ?? defaultCheckpointDir(location, flags.queue ?? DEFAULT_QUEUE, context.env) }
      : {}),
  });
  const source = location ? sourceFor(location) : undefined;
  const handle = await openQueue(flags, context.env, logger, 'named');
  const metrics = new DocmillMetrics({ defaultMetrics: true });
  const metricsServer = flags.metricsPort ? await startMetricsServer(metrics, flags.metricsPort, logger) : undefined;
  let authFailure: ParseApiError | undefined;
  const stopped = new AbortController();
  const worker = startParseWorker({
    connection: handle.redis,
    queue: handle.queue,
    control: handle.control,
    store,
    backend,
    sourceFor,
    logger,
    metrics,
    concurrency,
    lockDurationMs: lockDurationFor(flags.lockDuration, validated?.options.timeout),
    onOutcome: (outcome) => logger.info({ file: outcome.relativePath, status: outcome.status, pages: outcome.numPages, reason: outcome.reason }, outcome.status),
    onAuthFailure: (error) => {
      authFailure ??= error;
      stopped.abort();
    },
  });
  try {
    logger.info({ queue: handle.queue.name, redis: handle.target, out, concurrency }, 'worker started');
    if (source && validated && watchFlags) {
      await handle.control.saveOptions(validated.fingerprint, validated.options);
      const producer = new Producer(handle.queue, {
        optionsFingerprint: validated.fingerprint,
        force: Boolean(watchFlags.force),
      });
      const signal = AbortSignal.any([context.signal, stopped.signal]);
      const summary = await producer.enqueueAll(source, source.list(signal));
      logger.info({ queued: summary.queued, notQueued: summary.skipped }, 'initial listing queued');
      await watchInto(source, producer, { ...context, signal });
    } else {
      await new Promise<void>((resolveWait) => {
        const done = () => resolveWait();
        context.signal.addEventListener('abort', done, { once: true });
        stopped.signal.addEventListener('abort', done, { once: true });
      });
    }
    if (authFailure) {
      await worker.close(true);
      context.stderr.write(`${reportError(authFailure, 'worker stopped').text}\n  no document was marked failed\n`);
      return EXIT.api;
    }
    logger.info('stopping: finishing active documents (Ctrl-C again to hand them back at once)');
    await worker.close();
    // A service stopped on purpose (Ctrl-C, docker stop) ends normally.
    return EXIT.ok;
  } finally {
    await worker.close(true).catch(() => undefined);
    await source?.close();
    await backend.close();
    await store.close();
    await metricsServer?.close();
    await handle.close();
    s3.close();
  }
}
