/**
 * A parse worker: a BullMQ Worker on the queue whose processor is the DocumentProcessor, with an adaptive API gate
 * shared by every worker of the queue (in Redis; the local engine's is the process's own) and graceful shutdown (finish what is active, hand back the rest).
 * Started through the composition root, which closes it first.
 */
import { MetricsTime, Worker, type Queue } from '../queue/commonjs-packages.js';
import type { RedisClient } from '../queue/redis-connection.js';
import type { Logger } from 'pino';
import type { ParseApiError } from '../backend/errors.js';
import type { RunBlockedError } from '../errors/run-blocked.js';
import type { ParseBackend } from '../backend/parse-backend.js';
import type { DocmillMetrics } from '../metrics/metrics.js';
import { LocalParseEngine } from '../engine/local-engine.js';
import { ApiGate, type ParseGate } from '../pipeline/api-gate.js';
import { DocumentProcessor } from '../pipeline/document-processor.js';
import { SharedApiGate } from '../pipeline/shared-gate.js';
import type { DocumentOutcome } from '../pipeline/outcome.js';
import type { QueueControl } from '../queue/queue-control.js';
import { QUEUE_PREFIX } from '../queue/queue-names.js';
import { finishedJobRetention } from '../queue/producer.js';
import { HONOUR_QUEUE_RATE_LIMIT } from '../queue/queue-rate-limit.js';
import { documentsLeft } from '../queue/document-counts.js';
import { reclaimJobsLostBy } from '../queue/reclaim.js';
import { isConnectionError } from '../queue/redis-outage.js';
import type { Source } from '../sources/source.js';
import type { OutputStore } from '../store/output-store.js';

export interface ParseWorkerOptions {
  connection: RedisClient;
  queue: Queue;
  control: QueueControl;
  store: OutputStore;
  backend: ParseBackend;
  sourceFor: (location: string) => Source | Promise<Source>;
  logger: Logger;
  metrics?: DocmillMetrics;
  /** Jobs open at once, and the ceiling of parse requests in flight. */
  concurrency: number;
  /** How long a job's lock lives without renewal; a dead worker's jobs are picked up after this. */
  lockDurationMs: number;
  /** Keep completed jobs for a while (see finishedJobRetention); `run` does not. */
  keepCompleted: boolean;
  /** The most pages per range of a long PDF. @default the options' timeout / 500 ms */
  splitPages?: number | undefined;
  onOutcome?: (outcome: DocumentOutcome) => void;
  onSendingStopped?: (error: ParseApiError | RunBlockedError) => void;
  onPaused?: (error: ParseApiError) => void;
  onRequest?: () => void;
  /** True while Redis is known to be unreachable: its errors are reported once elsewhere, and closing is bounded. */
  redisDown?: () => boolean;
  /** Registers a call for each time Redis is back after an outage (jobs fetched during it may need reclaiming). */
  onRedisRecovered?: (listener: () => void) => void;
}

export interface ParseWorker {
  worker: Worker;
  gate: ParseGate;
  /** Stops fetching, lets active jobs finish; `force` hands them back at once. */
  close(force?: boolean): Promise<void>;
}

