/**
 * The composition root: the one module that opens what an entry point works with — the parse backend (or the engine
 * behind `docmill serve`), the S3 client, the store, the sources, the queue and its Redis, the parse worker, the
 * metrics and their HTTP server with the queue dashboard, the parse server — and closes all of it in one order
 * (SHUTDOWN_ORDER in resources.ts). Every entry point takes its resources from here: the library's parseFile, run,
 * startWorker, enqueue and preview (src/index.ts), serve.ts and queue-admin.ts, so every command of the CLI, and the
 * compose services, which run those commands. The builders it calls take explicit settings: flags and environment
 * are turned into options before anything is opened.
 *
 * `run` and `startWorker` open the same things in the same order (openConversion); what differs between them — drain
 * the queue and stop, or work until closed — is all that run.ts and worker.ts hold.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { ParseApiError } from '../backend/errors.js';
import type { RunBlockedError } from '../errors/run-blocked.js';
import type { ParseBackend } from '../backend/parse-backend.js';
import type { ProcessingSettings } from '../common/processing-settings.js';
import type { DocmillEnvironment } from '../config/environment.js';
import { integerSetting } from '../config/numbers.js';
import { MAX_TIMEOUT_MS } from '../contract/limits.js';
import type { LocalParseEngine } from '../engine/local-engine.js';
import { createLogger } from '../logging/logger.js';
import type { DocmillMetrics, PoolProbe } from '../metrics/metrics.js';
import type { Readiness } from '../metrics/metrics-server.js';
import { DEFAULT_QUEUE } from '../queue/queue-names.js';
import type { ParseServerOptions, RunningServer } from '../server/parse-server.js';
import type { S3EventSettings } from '../sources/s3-source.js';
import type { Source } from '../sources/source.js';
import { FsStore } from '../store/fs-store.js';
import type { OutputStore } from '../store/output-store.js';
import { buildBackend, buildLocalEngine, type EngineSettings } from './backends.js';
import { eventObserver } from './event-observer.js';
import type { PipelineEvents } from './events.js';
import type { MetricSources } from './metrics-wiring.js';
import { DEFAULTS, type ApiOptions, type CommonOptions, type S3Options, type SourceOptions, type WorkerOptions } from './options.js';
import type { ParseWorker } from './parse-worker.js';
import { checkOcrLanguagesFor } from './processing-settings.js';
import type { QueueHandle, QueueNaming, QueueSettings } from './queue-handle.js';
import type { RedisDashboard, RedisDashboardOptions } from './queue-dashboard.js';
import { Resources } from './resources.js';
import { buildStore, checkOutputIsNotSource, defaultCheckpointDir, S3ClientCache, sourceCloser, sourceFactory } from './storage.js';
import type { SummaryCounter } from './summary.js';

/**
 * The source of each location, built once: the worker opens files through the source named in each job. A promise:
 * an S3 source loads the AWS SDK when it is first built.
 */
export type SourceFor = (location: string) => Promise<Source>;

export interface SourcesSettings extends Pick<SourceOptions, 'include' | 'exclude' | 'pollIntervalMs'> {
  /** An S3 watch reads the bucket's notifications from this queue (the observer is the root's when not given). */
  events?: S3EventSettings | undefined;
  /** The output: a local output folder inside the source is not listed. */
  out?: string | undefined;
  /** An S3 watch of `location` feeding `queue`: its listing checkpoint lives in `dir`, else in one folder per pair. */
  checkpoint?: { location: string; queue: string | undefined; dir: string | undefined } | undefined;
}

export class CompositionRoot {
  readonly logger: Logger;
  readonly environment: DocmillEnvironment | undefined;
  readonly #resources: Resources;
  #s3: S3ClientCache | undefined;

  constructor(options: CommonOptions = {}) {
    this.logger = options.logger ?? createLogger({ level: 'silent' });
    this.environment = options.environment;
    this.#resources = new Resources(this.logger);
  }

