/**
 * A queue and its Redis, opened for an entry point: a Redis URL, or docmill's embedded redis-server kept under the
 * output; the queue named as the entry point needs; the watch on Redis outages. Opened through the composition root.
 */
import { Queue } from '../queue/commonjs-packages.js';
import type { Logger } from 'pino';
import type { DocmillEnvironment } from '../config/environment.js';
import { queueExists } from '../queue/bullmq-keys.js';
import { startEmbeddedRedis, type EmbeddedRedis } from '../queue/embedded-redis.js';
import { QueueControl } from '../queue/queue-control.js';
import { assertQueueName, DEFAULT_QUEUE, QUEUE_PREFIX, queueNameForOutput } from '../queue/queue-names.js';
import { connectChecked, describeTarget, type RedisClient, type RedisTarget } from '../queue/redis-connection.js';
import { RedisOutage, settlesWithin } from '../queue/redis-outage.js';
import { reclaimUnlockedJobs } from '../queue/reclaim.js';
import { MissingRedisError } from './errors.js';
import type { QueueOptions } from './options.js';

export interface QueueHandle {
  redis: RedisClient;
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
  let redis: RedisClient;
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

async function chooseQueueName(settings: QueueSettings, naming: QueueNaming, redis: RedisClient): Promise<string> {
  if (settings.queue) return settings.queue;
  if (naming === 'named' || !settings.out) return DEFAULT_QUEUE;
  const derived = queueNameForOutput(settings.out);
  if (naming === 'run') return derived;
  // status/failed/resume with --out: the run's queue for that output, unless only the default queue exists.
  if (await queueExists(redis, derived)) return derived;
  if (await queueExists(redis, DEFAULT_QUEUE)) return DEFAULT_QUEUE;
  return derived;
}
