/**
 * Redis connections for BullMQ: from REDIS_URL / --redis, or the embedded redis-server docmill starts itself.
 *
 * A URL may name a standalone Redis or any node of a Redis Cluster: docmill asks the node (`INFO cluster`) and opens
 * an ioredis Cluster client when cluster mode is on, with the URL's credentials and TLS passed to every node. Every
 * key docmill and BullMQ use for a queue carries the hash tag of QUEUE_PREFIX (./queue-names.ts), so a queue lives in
 * one slot and its scripts and multi-key commands never cross slots.
 */
import type { ClusterOptions, RedisOptions } from 'ioredis';
import { Cluster, Redis } from './commonjs-packages.js';
import type { Logger } from 'pino';
import { DocmillError } from '../errors/docmill-error.js';

export class RedisUnavailableError extends DocmillError {
  constructor(message: string, cause?: unknown) {
    super('REDIS_UNAVAILABLE', message, { cause });
  }
}

export type RedisTarget = { url: string } | { socket: string };

/** A connection to a standalone Redis or to a Redis Cluster: both speak the commands docmill and BullMQ use. */
export type RedisClient = Redis | Cluster;

/** Connection options BullMQ needs: workers block on Redis, so no per-request retry limit. */
const BULLMQ_OPTIONS: RedisOptions = { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: true };

/**
 * On a cluster a command to a node that went away is retried after a slot refresh: every `retryDelayOnFailover`,
 * `maxRedirections` times, so a restarted node or a failover of up to about 30 s is ridden out instead of failing
 * the command (ioredis' defaults give up after 1.6 s).
 */
const CLUSTER_RETRY: ClusterOptions = { retryDelayOnFailover: 300, retryDelayOnClusterDown: 300, retryDelayOnTryAgain: 300, maxRedirections: 100 };

function connect(target: RedisTarget, extra: RedisOptions = {}): Redis {
  const options: RedisOptions = { ...BULLMQ_OPTIONS, ...extra };
  return 'url' in target ? new Redis(target.url, options) : new Redis({ ...options, path: target.socket });
}

/**
 * Connects and pings, turning a refused connection into a clear error instead of endless reconnects; a node of a
 * Redis Cluster gets a Cluster client.
 */
export async function connectChecked(target: RedisTarget, logger?: Logger): Promise<RedisClient> {
  const probe = connect(target, { maxRetriesPerRequest: 1, retryStrategy: () => null, lazyConnect: true });
  probe.on('error', () => undefined);
  let clustered: boolean;
  try {
    await probe.connect();
    await probe.ping();
    await warnUnlessNoEviction(probe, logger);
    clustered = 'url' in target && (await clusterEnabled(probe));
  } catch (error) {
    throw new RedisUnavailableError(`Cannot connect to Redis at ${describeTarget(target)}: ${(error as Error).message}`, error);
  } finally {
    probe.disconnect();
  }
  const connection = clustered && 'url' in target ? clusterFromUrl(target.url) : connect(target);
  connection.on('error', (error) => logger?.debug({ err: error }, 'redis connection error'));
  try {
    await connection.connect();
  } catch (error) {
    connection.disconnect();
    throw new RedisUnavailableError(`Cannot connect to the Redis Cluster at ${describeTarget(target)}: ${(error as Error).message}`, error);
  }
  if (clustered) logger?.debug({ redis: describeTarget(target), nodes: (connection as Cluster).nodes('master').length }, 'Redis Cluster mode');
  return connection;
}

async function warnUnlessNoEviction(probe: Redis, logger: Logger | undefined): Promise<void> {
  // Managed Redis often refuses CONFIG: then nothing is known and nothing is said.
  const policy = await probe.config('GET', 'maxmemory-policy').catch(() => undefined);
  const value = Array.isArray(policy) ? policy[1] : undefined;
  if (value && value !== 'noeviction') {
    logger?.warn(
      { policy: value },
      'Redis maxmemory-policy is not noeviction: under memory pressure Redis may evict queue keys and lose documents',
    );
  }
}

/** Whether the node runs in cluster mode (`cluster_enabled:1` in `INFO cluster`; 0 or absent on a standalone). */
async function clusterEnabled(probe: Redis): Promise<boolean> {
  const info = await probe.info('cluster').catch(() => undefined);
  if (info !== undefined) return /^cluster_enabled:1\s*$/m.test(info);
  // INFO refused (an ACL user without it): a cluster node answers CLUSTER INFO, a standalone server refuses it.
  return probe.call('CLUSTER', 'INFO').then(
    () => true,
    () => false,
  );
}

/** An ioredis Cluster seeded with the URL's node; its credentials and TLS go to every node of the cluster. */
function clusterFromUrl(url: string): Cluster {
  const parsed = new URL(url);
  const database = parsed.pathname.replace(/^\//, '');
  if (database !== '' && database !== '0') {
    throw new RedisUnavailableError(`${describeTarget({ url })} is a Redis Cluster node, and a cluster has only database 0 (drop /${database} from the URL)`);
  }
  const tls = parsed.protocol === 'rediss:';
  const redisOptions: RedisOptions = {
    ...BULLMQ_OPTIONS,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(tls ? { tls: {} } : {}),
  };
  return new Cluster([{ host: parsed.hostname, port: Number(parsed.port || 6379) }], {
    ...CLUSTER_RETRY,
    lazyConnect: true,
    enableReadyCheck: true,
    redisOptions,
    // With TLS the nodes are reached by the names the cluster announces, so certificates are checked against them
    // (a managed cluster's certificate names its endpoints, not their addresses).
    ...(tls ? { dnsLookup: (address: string, done: (error: Error | null, resolved: string) => void) => done(null, address) } : {}),
  });
}

/**
 * A second connection like `client` (to the same Redis or cluster, with the same credentials), for a subscriber or
 * a connection of its own. `overrides` apply to the connection (to each node's connection on a cluster).
 */
export function duplicateConnection(client: RedisClient, overrides: Pick<RedisOptions, 'lazyConnect'> = {}): RedisClient {
  if (client instanceof Cluster) return client.duplicate(undefined, overrides);
  return client.duplicate(overrides);
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
