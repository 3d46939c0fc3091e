/**
 * Builds what the pipeline commands share: Redis (a URL or the embedded server), the queue and its control
 * state, the parse backend, the store and the sources, each from flags and environment.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { S3Client } from '@aws-sdk/client-s3';
import { RemoteParseApi } from '../client/remote-parse-api.js';
import { LocalParseEngine } from '../engine/local-engine.js';
import type { ParseBackend } from '../backend/parse-backend.js';
import { OptionsValidationError } from '../backend/errors.js';
import { resolveApiConfig } from '../config/api-config.js';
import type { ParseOptions } from '../contract/options.js';
import { validateParseOptions } from '../contract/validation.js';
import { secrets } from '../logging/redact.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../queue/embedded-redis.js';
import { QueueControl } from '../queue/queue-control.js';
import { assertQueueName, DEFAULT_QUEUE, QUEUE_PREFIX, queueNameForOutput } from '../queue/queue-names.js';
import { connectChecked, describeTarget, type RedisTarget } from '../queue/redis-connection.js';
import { createS3Client } from '../sources/s3-client.js';
import { createSource } from '../sources/create-source.js';
import type { Source, SourceSelection } from '../sources/source.js';
import { createStore } from '../store/create-store.js';
import type { OutputStore } from '../store/output-store.js';
import { optionsFingerprint } from '../store/options-fingerprint.js';
import type { ApiFlagValues, ConnectionFlags, S3Flags } from './pipeline-flags.js';
import { optionsFromFlags, type ParseFlags } from './parse-flags.js';
import { UsageError } from './usage-error.js';

export interface QueueHandle {
  redis: Redis;
  queue: Queue;
  control: QueueControl;
  target: string;
  /** True on docmill's private embedded Redis, where no process docmill did not start can be connected. */
  embedded: boolean;
  close(): Promise<void>;
}

export type QueueNaming = 'run' | 'named' | 'lookup';

/** Connects to Redis and opens the queue the flags name. */
export async function openQueue(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv,
  logger: Logger,
  naming: QueueNaming,
): Promise<QueueHandle> {
  const url = flags.redis ?? env.REDIS_URL;
  let embedded: EmbeddedRedis | undefined;
  let target: RedisTarget;
  if (url) {
    target = { url };
  } else if (flags.out) {
    embedded = await startEmbeddedRedis(flags.out, logger);
    target = { socket: embedded.socket };
  } else {
    throw new UsageError(
      'no Redis: set REDIS_URL or pass --redis redis://host:6379 (the embedded Redis needs --out, to keep its state there)',
    );
  }
  let redis: Redis;
  try {
    redis = await connectChecked(target, logger);
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  const name = assertQueueName(await chooseQueueName(flags, naming, redis));
  const queue = new Queue(name, { connection: redis, prefix: QUEUE_PREFIX });
  queue.on('error', (error) => logger.debug({ err: error }, 'queue error'));
  const control = new QueueControl(redis, queue);
  return {
    redis,
    queue,
    control,
    target: describeTarget(target),
    embedded: embedded !== undefined,
    close: async () => {
      await queue.close();
      redis.disconnect();
      if (embedded?.owned) await embedded.stop();
    },
  };
}

async function chooseQueueName(flags: ConnectionFlags, naming: QueueNaming, redis: Redis): Promise<string> {
  if (flags.queue) return flags.queue;
  if (naming === 'named' || !flags.out) return DEFAULT_QUEUE;
  const derived = queueNameForOutput(flags.out);
  if (naming === 'run') return derived;
  // status/failed/resume with --out: the run's queue for that output, unless only the default queue exists.
  if (await redis.exists(`${QUEUE_PREFIX}:${derived}:meta`)) return derived;
  if (await redis.exists(`${QUEUE_PREFIX}:${DEFAULT_QUEUE}:meta`)) return DEFAULT_QUEUE;
  return derived;
}

/** The parse backend the flags and environment name. */
export function buildBackend(flags: ApiFlagValues, env: NodeJS.ProcessEnv, logger: Logger): ParseBackend {
  const api = resolveApiConfig(flags, env);
  secrets.add(api.apiKey);
  if (!api.apiUrl) {
    logger.debug('no --api-url: parsing with the embedded local engine');
    return new LocalParseEngine();
  }
  return new RemoteParseApi({ apiUrl: api.apiUrl, apiKey: api.apiKey, logger });
}

/** Options from --options and the shortcut flags, validated before anything is enqueued. */
export async function validatedOptions(flags: ParseFlags): Promise<{ options: ParseOptions; fingerprint: string }> {
  const validation = validateParseOptions(await optionsFromFlags(flags));
  if (!validation.ok) throw new OptionsValidationError(validation.body.details);
  return { options: validation.options, fingerprint: optionsFingerprint(validation.options) };
}

export class S3ClientCache {
  #client: S3Client | undefined;

  constructor(private readonly flags: S3Flags) {}

  get(): S3Client {
    this.#client ??= createS3Client({
      endpoint: this.flags.s3Endpoint,
      region: this.flags.s3Region,
      forcePathStyle: this.flags.s3PathStyle,
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
 * Where an S3 watch keeps its listing checkpoint unless --checkpoint says: the user's cache folder, one per
 * (source, queue), so a restarted watcher reports only what changed while it was down.
 */
export function defaultCheckpointDir(location: string, queue: string, env: NodeJS.ProcessEnv): string {
  const cache = env.XDG_CACHE_HOME ?? join(env.HOME ?? homedir(), '.cache');
  const name = createHash('sha256').update(`${canonicalLocation(location)}\n${queue}`).digest('hex').slice(0, 16);
  return join(cache, 'docmill', 'checkpoints', name);
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
