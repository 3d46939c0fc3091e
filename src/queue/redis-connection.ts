/**
 * Redis connections for BullMQ: from REDIS_URL / --redis, or the embedded redis-server docmill starts itself.
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { DocmillError } from '../errors/docmill-error.js';

export class RedisUnavailableError extends DocmillError {
  constructor(message: string, cause?: unknown) {
    super('REDIS_UNAVAILABLE', message, { cause });
  }
}

export type RedisTarget = { url: string } | { socket: string };

/** Connection options BullMQ needs: workers block on Redis, so no per-request retry limit. */
export function connect(target: RedisTarget, extra: RedisOptions = {}): Redis {
  const options: RedisOptions = { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: true, ...extra };
  return 'url' in target ? new Redis(target.url, options) : new Redis({ ...options, path: target.socket });
}

/** Connects and pings, turning a refused connection into a clear error instead of endless reconnects. */
export async function connectChecked(target: RedisTarget, logger?: Logger): Promise<Redis> {
  const probe = connect(target, { maxRetriesPerRequest: 1, retryStrategy: () => null, lazyConnect: true });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    const policy = await probe.config('GET', 'maxmemory-policy').catch(() => undefined);
    const value = Array.isArray(policy) ? policy[1] : undefined;
    if (value && value !== 'noeviction') {
      logger?.warn(
        { policy: value },
        'Redis maxmemory-policy is not noeviction: under memory pressure Redis may evict queue keys and lose documents',
      );
    }
  } catch (error) {
    throw new RedisUnavailableError(`Cannot connect to Redis at ${describeTarget(target)}: ${(error as Error).message}`, error);
  } finally {
    probe.disconnect();
  }
  const connection = connect(target);
  connection.on('error', (error) => logger?.debug({ err: error }, 'redis connection error'));
  await connection.connect();
  return connection;
}

/** The target without credentials, for messages. */
export function describeTarget(target: RedisTarget): string {
  if ('socket' in target) return `unix:${target.socket}`;
  try {
    const url = new URL(target.url);
    url.password = '';
    url.username = '';
    return url.toString();
  } catch {
    return '(unparseable REDIS_URL)';
  }
}
