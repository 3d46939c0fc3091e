/**
 * `docmill run <source> --out <dest>`: one-shot conversion of a tree. Lists the source into the queue while
 * in-process workers convert, shows progress, ends with a summary. Interrupted, the same command resumes: the
 * queue lives in Redis (the embedded one keeps an AOF under <out>/_docmill/redis), and finished documents are
 * skipped by their recorded change token.
 */
import { relative, resolve } from 'node:path';
import type { Queue } from 'bullmq';
import type { QueueControl } from '../../queue/queue-control.js';
import { startParseWorker, type ParseWorker } from '../../../workers/parse-worker.js';
import type { ParseApiError } from '../../backend/errors.js';
import { DocmillMetrics } from '../../metrics/metrics.js';
import { Producer } from '../../queue/producer.js';
import { reclaimOrphanedJobs } from '../../queue/reclaim.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { type ParseFlags } from '../parse-flags.js';
import { type ApiFlagValues, type ConnectionFlags, type S3Flags, type SourceFlags, type WorkerFlags } from '../pipeline-flags.js';
import {
  buildBackend,
  buildStore,
  openQueue,
  S3ClientCache,
  sourceFactory,
  validatedOptions,
} from '../pipeline-setup.js';
import { Progress } from '../progress.js';
import { UsageError } from '../usage-error.js';
import { lockDurationFor, positiveInteger, startMetricsServer } from '../worker-settings.js';
import { reportError } from '../report-error.js';

export interface RunFlags extends ParseFlags, ConnectionFlags, ApiFlagValues, SourceFlags, S3Flags, WorkerFlags {
  force?: boolean;
}


export async function runCommand(sourceLocation: string, flags: RunFlags, context: CliContext): Promise<number> {
  const { logger } = context;
  if (!flags.out) throw new UsageError('run needs --out <folder or s3://bucket/prefix>');
  const out = flags.out;
  const concurrency = positiveInteger(flags.concurrency, '--concurrency');
  const attempts = positiveInteger(flags.attempts, '--attempts');
  const { options, fingerprint } = await validatedOptions(flags);
  const backend = buildBackend(flags, context.env, logger);
  const s3 = new S3ClientCache(flags);
  const store = buildStore(out, s3);
  const outsideIgnore = out.startsWith('s3://') ? [] : [resolve(out)];
  const sourceFor = sourceFactory(s3, {
    selection: { include: flags.include, exclude: flags.exclude },
    ignorePaths: outsideIgnore,
  });
  const source = sourceFor(sourceLocation);
  const handle = await openQueue(flags, context.env, logger, 'run');
  const { queue, control } = handle;
  const metrics = new DocmillMetrics();
  const metricsServer = flags.metricsPort ? await startMetricsServer(metrics, flags.metricsPort, logger) : undefined;
  const progress = new Progress(context.stderr, logger);
  let authFailure: ParseApiError | undefined;
  let worker: ParseWorker | undefined;
  try {
    await control.saveOptions(fingerprint, options);
    const pause = await control.pauseReason();
    if (pause) {
      logger.warn({ reason: pause.message }, 'the queue was paused; running again resumes it');
      await control.resume();
    }
    // Rerunning means trying again: documents that failed last time go back to the queue.
    await queue.retryJobs({ state: 'failed' });
    if (handle.embedded) {
      const reclaimed = await reclaimOrphanedJobs(queue, handle.redis);
      if (reclaimed > 0) logger.info({ reclaimed }, 'resuming documents an interrupted run left in progress');
    }
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
      lockDurationMs: lockDurationFor(flags.lockDuration, options.timeout),
      onOutcome: (outcome) => progress.record(outcome),
      onAuthFailure: (error) => {
        authFailure ??= error;
      },
      onPaused: () => progress.setStatus('paused: parse API credits exhausted; run `docmill resume` after adding credits'),
    });
    logger.info(
      { source: sourceLocation, out, queue: queue.name, redis: handle.target, concurrency },
      'run started',
    );
    progress.start();
    const producer = new Producer(queue, {
      optionsFingerprint: fingerprint,
      force: Boolean(flags.force),
      attempts,
      keepCompleted: false,
      onQueued: (count) => (progress.counts.listed += count),
      onSkipped: (entry) => {
        if (entry.reason !== 'temporary') logger.debug({ file: entry.relativePath, reason: entry.reason }, 'not queued');
      },
    });
    const listing = producer.enqueueAll(source, source.list(context.signal));
    const summary = await listing.finally(() => {
      progress.counts.listingDone = true;
    });
    const notQueued = Object.entries(summary.skipped).filter(([reason]) => reason !== 'temporary');
    if (notQueued.length > 0) logger.info({ notQueued: Object.fromEntries(notQueued) }, 'files listed but not queued');
    const outcome = await waitUntilDrained(context, queue, control, progress, () => authFailure);
    progress.stop();
    if (outcome === 'auth') {
      const error = authFailure as ParseApiError;
      await worker.close(true);
      context.stderr.write(`${reportError(error, 'run stopped').text}\n  no document was marked failed; fix the key and run again\n`);
      return EXIT.api;
    }
    if (outcome === 'interrupted') {
      progress.setStatus('stopping');
      await worker.close();
      context.stderr.write(`docmill: interrupted after ${progress.done} documents; run the same command again to resume\n`);
      return EXIT.interrupted;
    }
    await worker.close();
    const failedInQueue = await queue.getJobCountByTypes('failed');
    context.stderr.write(`${summaryText(progress, out, failedInQueue)}\n`);
    return failedInQueue > 0 || progress.counts.failed > 0 ? EXIT.someFailed : EXIT.ok;
  } finally {
    progress.stop();
    await worker?.close(true).catch(() => undefined);
    await backend.close();
    await store.close();
    await metricsServer?.close();
    await handle.close();
    s3.close();
  }
}

type DrainOutcome = 'drained' | 'auth' | 'interrupted';

async function waitUntilDrained(
  context: CliContext,
  queue: Queue,
  control: QueueControl,
  progress: Progress,
  authFailure: () => ParseApiError | undefined,
): Promise<DrainOutcome> {
  for (;;) {
    if (authFailure()) return 'auth';
    if (context.signal.aborted) return 'interrupted';
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    const open = Object.values(counts).reduce((sum, count) => sum + count, 0);
    if (open === 0) return 'drained';
    const pause = await control.pauseReason();
    progress.setStatus(pause ? `paused (${pause.kind}): run \`docmill resume --out …\` to continue` : '');
    await new Promise((resolveWait) => setTimeout(resolveWait, 250));
  }
}

function displayLocation(out: string): string {
  if (out.startsWith('s3://')) return out;
  const shown = relative(process.cwd(), resolve(out));
  return shown === '' ? '.' : shown.startsWith('..') ? resolve(out) : shown;
}

function summaryText(progress: Progress, out: string, failedInQueue: number): string {
  const { converted, skipped, failed, pages, credits, requests } = progress.counts;
  const lines = [
    `docmill: ${converted} converted, ${skipped} skipped, ${failed} failed · ${pages} pages · ${requests} parse requests` +
      (credits ? ` · ${credits} credits` : ''),
    `  outputs in ${displayLocation(out)}; manifest: _docmill/manifest.jsonl`,
  ];
  if (failedInQueue > 0 || failed > 0) {
    lines.push('  failures are listed in _docmill/failures.jsonl and by `docmill failed --out …`; `docmill failed --retry` tries them again');
  }
  return lines.join('\n');
}