  /** Runs `work` on a new root; everything it opened is closed once `work` settles, whether it succeeded or not. */
  static async use<T>(options: CommonOptions, work: (root: CompositionRoot) => Promise<T>): Promise<T> {
    const root = new CompositionRoot(options);
    try {
      return await work(root);
    } finally {
      await root.close();
    }
  }

  /** Closes everything opened through this root, in SHUTDOWN_ORDER. Safe to call twice. */
  close(): Promise<void> {
    return this.#resources.close();
  }

  /** The remote API or the embedded local engine, as the options (then the environment) say. */
  parseBackend(api: ApiOptions, maxAttempts?: number): ParseBackend {
    return this.#resources.add('parse backend', buildBackend(api, this.logger, this.environment, maxAttempts), (backend) => backend.close());
  }

  /** The local engine on its own (behind `docmill serve`). */
  localEngine(settings: EngineSettings): LocalParseEngine {
    const cacheDir = settings.cacheDir ?? this.environment?.cacheDir;
    return this.#resources.add('parse backend', buildLocalEngine({ ...settings, ...(cacheDir !== undefined ? { cacheDir } : {}) }), (engine) => engine.close());
  }

  /** The store of `out`, closed with the rest. */
  async store(out: string, s3?: S3Options): Promise<OutputStore> {
    const store = await buildStore(out, this.#s3Client(s3));
    if (store instanceof FsStore) await store.checkWritable();
    return this.#resources.add('store', store, (opened) => opened.close());
  }

  /** The store of `out` only read (states, the content index): never closed, since closing a store may tidy its folder. */
  storeToRead(out: string, s3?: S3Options): Promise<OutputStore> {
    return buildStore(out, this.#s3Client(s3));
  }

  /** One S3 client for every S3 source and store of the entry point, made on first use (with the first settings given). */
  #s3Client(settings?: S3Options): S3ClientCache {
    this.#s3 ??= this.#resources.add('S3 client', new S3ClientCache(settings), (cache) => cache.close());
    return this.#s3;
  }

  /** The sources by location, each built once and all closed together (their watchers and clients). */
  sources(settings: SourcesSettings, s3?: S3Options, metrics?: DocmillMetrics): SourceFor {
    const { out, checkpoint, events } = settings;
    const cacheDir = this.environment?.cacheDir ?? join(homedir(), '.cache');
    const tracked = this.#resources.add('sources', sourceCloser(), (closer) => closer.close());
    return tracked.track(
      sourceFactory(this.#s3Client(s3), {
        selection: { include: settings.include ?? [], exclude: settings.exclude ?? [] },
        ...(out !== undefined ? { ignorePaths: [out.startsWith('s3://') ? out : resolve(out)] } : {}),
        ...(settings.pollIntervalMs !== undefined ? { pollIntervalMs: settings.pollIntervalMs } : {}),
        ...(events ? { events: { ...events, observer: events.observer ?? eventObserver(this.logger, metrics) } } : {}),
        ...(checkpoint
          ? { checkpointDir: checkpoint.dir ?? defaultCheckpointDir(checkpoint.location, checkpoint.queue ?? DEFAULT_QUEUE, cacheDir) }
          : {}),
      }),
    );
  }

  /** Connects to Redis (a URL, or the embedded server kept under `out`) and opens the queue. */
  async queue(settings: QueueSettings, naming: QueueNaming): Promise<QueueHandle> {
    const { openQueue } = await import('./queue-handle.js');
    return this.#resources.add('queue', await openQueue(settings, naming, this.logger, this.environment), (handle) => handle.close());
  }

