/**
 * `docmill run` when its Redis goes away mid-run. The embedded redis-server is restarted from its append-only file
 * and the run completes; a Redis given by REDIS_URL that stays down ends the run with REDIS_UNAVAILABLE (exit 4)
 * after `--redis-wait`, reported once; one that comes back lets the run complete; SIGTERM is honoured during an
 * outage; and the embedded server never outlives a docmill killed outright.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import {
  DOCMILL_BIN,
  docmillEnv,
  runDocmill,
  startDocmill,
  waitFor,
  type DocmillProcess,
  type DocmillResult,
} from '../helpers/docmill-cli.js';
import type { FaultParseServer } from '../helpers/fault-parse-server.js';
import { freePort } from '../helpers/recording-server.js';
import { embeddedStateDir, socketPathFor } from '../../src/queue/embedded-redis.js';
import { expectOutputs, lastLineByPath, manyFiles, readManifest, writeTree, type TreeFile } from './pipeline-fixtures.js';

const FILES = manyFiles(48);

let server: FaultParseServer;
let home: string;
let src: string;
let out: string;
let redisDir: string;
const redisServers: ChildProcess[] = [];

const workspace = useCliWorkspace({
  // A slow API: 48 documents at 3 in flight take ~6 s, so every kill below lands mid-run.
  faultServer: { latencyMs: 350 },
  outExists: true,
  afterChildren: () => {
    for (const redis of redisServers.splice(0)) if (redis.exitCode === null && redis.signalCode === null) redis.kill('SIGKILL');
  },
});

beforeEach(async () => {
  ({ server, home, src, out } = workspace);
  redisDir = await workspace.tempDir();
  await writeTree(src, FILES);
});

/** A redis-server of the test's own on a free loopback port; `persistent`: AOF under redisDir, so a restart keeps the queue. */
async function startRedis(port: number, persistent = false): Promise<ChildProcess> {
  const persistence = persistent ? ['--appendonly', 'yes', '--dir', redisDir] : ['--appendonly', 'no'];
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--daemonize', 'no'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  redisServers.push(redis);
  let output = '';
  redis.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text));
  await waitFor('redis-server to accept connections', () => output.includes('Ready to accept connections'), { timeoutMs: 10_000 });
  return redis;
}

async function stopRedis(redis: ChildProcess): Promise<void> {
  const exited = new Promise((resolveExit) => redis.once('exit', resolveExit));
  redis.kill('SIGKILL');
  await exited;
}

