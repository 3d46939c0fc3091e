/**
 * Prometheus metrics: documents by outcome, pages, credits, parse requests by status, throttling, and the
 * adaptive API concurrency. One registry per process; `docmill worker --metrics-port` serves it.
 *
 * Labels are bounded: a status, a kind, an error code, a queue state, a pause reason; never a path or a job id.
 * What lives in Redis (queue depth, why the queue is paused) and the engine pool's load are read when Prometheus
 * scrapes, not polled.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Every state of a BullMQ queue, as `docmill_queue_jobs{state}` reports it. BullMQ 6 has no `paused` list: a paused
 * queue's jobs stay `waiting`, and `docmill_queue_paused` says the queue is paused.
 */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed', 'completed'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

/**
 * Why the queue may be paused: credits exhausted (402), key refused (401/403), the API's per-minute rate (a 429
 * paces every worker), the credit budget (`--max-credits`) reached, or by hand.
 */
export const PAUSE_REASONS = ['credits', 'auth', 'rate', 'budget', 'manual'] as const;

/** What the queue gauges read at scrape time (a BullMQ Queue and docmill's QueueControl fit). */
export interface QueueProbe {
  getJobCounts(...states: QueueState[]): Promise<Record<string, number>>;
  /** Milliseconds left of a rate limit set with BullMQ's Queue.rateLimit; 0 or less when none. */
  getRateLimitTtl(): Promise<number>;
  pauseReason(): Promise<{ kind: string } | undefined>;
  /** True while Redis is known to be unreachable: the scrape skips the queue instead of waiting for it. */
  redisDown?: () => boolean;
}

/** The engine thread pool's load (OCR runs inside these threads too). */
export interface PoolProbe {
  readonly size: number;
  readonly busy: number;
  readonly queued: number;
}

/** How long a scrape may wait for Redis before it leaves the queue gauges out. */
const QUEUE_READ_MS = 1000;

/** A gauge with no sample until it is first set: a value not known (yet) is absent, not 0, so no alert reads it as 0. */
class GaugeUntilKnown extends Gauge {
  #known = false;

  record(value: number): void {
    this.#known = true;
    this.set(value);
  }

  override async get(): ReturnType<Gauge['get']> {
    const metric = await super.get();
    return this.#known ? metric : { ...metric, values: [] };
  }
}