  /**
   * Serves /metrics on `port` when one is given, with the queue's dashboard at /queues unless `board.dashboard` is
   * false; resolves to the port listened on.
   */
  async metricsServer(
    metrics: DocmillMetrics,
    port: number | undefined,
    board?: { queue: Queue; dashboard: WorkerOptions['dashboard'] },
    readiness?: Readiness,
  ): Promise<number | undefined> {
    if (port === undefined) return undefined;
    const checked = integerSetting(port, 'metricsPort', { min: 0, max: 65_535 });
    const dashboard = board?.dashboard ?? true;
    // bull-board is loaded only where a dashboard is served.
    const mounts =
      board && dashboard !== false
        ? [(await import('../metrics/queue-dashboard.js')).createQueueDashboard({ queues: [board.queue], write: typeof dashboard === 'object' && Boolean(dashboard.write) })]
        : [];
    const { startMetricsServer } = await import('../metrics/metrics-server.js');
    const server = this.#resources.add('metrics server', await startMetricsServer(metrics, checked, this.logger, mounts, readiness), (s) => s.close());
    return server.port;
  }

  /** `serve`'s metrics: the engine pool's and Node's process metrics, on `port`. */
  async engineMetricsServer(pool: PoolProbe, port: number, readiness: Readiness): Promise<void> {
    const { DocmillMetrics } = await import('../metrics/metrics.js');
    const metrics = new DocmillMetrics({ defaultMetrics: true });
    metrics.observePool(pool);
    await this.metricsServer(metrics, port, undefined, readiness);
  }

