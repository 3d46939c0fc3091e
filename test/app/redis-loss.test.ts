/**
 * The library's `run` when its Redis goes away for good: with `redisWaitMs`, `done` resolves with outcome
 * `redis-unavailable` and a REDIS_UNAVAILABLE error (what was converted is counted); `close()` during an outage
 * resolves within seconds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/index.js';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { waitFor } from '../helpers/docmill-cli.js';
import type { FaultParseServer } from '../helpers/fault-parse-server.js';
import { freePort } from '../helpers/recording-server.js';
import { manyFiles, writeTree } from '../pipeline/pipeline-fixtures.js';

let server: FaultParseServer;
let redis: ChildProcess | undefined;
let src: string;
let out: string;

const workspace = useCliWorkspace({
  faultServer: { latencyMs: 300 },
  outExists: true,
  builtCli: false,
  afterChildren: () => {
    if (redis && redis.exitCode === null && redis.signalCode === null) redis.kill('SIGKILL');
  },
});

beforeEach(async () => {
  ({ server, src, out } = workspace);
  await writeTree(src, manyFiles(30));
});

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text));
  await waitFor('redis-server to accept connections', () => output.includes('Ready to accept connections'), { timeoutMs: 10_000 });
  return child;
}

async function killRedis(): Promise<void> {
  const child = redis!;
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  child.kill('SIGKILL');
  await exited;
}

describe('run() with its Redis lost mid-run', () => {
  it('resolves with outcome redis-unavailable and REDIS_UNAVAILABLE after redisWaitMs', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const handle = run({ source: src, out, apiUrl: server.url, apiKey: 'dm-lib', redisUrl: `redis://127.0.0.1:${port}`, concurrency: 2, redisWaitMs: 1500 });
    await waitFor('a few documents converted', () => handle.counter.counts.converted >= 3, { timeoutMs: 30_000, intervalMs: 20 });
    await killRedis();
    const lostAt = Date.now();
    const summary = await handle.done;
    expect(Date.now() - lostAt).toBeGreaterThanOrEqual(1500);
    expect(Date.now() - lostAt).toBeLessThan(15_000);
    expect(summary.outcome).toBe('redis-unavailable');
    expect(summary.error).toMatchObject({ code: 'REDIS_UNAVAILABLE' });
    expect(summary.counts.converted).toBeGreaterThanOrEqual(3);
    expect(summary.counts.converted).toBeLessThan(30);
  }, 60_000);

  it('close() during the outage resolves within seconds', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const handle = run({ source: src, out, apiUrl: server.url, apiKey: 'dm-lib', redisUrl: `redis://127.0.0.1:${port}`, concurrency: 2 });
    await waitFor('a few documents converted', () => handle.counter.counts.converted >= 3, { timeoutMs: 30_000, intervalMs: 20 });
    await killRedis();
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));
    const closingAt = Date.now();
    const summary = await handle.close();
    expect(Date.now() - closingAt).toBeLessThan(10_000);
    expect(summary?.outcome).toBe('interrupted');
  }, 60_000);
});
