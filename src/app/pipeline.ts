/**
 * The composition root: the one place that builds the parse backend, the store, the sources, the queue, the metrics
 * and their teardown, for every command and every library call. Each builder takes explicit settings (the CLI's
 * flags and environment are turned into them before); opening is all-or-nothing (see resources.ts).
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ParseBackend } from '../backend/parse-backend.js';
import { OptionsValidationError } from '../backend/errors.js';
import { RemoteParseApi } from '../client/remote-parse-api.js';
import { resolveApiConfig } from '../config/api-config.js';
import type { DocmillEnvironment } from '../config/environment.js';
import { integerSetting } from '../config/numbers.js';
import type { ProcessingSettings } from '../common/processing-settings.js';
import type { ParseOptions, ParseOptionsInput } from '../contract/options.js';
import { validateParseOptions } from '../contract/validation.js';
import { LocalParseEngine } from '../engine/local-engine.js';
import { secrets } from '../logging/redact.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../queue/embedded-redis.js';
import { QueueControl } from '../queue/queue-control.js';
import { assertQueueName, DEFAULT_QUEUE, QUEUE_PREFIX, queueNameForOutput } from '../queue/queue-names.js';
import { connectChecked, describeTarget, type RedisTarget } from '../queue/redis-connection.js';
import { RedisOutage, settlesWithin } from '../queue/redis-outage.js';
import { reclaimUnlockedJobs } from '../queue/reclaim.js';
import { createS3Client } from '../sources/s3-client.js';
import { createSource } from '../sources/create-source.js';
import type { Source, SourceSelection } from '../sources/source.js';
import { createStore } from '../store/create-store.js';
import type { OutputStore } from '../store/output-store.js';
import { optionsFingerprint } from '../store/options-fingerprint.js';
import { MissingRedisError } from './errors.js';
import type { ApiOptions, QueueOptions, S3Options } from './options.js';

export interface QueueHandle {
  redis: Redis;
  queue: Queue;
  control: QueueControl;
  /** Where the queue lives, for logs (a URL without credentials, or the embedded server's socket). */
  target: string;
  /** True on docmill's private embedded Redis, where no process docmill did not start can be connected. */
  embedded: boolean;
  /** Whether Redis is unreachable right now; `outage.lost` aborts when a run's wait for it is over. */
  outage: RedisOutage;
  close(): Promise<void>;
}

/** run: the queue named after `out`; named: `queue` or the default; lookup: the run's queue when it exists. */
export type QueueNaming = 'run' | 'named' | 'lookup';

export interface QueueSettings extends QueueOptions {
  out?: string | undefined;
  /** How long an outage of Redis may last before `outage.lost` aborts. @default wait on (workers) */
  giveUpOnRedisAfterMs?: number | undefined;
}

/** Connects to Redis (a URL, or the embedded server kept under `out`) and opens the queue. */
export async function openQueue(
  settings: QueueSettings,
  naming: QueueNaming,
  logger: Logger,
  environment?: DocmillEnvironment,
): Promise<QueueHandle> {
  const url = settings.redisUrl ?? environment?.redisUrl;
  let embedded: EmbeddedRedis | undefined;
  let target: RedisTarget;
  if (url) {
    target = { url };
  } else if (settings.out) {
    embedded = await startEmbeddedRedis(settings.out, logger, environment?.cacheDir);
    target = { socket: embedded.socket };
  } else {
    throw new MissingRedisError();
  }
  let redis: Redis;
  try {
    redis = await connectChecked(target, logger);
  } catch (error) {
    if (embedded?.owned) await embedded.stop();
    throw error;
  }
  try {
    const name = assertQueueName(await chooseQueueName(settings, naming, redis));
    const queue = new Queue(name, { connection: redis, prefix: QUEUE_PREFIX });
    queue.on('error', (error) => logger.debug({ err: error }, 'queue error'));
    const outage = new RedisOutage(redis, { target: describeTarget(target), logger, giveUpAfterMs: settings.giveUpOnRedisAfterMs });
    embedded?.onRestart(() => {
      reclaimUnlockedJobs(queue, redis).then(
        (reclaimed) => reclaimed > 0 && logger.info({ reclaimed }, 'documents left in progress without a lock are queued again'),
        (error: unknown) => logger.debug({ err: error }, 'could not check for unlocked documents after the restart'),
      );
    });
    return {
      redis,
      queue,
      control: new QueueControl(redis, queue),
      target: describeTarget(target),
      embedded: embedded !== undefined,
      outage,
      close: async () => {
        outage.close();
        // A dead Redis never answers: the connection is dropped at once, or after a few seconds if it hangs.
        await settlesWithin(queue.close(), outage.down ? 0 : 3000);
        redis.disconnect();
        if (embedded?.owned) await embedded.stop();
      },
    };
  } catch (error) {
    redis.disconnect();
    if (embedded?.owned) await embedded.stop();
    throw error;
  }
}