  /** What the metrics read beyond their own counters (queue depth, the engine pool, the API's credits). */
  async observe(metrics: DocmillMetrics, sources: MetricSources): Promise<void> {
    const { observeForMetrics } = await import('./metrics-wiring.js');
    await observeForMetrics(this.#resources, metrics, sources, this.logger);
  }

  async parseServer(options: ParseServerOptions & { host: string; port: number }): Promise<RunningServer> {
    // The HTTP server and its upload reader (busboy) are `serve`'s alone: loaded here, not by every command.
    const { startParseServer } = await import('../server/parse-server.js');
    return this.#resources.add('parse server', await startParseServer(options), (server) => server.close());
  }

  /** The dashboard over every docmill queue in a Redis (`docmill serve --dashboard`). */
  async redisDashboard(options: Omit<RedisDashboardOptions, 'environment' | 'logger'>): Promise<RedisDashboard> {
    const { openRedisDashboard } = await import('./queue-dashboard.js');
    const board = await openRedisDashboard({ ...options, environment: this.environment, logger: this.logger });
    return this.#resources.add('queue dashboard', board, (opened) => opened.close());
  }

  /** run's and startWorker's shared opening: backend, store, sources, queue, metrics; the parse worker on demand. */
  async openConversion(options: ConversionOptions, how: ConversionSettings): Promise<Conversion> {
    await checkOutputIsNotSource(options.source, options.out);
    const backend = this.parseBackend(options);
    if (how.processing) checkOcrLanguagesFor(backend, how.processing);
    const store = await this.store(options.out, options.s3);
    // The queue's side (BullMQ, ioredis, prom-client) is loaded by the commands that convert through a queue alone.
    const [{ DocmillMetrics }, { startParseWorker }] = await Promise.all([import('../metrics/metrics.js'), import('./parse-worker.js')]);
    const metrics = new DocmillMetrics(how.defaultMetrics ? { defaultMetrics: true } : {});
    const sourceFor = this.sources({ include: options.include, exclude: options.exclude, out: options.out, ...how.watch }, options.s3, metrics);
    const source = options.source !== undefined ? await sourceFor(options.source) : undefined;
    const handle = await this.queue({ ...options, giveUpOnRedisAfterMs: how.giveUpOnRedisAfterMs }, how.naming);
    const readiness = (): string | undefined =>
      how.stopping?.aborted ? 'stopping: finishing active documents' : handle.outage.down ? 'Redis cannot be reached' : undefined;
    await this.metricsServer(metrics, options.metricsPort, { queue: handle.queue, dashboard: options.dashboard }, readiness);
    await this.observe(metrics, { handle, backend, api: options, environment: this.environment, metricsPort: options.metricsPort });
    const { concurrency, lockDurationMs, splitPages } = how.worker;
    const startWorker = (reports: WorkerReports): ParseWorker => {
      const worker = startParseWorker({
        connection: handle.redis,
        queue: handle.queue,
        control: handle.control,
        store,
        backend,
        sourceFor,
        logger: this.logger,
        metrics,
        concurrency,
        lockDurationMs,
        keepCompleted: how.keepCompleted,
        splitPages,
        onOutcome: (outcome) => {
          reports.counter.record(outcome);
          reports.events.publish({ type: 'document', outcome });
        },
        onRequest: () => reports.counter.request(),
        onSendingStopped: reports.onSendingStopped,
        ...(reports.onPaused ? { onPaused: reports.onPaused } : {}),
        redisDown: () => handle.outage.down,
        onRedisRecovered: (listener) => handle.outage.onRecovered(listener),
      });
      return this.#resources.add('parse worker', worker, (started) => started.close(true));
    };
    return { backend, store, sourceFor, source, handle, metrics, startWorker };
  }
}

export interface ConversionOptions extends WorkerOptions, Pick<SourceOptions, 'include' | 'exclude'> {
  source?: string | undefined;
}

export interface ConversionSettings {
  /** run: the output's own queue; named: `queue`, else the default one. */
  naming: Extract<QueueNaming, 'run' | 'named'>;
  /** How long an outage of Redis may last before `handle.outage.lost` aborts. @default wait on */
  giveUpOnRedisAfterMs?: number | undefined;
  /** Node's process metrics beside docmill's (a long-lived worker's /metrics). */
  defaultMetrics: boolean;
  /** Settings checked against the backend before the first document (a worker without a source takes each job's). */
  processing?: ProcessingSettings | undefined;
  /** A watched source: how often S3 is listed, where its checkpoint lives, and the queue of its bucket's events. */
  watch?: Pick<SourcesSettings, 'pollIntervalMs' | 'checkpoint' | 'events'> | undefined;
  worker: WorkerSettings;
  /** Aborted when the process starts to drain: from then on /readyz answers 503. */
  stopping?: AbortSignal | undefined;
  /** Keep completed jobs for a day (status, rates); `run` does not. */
  keepCompleted: boolean;
}

export interface Conversion {
  backend: ParseBackend;
  store: OutputStore;
  sourceFor: SourceFor;
  /** The source of `options.source`, when one was given. */
  source: Source | undefined;
  handle: QueueHandle;
  metrics: DocmillMetrics;
  /** Starts the parse worker (the first thing closed): its reports go into `counter` and `events`. */
  startWorker(reports: WorkerReports): ParseWorker;
}

export interface WorkerReports {
  counter: SummaryCounter;
  events: PipelineEvents;
  /** Sending stopped: the API refused the key (401/403), or nothing can be converted until repaired (RunBlockedError). */
  onSendingStopped: (error: ParseApiError | RunBlockedError) => void;
  /** The queue was paused for exhausted credits. */
  onPaused?: ((error: ParseApiError) => void) | undefined;
}

export interface WorkerSettings {
  concurrency: number;
  lockDurationMs: number;
  splitPages: number | undefined;
  /** The queue's credit budget, when one is given. */
  maxCredits: number | undefined;
}

/** The parse worker's numbers, checked before anything is opened; `timeoutMs` is the parse options' timeout. */
export function workerSettings(options: WorkerOptions, timeoutMs: number | undefined): WorkerSettings {
  return {
    concurrency: integerSetting(options.concurrency ?? DEFAULTS.concurrency, 'concurrency'),
    lockDurationMs: lockDurationFor(options.lockDurationMs, timeoutMs),
    maxCredits: options.maxCredits === undefined ? undefined : integerSetting(options.maxCredits, 'maxCredits', { min: 0 }),
    splitPages: options.splitPages === undefined ? undefined : integerSetting(options.splitPages, 'splitPages'),
  };
}

/** The job lock must outlive the longest parse (its timeout, plus upload and queueing). */
function lockDurationFor(option: number | undefined, timeoutMs: number = MAX_TIMEOUT_MS): number {
  return option !== undefined ? integerSetting(option, 'lockDurationMs') : timeoutMs + 60_000;
}