export class DocmillMetrics {
  readonly registry = new Registry();
  readonly documents = new Counter({
    name: 'docmill_documents_total',
    help: 'Documents finished, by status (converted, skipped, failed)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly documentsWithWarning = new Counter({
    name: 'docmill_documents_with_warning_total',
    help: 'Documents converted whose parse warned (a file cut short, a part lost, pages OCR could not read): outputs that may not hold all of the document',
    registers: [this.registry],
  });
  readonly pages = new Counter({ name: 'docmill_pages_total', help: 'Pages parsed', registers: [this.registry] });
  readonly credits = new Counter({
    name: 'docmill_credits_used_total',
    help: 'Credits the parse API reported as used (metadata.creditsUsed)',
    registers: [this.registry],
  });
  readonly requests = new Counter({
    name: 'docmill_parse_requests_total',
    help: 'Parse requests by HTTP status (0 when no response arrived)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly throttled = new Counter({
    name: 'docmill_throttled_total',
    help: '429 responses by kind (concurrency, rate)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly queuedByApi = new Counter({
    name: 'docmill_api_queued_total',
    help: 'Requests the API reported as held in its concurrency queue (metadata.concurrencyLimited)',
    registers: [this.registry],
  });
  readonly apiConcurrency = new Gauge({
    name: 'docmill_api_concurrency_limit',
    help: 'Current adaptive limit on parse requests in flight from this process',
    registers: [this.registry],
  });
  readonly failures = new Counter({
    name: 'docmill_failures_total',
    help: 'Failed documents by error code',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'docmill_document_duration_seconds',
    help: 'Time from job start to outputs written',
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  readonly retryAfterWait = new Counter({
    name: 'docmill_retry_after_wait_seconds_total',
    help: 'Seconds documents were deferred after a 429 (its Retry-After, else the backoff), summed over documents',
    registers: [this.registry],
  });
  readonly rateLimitPauses = new Counter({
    name: 'docmill_queue_rate_limit_pauses_total',
    help: 'Times this process paused the whole queue for a per-minute 429 (or repeated 429s at a limit of 1)',
    registers: [this.registry],
  });
  readonly budgetReleaseFailures = new Counter({
    name: 'docmill_budget_release_failures_total',
    help: 'Tries to release a credit-budget reservation that failed (each is retried until it succeeds or the reservation expires)',
    registers: [this.registry],
  });
  readonly bytesRead = new Counter({
    name: 'docmill_source_bytes_read_total',
    help: 'Bytes of source documents read for parsing (once per attempt that read the file)',
    registers: [this.registry],
  });
  readonly bytesWritten = new Counter({
    name: 'docmill_output_bytes_written_total',
    help: 'Bytes of outputs written for parsed documents (markdown, JSON and picture files)',
    registers: [this.registry],
  });
  readonly imagesWritten = new Counter({
    name: 'docmill_images_written_total',
    help: 'Picture files written beside the Markdown (--images), each distinct picture of a document once',
    registers: [this.registry],
  });
  readonly imageBytesWritten = new Counter({
    name: 'docmill_image_bytes_written_total',
    help: 'Bytes of the picture files written (--images)',
    registers: [this.registry],
  });
  readonly creditsRemaining = new GaugeUntilKnown({
    name: 'docmill_credits_remaining',
    help: "Credits left on the team's plan, from the hosted API's credit-usage endpoint (absent when unknown)",
    registers: [this.registry],
  });
  readonly removedDocuments = new Counter({
    name: 'docmill_removed_documents_total',
    help: 'Source files found removed (an S3 removed event, a watched file unlinked, a file gone since the last run), by what became of their outputs (deleted, kept)',
    labelNames: ['outputs'] as const,
    registers: [this.registry],
  });
  readonly eventsReceived = new Counter({
    name: 'docmill_events_received_total',
    help: 'S3 object events read from the event queue, by envelope (s3, sns, eventbridge, minio)',
    labelNames: ['envelope'] as const,
    registers: [this.registry],
  });
  readonly eventsEnqueued = new Counter({
    name: 'docmill_events_enqueued_total',
    help: 'S3 object events that queued a document or a removal, by envelope and kind (created, removed)',
    labelNames: ['envelope', 'kind'] as const,
    registers: [this.registry],
  });
  readonly eventsIgnored = new Counter({
    name: 'docmill_events_ignored_total',
    help: 'S3 object events acknowledged without queueing anything, by envelope and reason (test-event, other-bucket, outside-prefix, excluded, stale...)',
    labelNames: ['envelope', 'reason'] as const,
    registers: [this.registry],
  });
  readonly eventsUnreadable = new Counter({
    name: 'docmill_event_messages_unreadable_total',
    help: 'Event queue messages that are not JSON or of no known shape (each once per process), left to the queue\'s redrive policy',
    registers: [this.registry],
  });
  readonly eventsUnreadableRedelivered = new Counter({
    name: 'docmill_event_messages_unreadable_redelivered_total',
    help: 'Deliveries of an unreadable event queue message after its first (the queue handing it back: without a redrive policy, for ever)',
    registers: [this.registry],
  });
  readonly eventLag = new Histogram({
    name: 'docmill_event_lag_seconds',
    help: 'Time from an S3 event (its eventTime) to its document or removal being queued',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800],
    registers: [this.registry],
  });
  readonly queueJobs = new Gauge({
    name: 'docmill_queue_jobs',
    help: 'Jobs in the queue by state, read from Redis at scrape time (absent while Redis is unreachable)',
    labelNames: ['state'] as const,
    registers: [this.registry],
    collect: () => this.#collectQueueJobs(),
  });
  readonly queuePaused = new Gauge({
    name: 'docmill_queue_paused',
    help: 'Whether the queue is paused (1) and why: credits, auth, rate (a 429 paces the queue), budget, manual',
    labelNames: ['reason'] as const,
    registers: [this.registry],
    collect: () => this.#collectQueuePaused(),
  });
  readonly engineThreads: GaugeUntilKnown = new GaugeUntilKnown({
    name: 'docmill_engine_threads',
    help: 'Threads the local parse engine may run (absent without a local engine)',
    registers: [this.registry],
    collect: (): void => {
      if (this.#pool) this.engineThreads.record(this.#pool.size);
    },
  });
  readonly engineThreadsBusy: GaugeUntilKnown = new GaugeUntilKnown({
    name: 'docmill_engine_threads_busy',
    help: 'Local engine threads parsing a document now (OCR runs inside them)',
    registers: [this.registry],
    collect: (): void => {
      if (this.#pool) this.engineThreadsBusy.record(this.#pool.busy);
    },
  });
  readonly engineTasksQueued: GaugeUntilKnown = new GaugeUntilKnown({
    name: 'docmill_engine_tasks_queued',
    help: 'Documents waiting for a local engine thread',
    registers: [this.registry],
    collect: (): void => {
      if (this.#pool) this.engineTasksQueued.record(this.#pool.queued);
    },
  });
  #queue: QueueProbe | undefined;
  #pool: PoolProbe | undefined;
  #scrapeRead: QueueRead | undefined;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'docmill_' });
  }

  /** Reports the depth and the pause state of this queue at every scrape. */
  observeQueue(probe: QueueProbe): void {
    this.#queue = probe;
  }

  /** Reports the local engine pool's load at every scrape. */
  observePool(pool: PoolProbe): void {
    this.#pool = pool;
  }

  /**
   * One scrape's exposition text. Redis is read before any counter is: a document is counted before BullMQ marks its
   * job finished, so a scrape never shows a job finished in the queue gauges that the counters beside it have not
   * counted yet. (prom-client calls every collect as it starts, so the read is handed to them for that one call.)
   */
  async text(): Promise<string> {
    this.#scrapeRead = await this.#readQueue();
    const text = this.registry.metrics();
    this.#scrapeRead = undefined;
    return text;
  }

  async #collectQueueJobs(): Promise<void> {
    // As this scrape read it, or read now where the registry is scraped directly (a test, an embedding app).
    const counts = this.#scrapeRead ? this.#scrapeRead.counts : await this.#readCounts();
    this.queueJobs.reset();
    if (!counts) return;
    for (const state of QUEUE_STATES) this.queueJobs.set({ state }, counts[state] ?? 0);
  }

  async #collectQueuePaused(): Promise<void> {
    const pause = this.#scrapeRead ? this.#scrapeRead.pause : await this.#readPause();
    this.queuePaused.reset();
    if (!pause) return;
    for (const reason of PAUSE_REASONS) this.queuePaused.set({ reason }, (reason === 'rate' ? pause.rated : pause.reason === reason) ? 1 : 0);
  }

  /** Both parts at once; a part left out when Redis did not answer it in time. */
  async #readQueue(): Promise<QueueRead> {
    const [counts, pause] = await Promise.all([this.#readCounts(), this.#readPause()]);
    return { counts, pause };
  }

  /** Undefined without a queue, or when Redis did not answer in time. */
  #readCounts(): Promise<QueueRead['counts']> {
    const probe = this.#queue;
    return probe ? readQuickly(probe, () => probe.getJobCounts(...QUEUE_STATES)) : Promise.resolve(undefined);
  }

  #readPause(): Promise<QueueRead['pause']> {
    const probe = this.#queue;
    if (!probe) return Promise.resolve(undefined);
    return readQuickly(probe, async () => {
      const [reason, rateTtl] = await Promise.all([probe.pauseReason(), probe.getRateLimitTtl()]);
      return { reason: reason?.kind, rated: rateTtl > 0 };
    });
  }
}

/** What one scrape read of the queue from Redis. */
interface QueueRead {
  counts: Record<string, number> | undefined;
  pause: { reason: string | undefined; rated: boolean } | undefined;
}

/** Reads from Redis within QUEUE_READ_MS; undefined (never an error) when Redis is down, slow or fails. */
async function readQuickly<T>(probe: QueueProbe, read: () => Promise<T>): Promise<T | undefined> {
  if (probe.redisDown?.()) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), QUEUE_READ_MS);
    timer.unref();
  });
  try {
    return await Promise.race([read().catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