async function embeddedPid(): Promise<number> {
  return Number((await readFile(join(out, '_docmill', 'redis', 'redis.pid'), 'utf8')).trim());
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function convertedCount(): Promise<number> {
  const lines = await readManifest(out).catch(() => []);
  return lines.filter((line) => line.status === 'converted').length;
}

async function expectEveryOutput(files: readonly TreeFile[]): Promise<void> {
  const byPath = lastLineByPath(await readManifest(out));
  for (const file of files) {
    expect(['converted', 'skipped'], file.path).toContain(byPath.get(file.path)?.status);
    await expectOutputs(out, file);
  }
}

function linesWith(text: string, needle: string): number {
  return text.split('\n').filter((line) => line.includes(needle)).length;
}

const RUN_ARGS = ['--concurrency', '3'];

/** The run's result; a run still going after `ms` is a hang, reported with its log. */
async function exitedWithin(run: DocmillProcess, ms: number): Promise<DocmillResult> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`docmill still running after ${ms} ms:\n${run.stderr.slice(-4000)}`)), ms);
  });
  try {
    return await Promise.race([run.exited, hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe('docmill run: the embedded redis-server dies mid-run', () => {
  it('is restarted from its append-only file and the run completes with every output', async () => {
    const env = docmillEnv({ home, apiUrl: server.url, apiKey: 'dm-redis-loss' });
    const run = startDocmill(['run', src, '--out', out, ...RUN_ARGS], env);
    await waitFor('some documents converted', async () => (await convertedCount()) >= 8, { timeoutMs: 60_000, intervalMs: 50 });
    const firstPid = await embeddedPid();
    process.kill(firstPid, 'SIGKILL');
    // A new server, under the same pid file (it is removed when the run stops the server at its end).
    const secondPid = await waitFor('the restarted redis-server', async () => {
      const pid = await embeddedPid().catch(() => firstPid);
      return pid !== firstPid && isAlive(pid) ? pid : undefined;
    });

    const result = await exitedWithin(run, 90_000);
    expect(result.code, result.stderr.slice(-3000)).toBe(0);
    expect(result.stderr).toContain('restarting it from its append-only file');
    expect(linesWith(result.stderr, 'worker error'), result.stderr.slice(-3000)).toBe(0);
    await expectEveryOutput(FILES);
    // The run stopped the server it restarted.
    await waitFor('the restarted redis-server to stop', () => !isAlive(secondPid), { timeoutMs: 10_000 });
  }, 120_000);
});

describe('docmill run: a REDIS_URL Redis lost mid-run', () => {
  it('stays down: the run ends with REDIS_UNAVAILABLE after --redis-wait, and says so once', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const env = docmillEnv({ home, apiUrl: server.url, apiKey: 'dm-redis-loss', redisUrl: `redis://127.0.0.1:${port}` });
    const run = startDocmill(['run', src, '--out', out, ...RUN_ARGS, '--redis-wait', '4'], env);
    await waitFor('some documents converted', async () => (await convertedCount()) >= 6, { timeoutMs: 60_000, intervalMs: 50 });
    await stopRedis(redis);
    const killedAt = Date.now();

    const result = await exitedWithin(run, 60_000);
    const took = Date.now() - killedAt;
    expect(result.code, result.stderr.slice(-3000)).toBe(4);
    expect(took, 'ends after the wait, not long after').toBeGreaterThanOrEqual(4000);
    expect(took).toBeLessThan(20_000);
    expect(linesWith(result.stderr, 'lost the connection to Redis')).toBe(1);
    expect(result.stderr).toContain('waiting up to 4 s');
    expect(linesWith(result.stderr, 'worker error'), result.stderr.slice(-3000)).toBe(0);
    expect(result.stderr).toContain('REDIS_UNAVAILABLE');
    expect(result.stderr).toMatch(/unreachable for 4 s/);
    // The summary of what it did before the outage.
    expect(result.stderr).toMatch(/docmill: \d+ converted, 0 skipped, 0 failed/);
  }, 120_000);

  it('comes back within the wait: the run carries on and completes', async () => {
    const port = await freePort();
    const redis = await startRedis(port, true);
    const env = docmillEnv({ home, apiUrl: server.url, apiKey: 'dm-redis-loss', redisUrl: `redis://127.0.0.1:${port}` });
    const run = startDocmill(['run', src, '--out', out, ...RUN_ARGS, '--redis-wait', '60'], env);
    await waitFor('some documents converted', async () => (await convertedCount()) >= 6, { timeoutMs: 60_000, intervalMs: 50 });
    await stopRedis(redis);
    await waitFor('the outage to be reported', () => run.stderr.includes('lost the connection to Redis'), { timeoutMs: 10_000 });
    await startRedis(port, true);

    const result = await exitedWithin(run, 60_000);
    expect(result.code, result.stderr.slice(-3000)).toBe(0);
    expect(linesWith(result.stderr, 'lost the connection to Redis')).toBe(1);
    expect(result.stderr).toContain('Redis is back after');
    expect(linesWith(result.stderr, 'worker error'), result.stderr.slice(-3000)).toBe(0);
    await expectEveryOutput(FILES);
  }, 120_000);

  it('a SIGTERM during the outage ends the run within seconds', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const env = docmillEnv({ home, apiUrl: server.url, apiKey: 'dm-redis-loss', redisUrl: `redis://127.0.0.1:${port}` });
    const run = startDocmill(['run', src, '--out', out, ...RUN_ARGS, '--redis-wait', '600'], env);
    await waitFor('some documents converted', async () => (await convertedCount()) >= 6, { timeoutMs: 60_000, intervalMs: 50 });
    await stopRedis(redis);
    await waitFor('the outage to be reported', () => run.stderr.includes('lost the connection to Redis'), { timeoutMs: 10_000 });
    const signalledAt = Date.now();
    run.kill('SIGTERM');

    const result = await exitedWithin(run, 60_000);
    expect(Date.now() - signalledAt, result.stderr.slice(-3000)).toBeLessThan(12_000);
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('interrupted');
  }, 120_000);
});

describe('docmill run: an embedded redis-server left running by an older docmill', () => {
  it('is adopted, replaced by a server of its own when it dies, and stopped at the end', async () => {
    // What docmill used to start: a daemonized server on the output's socket, outliving the docmill that started it.
    const stateDir = embeddedStateDir(out);
    await mkdir(stateDir, { recursive: true });
    const pidFile = join(stateDir, 'redis.pid');
    const started = spawnSync('redis-server', [
      '--port', '0', '--unixsocket', socketPathFor(stateDir), '--unixsocketperm', '700', '--dir', stateDir,
      '--appendonly', 'yes', '--save', '', '--daemonize', 'yes', '--pidfile', pidFile, '--logfile', join(stateDir, 'redis.log'),
    ]);
    expect(started.status, String(started.stderr)).toBe(0);
    const oldPid = await waitFor('the old server\'s pid file', () => embeddedPid().then((pid) => (pid > 0 ? pid : undefined)), { timeoutMs: 5000 });

    const env = docmillEnv({ home, apiUrl: server.url, apiKey: 'dm-redis-loss' });
    const run = startDocmill(['run', src, '--out', out, ...RUN_ARGS, '--verbose'], env);
    await waitFor('some documents converted', async () => (await convertedCount()) >= 6, { timeoutMs: 60_000, intervalMs: 50 });
    expect(run.stderr).toContain('reusing the embedded redis-server');
    process.kill(oldPid, 'SIGKILL');
    const newPid = await waitFor('a server of its own', async () => {
      const pid = await embeddedPid().catch(() => oldPid);
      return pid !== oldPid && isAlive(pid) ? pid : undefined;
    });

    const result = await exitedWithin(run, 90_000);
    expect(result.code, result.stderr.slice(-3000)).toBe(0);
    expect(result.stderr).toContain('restarting it from its append-only file');
    await expectEveryOutput(FILES);
    await waitFor('its server to stop with it', () => !isAlive(newPid), { timeoutMs: 10_000 });
  }, 120_000);
});

describe('docmill run: killed outright on the embedded Redis', () => {
  it('takes its redis-server with it (process group SIGKILL), and the next run completes', async () => {
    const env = docmillEnv({ home, apiUrl: server.url, apiKey: 'dm-redis-loss' });
    const child = spawn(process.execPath, [DOCMILL_BIN, 'run', src, '--out', out, ...RUN_ARGS], { env, detached: true, stdio: 'ignore' });
    const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
    await waitFor('some documents converted', async () => (await convertedCount()) >= 6, { timeoutMs: 60_000, intervalMs: 50 });
    const redisPid = await embeddedPid();
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    await waitFor('the embedded redis-server to be gone', () => !isAlive(redisPid), { timeoutMs: 5000 });

    const rerun = await runDocmill(['run', src, '--out', out, ...RUN_ARGS], env, 90_000);
    expect(rerun.code, rerun.stderr.slice(-3000)).toBe(0);
    await expectEveryOutput(FILES);
  }, 120_000);

  it('takes its redis-server with it when only the docmill process is SIGKILLed', async () => {
    const env = docmillEnv({ home, apiUrl: server.url, apiKey: 'dm-redis-loss' });
    const run = startDocmill(['run', src, '--out', out, ...RUN_ARGS], env);
    await waitFor('some documents converted', async () => (await convertedCount()) >= 6, { timeoutMs: 60_000, intervalMs: 50 });
    const redisPid = await embeddedPid();
    run.kill('SIGKILL');
    await run.exited;
    await waitFor('the embedded redis-server to be gone', () => !isAlive(redisPid), { timeoutMs: 5000 });
  }, 120_000);
});

describe('docmill worker: its REDIS_URL Redis lost', () => {
  it('reports the outage once, carries on when Redis is back, and honours SIGTERM during the next outage', async () => {
    const port = await freePort();
    const redis = await startRedis(port, true);
    const env = docmillEnv({ home, apiUrl: server.url, apiKey: 'dm-redis-loss', redisUrl: `redis://127.0.0.1:${port}` });
    const enqueued = await runDocmill(['enqueue', src], env);
    expect(enqueued.code, enqueued.stderr).toBe(0);
    const worker = startDocmill(['worker', '--out', out, ...RUN_ARGS], env);
    await waitFor('some documents converted', async () => (await convertedCount()) >= 6, { timeoutMs: 60_000, intervalMs: 50 });
    await stopRedis(redis);
    await waitFor('the outage to be reported', () => worker.stderr.includes('lost the connection to Redis'), { timeoutMs: 10_000 });
    expect(worker.stderr).toContain('waiting for it to return');
    const second = await startRedis(port, true);

    await waitFor('every document converted', async () => (await convertedCount()) >= FILES.length, { timeoutMs: 60_000, intervalMs: 250 });
    await expectEveryOutput(FILES);
    expect(worker.running).toBe(true);
    expect(linesWith(worker.stderr, 'lost the connection to Redis')).toBe(1);
    expect(worker.stderr).toContain('Redis is back after');

    await stopRedis(second);
    await waitFor('the second outage to be reported', () => linesWith(worker.stderr, 'lost the connection to Redis') === 2, { timeoutMs: 10_000 });
    const signalledAt = Date.now();
    worker.kill('SIGTERM');
    const result = await exitedWithin(worker, 30_000);
    expect(Date.now() - signalledAt, result.stderr.slice(-3000)).toBeLessThan(12_000);
    expect(result.code).toBe(0);
    expect(linesWith(result.stderr, 'worker error'), result.stderr.slice(-3000)).toBe(0);
  }, 150_000);
});