export function startParseWorker(options: ParseWorkerOptions): ParseWorker {
  const gate = gateFor(options);
  const processor = new DocumentProcessor({
    queue: options.queue,
    control: options.control,
    store: options.store,
    backend: options.backend,
    gate,
    sourceFor: options.sourceFor,
    logger: options.logger,
    metrics: options.metrics,
    splitPages: options.splitPages,
    documentsAtOnce: jobsAtOnce(options.concurrency),
    ...(options.onOutcome ? { onOutcome: options.onOutcome } : {}),
    ...(options.onSendingStopped ? { onSendingStopped: options.onSendingStopped } : {}),
    ...(options.onPaused ? { onPaused: options.onPaused } : {}),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  });
  // Open jobs may exceed the API's in-flight limit: a job reads, hashes and writes while others hold API slots.
  // The token of each job this worker is processing: a job locked by this worker but absent here was lost in flight.
  const held = new Map<string, string>();
  const tracked: typeof processor.process = (job, token, signal) => {
    if (job.id && token) held.set(job.id, token);
    return processor.process(job, token, signal);
  };
  const worker = new Worker(options.queue.name, tracked, {
    connection: options.connection,
    prefix: QUEUE_PREFIX,
    concurrency: jobsAtOnce(options.concurrency),
    lockDuration: options.lockDurationMs,
    // The retention of every job this worker finishes whose own options name none (jobs queued since 2026-11-23).
    ...finishedJobRetention(options.keepCompleted),
    stalledInterval: Math.min(30_000, options.lockDurationMs),
    maxStalledCount: 5,
    // Per-minute counts of finished jobs for the dashboard's charts: two commands inside every job's finishing script,
    // kept by long-lived workers only (a run, which keeps no finished job, has no use for them).
    ...(options.keepCompleted ? { metrics: { maxDataPoints: MetricsTime.ONE_WEEK } } : {}),
    // A per-minute 429 pauses every worker of the queue (Queue.rateLimit): see queue-rate-limit.ts.
    limiter: HONOUR_QUEUE_RATE_LIMIT,
    autorun: true,
  });
  worker.on('completed', (job) => job.id && held.delete(job.id));
  worker.on('failed', (job) => job?.id && held.delete(job.id));
  let recoveredAt = Number.NEGATIVE_INFINITY;
  options.onRedisRecovered?.(() => {
    recoveredAt = Date.now();
    reclaimJobsLostBy(options.queue, options.connection, worker.id, (jobId, token) => held.get(jobId) === token).then(
      (reclaimed) => reclaimed > 0 && options.logger.info({ reclaimed }, 'documents fetched while Redis went away are queued again'),
      (error: unknown) => options.logger.debug({ err: error }, 'could not check for documents lost while Redis was away'),
    );
  });
  worker.on('error', (error) => {
    // Lost connections are an outage, reported once by the outage watch (src/queue/redis-outage.ts).
    if (options.redisDown?.() || isConnectionError(error)) options.logger.debug({ err: error }, 'worker error while Redis is unreachable');
    // Locks that ran out while Redis was away are refused for a while after it returns; the reclaim above puts those
    // documents back in the queue, so these are the outage's aftermath, not a new fault.
    else if (isLockLoss(error) && Date.now() - recoveredAt < afterOutageMs(options.lockDurationMs)) {
      options.logger.debug({ err: error }, 'worker error on a lock lost while Redis was away');
    } else options.logger.error({ err: error }, 'worker error');
  });
  // The gate does not probe for headroom when the queue is nearly drained (see ApiGate.setBacklog).
  const backlogTimer = setInterval(() => {
    if (options.redisDown?.()) return;
    documentsLeft(options.queue)
      .then((documents) => gate.setBacklog(documents))
      .catch(() => gate.setBacklog(undefined));
  }, 1000);
  backlogTimer.unref();
  let closing: Promise<void> | undefined;
  return {
    worker,
    gate,
    close: async (force = false) => {
      clearInterval(backlogTimer);
      closing ??= closeWithin(worker, force, options.redisDown ?? (() => false)).then(async () => {
        if (gate instanceof SharedApiGate) await gate.close();
        // The running totals of the last documents (gathered for a batch, QueueControl.addStats); not while Redis is away.
        if (!options.redisDown?.()) await options.control.flushStats().catch(() => undefined);
      });
      await closing;
    },
  };
}

/**
 * A remote API: one limit for every worker process on the queue, kept in Redis, so what one learns of the API's limit
 * all use. The local engine: the same policy in this process only, since each process parses on its own threads and
 * there is no fleet-wide limit to learn; sharing it would cost two Redis scripts per document for nothing.
 */
function gateFor(options: ParseWorkerOptions): ParseGate {
  if (options.backend instanceof LocalParseEngine) return new ApiGate({ max: options.concurrency });
  return new SharedApiGate({ connection: options.connection, queue: options.queue.name, max: options.concurrency });
}

/**
 * Jobs open at once: more than the parse requests in flight, since a job reads, hashes and writes while others hold
 * API slots. The documents of group jobs share the same number (DocumentProcessor).
 */
function jobsAtOnce(concurrency: number): number {
  return concurrency + Math.max(2, Math.ceil(concurrency / 4));
}

/** How long closing may wait on an unreachable Redis before the worker's connections are dropped. */
const CLOSE_WHILE_REDIS_DOWN_MS = 3000;

/**
 * Closes the worker; while Redis is unreachable its commands never settle, so after a few seconds of outage the
 * worker is disconnected instead (its jobs stay active in Redis and are reclaimed by the next run, or by another
 * worker once their locks expire).
 */
async function closeWithin(worker: Worker, force: boolean, redisDown: () => boolean): Promise<void> {
  const closing = worker.close(force).then(() => true, () => true);
  let downFor = 0;
  for (;;) {
    const closed = await Promise.race([closing, new Promise<false>((resolveTick) => setTimeout(() => resolveTick(false), 250))]);
    if (closed) return;
    downFor = redisDown() ? downFor + 250 : 0;
    if (downFor >= CLOSE_WHILE_REDIS_DOWN_MS) {
      await Promise.race([worker.disconnect().catch(() => undefined), new Promise((resolveWait) => setTimeout(resolveWait, 1000))]);
      return;
    }
  }
}

/** BullMQ's refusals of a job whose lock expired or whose state moved on without this worker. */
function isLockLoss(error: Error): boolean {
  return /Missing lock for job|Lock mismatch for job|could not renew lock|Missing key for job|is not in the active state/i.test(error.message);
}

/** How long after Redis returns a lost lock is still the outage's doing: two lock periods, at least a minute. */
function afterOutageMs(lockDurationMs: number): number {
  return Math.max(60_000, 2 * lockDurationMs);
}
