/**
 * Scale-out and crash safety: `docmill enqueue` fills a queue on the shared Redis, two `docmill worker` processes
 * drain it, one is SIGKILLed mid-run. The survivor must pick up the dead worker's jobs (after the short lock) and
 * every output must be complete, with no temporary file left behind.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import {
  docmillEnv,
  runDocmill,
  SHARED_REDIS_URL,
  startDocmill,
  waitFor,
  type DocmillProcess,
} from '../helpers/docmill-cli.js';
import type { FaultParseServer } from '../helpers/fault-parse-server.js';
import { expectOutputs, lastLineByPath, manyFiles, readManifest, temporaryFiles, writeTree } from './pipeline-fixtures.js';

/** Temporary files outside `_docmill/tmp/`, the staging folder of atomic writes. */
function outsideStaging(paths: string[]): string[] {
  return paths.filter((path) => !path.replaceAll('\\', '/').includes('_docmill/tmp/'));
}


const workspace = useCliWorkspace({ faultServer: { latencyMs: 300 }, queue: true, outExists: true });
let server: FaultParseServer;
let home: string;
let src: string;
let out: string;
let queue: string;

beforeEach(() => {
  ({ server, home, src, out, queue } = workspace);
});

/** docmill's per-content locks on the queue, with their remaining time to live. */
async function contentLocks(name: string): Promise<Record<string, number>> {
  const redis = new Redis(SHARED_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const prefix = `{docmill}:${name}:docmill:content-lock:`;
    const keys = await redis.keys(`${prefix}*`);
    const entries = await Promise.all(keys.map(async (key) => [key.slice(prefix.length), await redis.pttl(key)] as const));
    return Object.fromEntries(entries);
  } finally {
    redis.disconnect();
  }
}

/** Markdown outputs written so far (top folder `batch/`). */
async function markdownCount(): Promise<number> {
  const names = await readdir(join(out, 'batch')).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.html.md')).length;
}

describe('docmill worker: a worker killed mid-run', () => {
  it('has its jobs finished by the other worker, every output complete and no temporary file left', async () => {
    const files = manyFiles(40);
    await writeTree(src, files);
    const env = docmillEnv({ home, apiUrl: server.url, redisUrl: SHARED_REDIS_URL });

    const enqueued = await runDocmill(['enqueue', src, '--queue', queue], env);
    expect(enqueued.code, enqueued.stderr).toBe(0);
    expect(enqueued.stderr).toContain('queued 40 documents');

    const workerArgs = ['worker', '--out', out, '--queue', queue, '--lock-duration', '2000', '--concurrency', '2'];
    const workers: DocmillProcess[] = [startDocmill(workerArgs, env), startDocmill(workerArgs, env)];
    await waitFor('both workers to start', () => workers.every((worker) => worker.stderr.includes('worker started')), {
      timeoutMs: 30_000,
    });
    await waitFor('about 10 outputs', async () => (await markdownCount()) >= 10, { timeoutMs: 60_000, intervalMs: 50 });

    // Both workers are busy (the queue holds far more jobs than their slots), so the victim dies holding jobs.
    const [victim, survivor] = workers as [DocmillProcess, DocmillProcess];
    victim.kill('SIGKILL');
    const killed = await victim.exited;
    expect(killed.signal).toBe('SIGKILL');
    const outputsAtKill = await markdownCount();
    expect(outputsAtKill, 'the kill should land mid-run').toBeLessThan(files.length);

    // The survivor drains the queue, including the jobs the dead worker held (once their locks expire).
    // Drained means: a converted/skipped manifest line for every file, then an empty queue. The locks are 2 s, so
    // the dead worker's jobs should move within seconds; 60 s is generous even on a loaded machine.
    let missing: string[] = [];
    const drained = await waitFor(
      'a converted or skipped manifest line for every file',
      async () => {
        const byPath = lastLineByPath(await readManifest(out));
        missing = files.filter((file) => !['converted', 'skipped'].includes(byPath.get(file.path)?.status ?? '')).map((file) => file.path);
        return missing.length === 0;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    ).catch(async (error: unknown) => {
      const locks = await contentLocks(queue);
      return (
        `${String(error)}\nnot finished: ${missing.join(', ')}\n` +
        `content locks still held (key → ttl ms): ${JSON.stringify(locks)}\n` +
        `survivor's log tail:\n${survivor.stderr.slice(-600)}`
      );
    });
    // Soft: whether or not the queue drained, a temporary file among the outputs is a failure of its own. (Atomic
    // writes stage in _docmill/tmp/; what a killed writer leaves there is swept by the survivor, checked below.)
    expect.soft(drained, typeof drained === 'string' ? drained : '').toBe(true);
    expect.soft(outsideStaging(await temporaryFiles(out)), 'temporary files among the outputs').toEqual([]);
    if (drained !== true) return;

    const status = await waitFor(
      'docmill status to show an empty queue',
      async () => {
        const result = await runDocmill(['status', '--queue', queue, '--json'], env);
        if (result.code !== 0) throw new Error(result.stderr);
        const report = JSON.parse(result.stdout) as { counts: Record<string, number> };
        const { waiting = 0, active = 0, delayed = 0, prioritized = 0 } = report.counts;
        return waiting + active + delayed + prioritized === 0 ? report : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(status.counts.failed ?? 0).toBe(0);

    for (const file of files) await expectOutputs(out, file);
    expect(outsideStaging(await temporaryFiles(out))).toEqual([]);
    const manifest = await readManifest(out);
    expect(manifest.filter((line) => line.status === 'failed')).toEqual([]);

    expect(survivor.running, survivor.stderr).toBe(true);
    survivor.kill('SIGTERM');
    const stopped = await survivor.exited;
    expect(stopped.code, stopped.stderr).toBe(0);
    // The survivor's store, closing, removed whatever the killed worker left half-written in the staging folder.
    expect(await temporaryFiles(out)).toEqual([]);
  }, 150_000);
});