async function chooseQueueName(settings: QueueSettings, naming: QueueNaming, redis: Redis): Promise<string> {
  if (settings.queue) return settings.queue;
  if (naming === 'named' || !settings.out) return DEFAULT_QUEUE;
  const derived = queueNameForOutput(settings.out);
  if (naming === 'run') return derived;
  // status/failed/resume with --out: the run's queue for that output, unless only the default queue exists.
  if (await redis.exists(`${QUEUE_PREFIX}:${derived}:meta`)) return derived;
  if (await redis.exists(`${QUEUE_PREFIX}:${DEFAULT_QUEUE}:meta`)) return DEFAULT_QUEUE;
  return derived;
}

/** The parse backend the options (then the environment) name: a remote API, or the embedded local engine. */
export function buildBackend(api: ApiOptions, logger: Logger, environment?: DocmillEnvironment, maxAttempts?: number): ParseBackend {
  const config = resolveApiConfig(api, environment);
  secrets.add(config.apiKey);
  if (!config.apiUrl) {
    logger.debug('no API URL: parsing with the embedded local engine');
    const threads = api.engineThreads === undefined ? undefined : integerSetting(api.engineThreads, 'engineThreads');
    return new LocalParseEngine({
      ...(threads !== undefined ? { size: threads } : {}),
      ...(api.jsonExtractor ? { jsonExtractor: api.jsonExtractor } : {}),
    });
  }
  return new RemoteParseApi({
    apiUrl: config.apiUrl,
    apiKey: config.apiKey,
    logger,
    ...(maxAttempts !== undefined ? { retry: { maxAttempts } } : {}),
  });
}

export interface ValidatedOptions {
  options: ParseOptions;
  settings: ProcessingSettings;
  /** Keys the outputs: the same options and settings give the same fingerprint. */
  fingerprint: string;
}

/** Options validated against the contract before anything is queued or sent, with docmill's processing settings. */
export function validatedOptions(input: ParseOptionsInput | undefined, settings: ProcessingSettings = {}): ValidatedOptions {
  const validation = validateParseOptions(input ?? {});
  if (!validation.ok) throw new OptionsValidationError(validation.body.details);
  return { options: validation.options, settings, fingerprint: optionsFingerprint(validation.options, settings) };
}

/** One S3 client for every S3 source and store of a process, created on first use. */
export class S3ClientCache {
  #client: S3Client | undefined;

  constructor(private readonly settings: S3Options = {}) {}

  get(): S3Client {
    this.#client ??= createS3Client({
      endpoint: this.settings.endpoint,
      region: this.settings.region,
      forcePathStyle: this.settings.forcePathStyle,
    });
    return this.#client;
  }

  close(): void {
    this.#client?.destroy();
  }
}

export function buildStore(out: string, s3: S3ClientCache): OutputStore {
  return createStore(out.startsWith('s3://') ? out : resolve(out), out.startsWith('s3://') ? { s3Client: s3.get() } : {});
}

export interface SourceFactoryOptions {
  selection?: SourceSelection;
  /** Subtrees a local source must not list (the output folder inside the source). */
  ignorePaths?: string[];
  /** Where an S3 watch keeps its checkpoint. */
  checkpointDir?: string;
  pollIntervalMs?: number;
}

/**
 * Where an S3 watch keeps its listing checkpoint unless told: the user's cache folder, one per (source, queue),
 * so a restarted watcher reports only what changed while it was down.
 */
export function defaultCheckpointDir(location: string, queue: string, cacheDir: string): string {
  const name = createHash('sha256').update(`${canonicalLocation(location)}\n${queue}`).digest('hex').slice(0, 16);
  return join(cacheDir, 'docmill', 'checkpoints', name);
}

/** Normalises a location so job data means the same on every machine: local paths become absolute. */
export function canonicalLocation(location: string): string {
  return location.startsWith('s3://') ? location : resolve(location);
}

/** Sources by location, built once each: the worker opens files through the source named in each job. */
export function sourceFactory(s3: S3ClientCache, options: SourceFactoryOptions = {}): (location: string) => Source {
  const cache = new Map<string, Source>();
  return (location) => {
    const canonical = canonicalLocation(location);
    let source = cache.get(canonical);
    if (!source) {
      source = createSource(canonical, {
        ...options,
        ...(canonical.startsWith('s3://') ? { s3Client: s3.get() } : {}),
      });
      cache.set(canonical, source);
    }
    return source;
  };
}

/** Closes every source a factory built (their watchers and clients). */
export function sourceCloser(): { track: (factory: (location: string) => Source) => (location: string) => Source; close: () => Promise<void> } {
  const built: Source[] = [];
  return {
    track: (factory) => (location) => {
      const source = factory(location);
      if (!built.includes(source)) built.push(source);
      return source;
    },
    close: async () => {
      for (const source of built) await source.close();
    },
  };
}
