/**
 * The embedded default: when no REDIS_URL is given, docmill runs a private redis-server from PATH, reachable only
 * through a unix socket, with AOF on and its state under `<out>/_docmill/redis/` (or the user's cache folder for
 * an S3 output). An interrupted `docmill run` therefore resumes when rerun. A second docmill on the same state
 * folder reuses the running server instead of starting another. The server lives and dies with the docmill that
 * started it, which restarts it if it dies first (redis-supervisor.ts).
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from './commonjs-packages.js';
import type { Logger } from 'pino';
import { RedisUnavailableError } from './redis-connection.js';
import { pidFromFile, pings, RedisSupervisor, type RedisServerSpec } from './redis-supervisor.js';

export interface EmbeddedRedis {
  socket: string;
  /** True when this process started the server (or adopted an abandoned one), and so stops it. */
  owned: boolean;
  /** Called after the server died and was started again from its append-only file (owned servers only). */
  onRestart(listener: () => void): void;
  stop(): Promise<void>;
}

/** Where the embedded server keeps its files for an output location. */
export function embeddedStateDir(outLocation: string, cacheDir = join(homedir(), '.cache')): string {
  if (outLocation.startsWith('s3://')) {
    const cache = cacheDir;
    const name = createHash('sha256').update(outLocation).digest('hex').slice(0, 16);
    return join(cache, 'docmill', 'redis', name);
  }
  return join(resolve(outLocation), '_docmill', 'redis');
}

/** Unix socket paths are limited to ~107 bytes, so the socket lives in the temp folder, named by the state dir. */
export function socketPathFor(stateDir: string): string {
  const name = createHash('sha256').update(stateDir).digest('hex').slice(0, 16);
  return join(tmpdir(), `docmill-redis-${name}.sock`);
}

/** `cacheDir` holds the state of an S3 output's server (a local output keeps it under `<out>/_docmill/redis`). */
export async function startEmbeddedRedis(outLocation: string, logger?: Logger, cacheDir?: string): Promise<EmbeddedRedis> {
  const stateDir = embeddedStateDir(outLocation, cacheDir);
  const spec = serverSpec(stateDir, socketPathFor(stateDir));
  const { socket } = spec;
  if (await pings(socket)) {
    // Left running by a docmill that died (nobody else connected): adopt it, so it is stopped when we finish.
    const adopt = (await connectedClients(socket)) === 0;
    logger?.debug({ socket, adopt }, 'reusing the embedded redis-server already running for this output');
    if (!adopt) return { socket, owned: false, onRestart: () => undefined, stop: async () => undefined };
    return supervised(socket, RedisSupervisor.adopt(spec, await pidFromFile(spec.pidFile), logger));
  }
  await mkdir(stateDir, { recursive: true });
  let supervisor: RedisSupervisor;
  try {
    supervisor = await RedisSupervisor.start(spec, logger);
  } catch (error) {
    throw new RedisUnavailableError(
      `No Redis: REDIS_URL is not set and the embedded redis-server could not start (${(error as Error).message}).\n` +
        '  Install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) so docmill can run\n' +
        '  its own, or point docmill at one with --redis redis://host:6379 or REDIS_URL.',
      error,
    );
  }
  logger?.debug({ socket, stateDir }, 'started the embedded redis-server');
  return supervised(socket, supervisor);
}

function supervised(socket: string, supervisor: RedisSupervisor): EmbeddedRedis {
  return { socket, owned: true, onRestart: (listener) => supervisor.onRestart(listener), stop: () => supervisor.stop() };
}

/**
 * The server's settings: unix socket only, AOF on, never evicting, in the foreground (see redis-supervisor.ts), and
 * job hashes kept compact (a listpack, not a hash table, up to 1 KB a field: about a third less memory a queued
 * document; `hash-max-ziplist-value` is the name Redis 6 knows and Redis 7 still takes).
 */
function serverSpec(stateDir: string, socket: string): RedisServerSpec {
  const pidFile = join(stateDir, 'redis.pid');
  const logFile = join(stateDir, 'redis.log');
  const args = [
    '--port', '0',
    '--unixsocket', socket,
    '--unixsocketperm', '700',
    '--dir', stateDir,
    '--appendonly', 'yes',
    '--appendfsync', 'everysec',
    '--save', '',
    '--maxmemory-policy', 'noeviction',
    '--hash-max-ziplist-value', '1024',
    '--daemonize', 'no',
    '--pidfile', pidFile,
    '--logfile', logFile,
  ];
  return { socket, stateDir, pidFile, logFile, args };
}

/** Clients connected to the server other than the one asking. */
async function connectedClients(socket: string): Promise<number> {
  const client = new Redis({ path: socket, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const list = String(await client.call('CLIENT', 'LIST'));
    return Math.max(0, list.split('\n').filter((line) => line.trim() !== '').length - 1);
  } catch {
    return 1;
  } finally {
    client.disconnect();
  }
}
