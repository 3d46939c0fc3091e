/**
 * The embedded default: when no REDIS_URL is given, docmill runs a private redis-server from PATH, reachable only
 * through a unix socket, with AOF on and its state under `<out>/_docmill/redis/` (or the user's cache folder for
 * an S3 output). An interrupted `docmill run` therefore resumes when rerun. A second docmill on the same state
 * folder reuses the running server instead of starting another.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RedisUnavailableError } from './redis-connection.js';

export interface EmbeddedRedis {
  socket: string;
  /** True when this process started the server (and so stops it). */
  owned: boolean;
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
function socketPathFor(stateDir: string): string {
  const name = createHash('sha256').update(stateDir).digest('hex').slice(0, 16);
  return join(tmpdir(), `docmill-redis-${name}.sock`);
}

async function pings(socket: string): Promise<boolean> {
  if (!existsSync(socket)) return false;
  const client = new Redis({ path: socket, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** `cacheDir` holds the state of an S3 output's server (a local output keeps it under `<out>/_docmill/redis`). */
export async function startEmbeddedRedis(outLocation: string, logger?: Logger, cacheDir?: string): Promise<EmbeddedRedis> {
  const stateDir = embeddedStateDir(outLocation, cacheDir);
  const socket = socketPathFor(stateDir);
  if (await pings(socket)) {
    // Left running by a docmill that died (nobody else connected): adopt it, so it is stopped when we finish.
    const adopt = (await connectedClients(socket)) === 0;
    logger?.debug({ socket, adopt }, 'reusing the embedded redis-server already running for this output');
    return adopt ? { socket, owned: true, stop: () => shutdown(socket, join(stateDir, 'redis.pid')) } : { socket, owned: false, stop: async () => undefined };
  }
  await mkdir(stateDir, { recursive: true });
  await rm(socket, { force: true });
  const pidFile = join(stateDir, 'redis.pid');
  const args = [
    '--port', '0',
    '--unixsocket', socket,
    '--unixsocketperm', '700',
    '--dir', stateDir,
    '--appendonly', 'yes',
    '--appendfsync', 'everysec',
    '--save', '',
    '--maxmemory-policy', 'noeviction',
    '--daemonize', 'yes',
    '--pidfile', pidFile,
    '--logfile', join(stateDir, 'redis.log'),
  ];
  const started = await new Promise<{ ok: boolean; detail: string }>((resolveStart) => {
    const child = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      resolveStart({ ok: false, detail: error.code === 'ENOENT' ? 'redis-server is not on PATH' : error.message }),
    );
    child.on('exit', (code) => resolveStart({ ok: code === 0, detail: stderr.trim() || `exit code ${code}` }));
  });
  if (!started.ok) {
    throw new RedisUnavailableError(
      `No Redis: REDIS_URL is not set and the embedded redis-server could not start (${started.detail}).\n` +
        '  Install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) so docmill can run\n' +
        '  its own, or point docmill at one with --redis redis://host:6379 or REDIS_URL.',
    );
  }
  for (let i = 0; i < 100 && !(await pings(socket)); i++) await delay(50);
  if (!(await pings(socket))) throw new RedisUnavailableError(`The embedded redis-server did not answer on ${socket}; see ${join(stateDir, 'redis.log')}`);
  logger?.debug({ socket, stateDir }, 'started the embedded redis-server');
  return { socket, owned: true, stop: () => shutdown(socket, pidFile) };
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

async function shutdown(socket: string, pidFile: string): Promise<void> {
  const client = new Redis({ path: socket, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    // SHUTDOWN flushes the append-only file, so the next run resumes from here.
    await client.call('SHUTDOWN', 'NOSAVE').catch(() => undefined);
  } catch {
    const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
    if (pid > 0) process.kill(pid, 'SIGTERM');
  } finally {
    client.disconnect();
  }
}
