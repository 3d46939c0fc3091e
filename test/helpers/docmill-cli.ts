/**
 * Runs the built CLI (`node bin/docmill.js`, compiled to dist/ by `npm run build`) as a child process with a
 * controlled environment, for pipeline tests. Every child started here is tracked, so `killAllDocmill()` in an
 * afterEach leaves none behind; queues on a shared Redis and embedded redis-servers have their own clean-ups.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';

export { waitFor } from './wait.js';

export const DOCMILL_BIN = fileURLToPath(new URL('../../bin/docmill.js', import.meta.url));
export const SHARED_REDIS_URL = process.env.DOCMILL_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const QUEUE_PREFIX = '{docmill}';

/** Whether the compiled CLI exists; pipeline tests need `npm run build` first. */
export function builtCliExists(): boolean {
  return existsSync(fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url)));
}

/** Below node_modules, which every clone that runs the tests has and may write. */
const SUITE_COMPILE_CACHE = fileURLToPath(new URL('../../node_modules/.cache/docmill-compile-cache', import.meta.url));

export interface DocmillEnvOptions {
  /** HOME (and XDG_CACHE_HOME below it) for the child: a temp dir, so nothing lands in the real home. */
  home: string;
  /** Parse API base URL (DOCMILL_API_URL). */
  apiUrl?: string;
  apiKey?: string;
  /** REDIS_URL; absent means the embedded redis-server under <out>/_docmill/redis. */
  redisUrl?: string;
  extra?: Record<string, string>;
}

/**
 * A minimal environment: nothing from the test process leaks in except PATH and TMPDIR (the child must find what the
 * test finds in os.tmpdir(), such as an embedded redis-server's socket).
 */
export function docmillEnv(options: DocmillEnvOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    HOME: options.home,
    XDG_CACHE_HOME: join(options.home, '.cache'),
    // One compile cache for the suite's children (bin/docmill.js): in each test's fresh home, every child would compile
    // and write it anew.
    NODE_COMPILE_CACHE: SUITE_COMPILE_CACHE,
    DOCMILL_LOG_LEVEL: 'info',
  };
  if (options.apiUrl) env.DOCMILL_API_URL = options.apiUrl;
  if (options.apiKey) env.DOCMILL_API_KEY = options.apiKey;
  if (options.redisUrl) env.REDIS_URL = options.redisUrl;
  return { ...env, ...options.extra };
}

export interface DocmillResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface DocmillProcess {
  child: ChildProcess;
  readonly pid: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves when the process has exited and its output streams are closed. */
  exited: Promise<DocmillResult>;
  readonly running: boolean;
  kill(signal?: NodeJS.Signals): void;
}

const children = new Set<DocmillProcess>();

export function startDocmill(args: string[], env: NodeJS.ProcessEnv, cwd?: string): DocmillProcess {
  const child = spawn(process.execPath, [DOCMILL_BIN, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  let running = true;
  const exited = new Promise<DocmillResult>((resolve) => {
    child.once('error', (error) => {
      running = false;
      stderr += `spawn error: ${error.message}`;
      resolve({ code: null, signal: null, stdout, stderr });
    });
    child.once('close', (code, signal) => {
      running = false;
      resolve({ code, signal, stdout, stderr });
    });
  });
  const handle: DocmillProcess = {
    child,
    get pid() {
      return child.pid ?? -1;
    },
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
    get running() {
      return running;
    },
    kill(signal = 'SIGTERM') {
      if (running) child.kill(signal);
    },
  };
  children.add(handle);
  void exited.then(() => children.delete(handle));
  return handle;
}

/** Runs a command to completion; a run that outlives `timeoutMs` is killed and reported with its output. */
export async function runDocmill(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000, cwd?: string): Promise<DocmillResult> {
  const proc = startDocmill(args, env, cwd);
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  try {
    const result = await proc.exited;
    if (result.signal === 'SIGKILL') {
      throw new Error(`docmill ${args.join(' ')} did not finish within ${timeoutMs} ms\nstderr:\n${result.stderr.slice(-4000)}`);
    }
    return result;
  } finally {
    clearTimeout(timer);
  }
}

/** SIGKILLs every child still running (afterEach), and waits until they are gone. */
export async function killAllDocmill(): Promise<void> {
  const running = [...children];
  for (const proc of running) proc.kill('SIGKILL');
  await Promise.all(running.map((proc) => proc.exited));
}

/** A unique queue name for one test. */
export function uniqueQueueName(): string {
  return `test-${randomUUID()}`;
}

/** Deletes every key of a queue on the shared Redis (BullMQ's and docmill's own, all under `{docmill}:<queue>:`). */
export async function deleteQueueKeys(queue: string, redisUrl = SHARED_REDIS_URL): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await deleteMatching(redis, `${QUEUE_PREFIX}:${queue}:*`);
  } finally {
    redis.disconnect();
  }
}

/** Keys of a queue on the shared Redis (to check that nothing was queued). */
export async function queueKeys(queue: string, redisUrl = SHARED_REDIS_URL): Promise<string[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${QUEUE_PREFIX}:${queue}:*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    return keys;
  } finally {
    redis.disconnect();
  }
}

async function deleteMatching(redis: Redis, pattern: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}

/**
 * Stops an embedded redis-server docmill left running for a local output (a killed run leaves its server up):
 * SIGTERM to the pid in `<out>/_docmill/redis/redis.pid`, waiting until it is gone.
 */
export async function stopEmbeddedRedis(out: string): Promise<void> {
  const pidFile = join(out, '_docmill', 'redis', 'redis.pid');
  const text = await readFile(pidFile, 'utf8').catch(() => '');
  const pid = Number(text.trim());
  if (!(pid > 0) || !isAlive(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100 && isAlive(pid); i++) await delay(50);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every file below `root`, as '/'-separated paths relative to it (sorted). */
export async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1).split('\\').join('/'))
    .sort();
}

export interface ManifestLine {
  path: string;
  source: string;
  sha256?: string;
  size: number;
  status: 'converted' | 'skipped' | 'failed' | 'removed';
  outputs: string[];
  numPages?: number;
  totalPages?: number;
  creditsUsed?: number;
  attempts: number;
  durationMs: number;
  error?: { status?: number; code: string; message: string };
  reason?: string;
  warning?: string;
  at: string;
}

/** The lines of a JSONL file (`[]` when it does not exist). */
export async function readJsonLines<T = ManifestLine>(path: string): Promise<T[]> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
