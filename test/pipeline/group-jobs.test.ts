/**
 * Small documents several to a job: what a user sees stays per document. A document of a group that fails is
 * recorded, counted and listed alone, `failed --retry` puts back only it, and a large file beside them is converted
 * as usual. The built CLI, the shared Redis, a loopback /v2/parse server with fault injection.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { docmillEnv, runDocmill, SHARED_REDIS_URL, startDocmill, waitFor } from '../helpers/docmill-cli.js';
import type { FaultParseServer } from '../helpers/fault-parse-server.js';
import { baseName, expectOutputs, fileOf, lastLineByPath, manyFiles, readManifest, writeTree } from './pipeline-fixtures.js';
import { QUEUE_PREFIX } from '../../src/queue/queue-names.js';

const KEY = 'dm-group-key-41ae';

const workspace = useCliWorkspace({ faultServer: { latencyMs: 5 }, queue: true });
let server: FaultParseServer;
let home: string;
let src: string;
let out: string;
let queue: string;

beforeEach(() => {
  ({ server, home, src, out, queue } = workspace);
});

const env = () => docmillEnv({ home, apiUrl: server.url, apiKey: KEY, redisUrl: SHARED_REDIS_URL });

describe('small documents grouped in jobs', () => {
  it('fails one document of a group alone, lists and counts it alone, and `failed --retry` retries only it', async () => {
    const files = manyFiles(40);
    const bad = files[17]!;
    // Over the grouping threshold: a job of its own.
    const large = fileOf('batch/large.html', `<html><body><p>${'y'.repeat(300 * 1024)}</p></body></html>\n`);
    await writeTree(src, [...files, large]);
    server.setMode({ latencyMs: 5, faults: [{ filename: baseName(bad.path), reply: { status: 400, json: { success: false, code: 'BAD_REQUEST', error: 'bad form' } } }] });

    const result = await runDocmill(['run', src, '--out', out, '--queue', queue], env());
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/40 converted, 0 skipped, 1 failed/);
    for (const file of [...files, large]) if (file !== bad) await expectOutputs(out, file);
    expect(server.requestsFor(baseName(bad.path))).toHaveLength(1);
    const byPath = lastLineByPath(await readManifest(out));
    expect(byPath.get(bad.path)).toMatchObject({ status: 'failed' });
    expect([...byPath.values()].filter((line) => line.status === 'failed')).toHaveLength(1);

    const status = await runDocmill(['status', '--queue', queue, '--json'], env());
    const report = JSON.parse(status.stdout) as { counts: Record<string, number>; totals: Record<string, number> };
    expect(report.counts.failed).toBe(1);
    expect(report.totals).toMatchObject({ converted: 40, failed: 1 });

    const listed = await runDocmill(['failed', '--queue', queue, '--json'], env());
    expect(listed.code, listed.stderr).toBe(0);
    const failed = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as { path: string; reason: string });
    expect(failed.map((document) => document.path)).toEqual([bad.path]);
    expect(failed[0]?.reason).toContain('bad form');

    const retried = await runDocmill(['failed', '--queue', queue, '--retry'], env());
    expect(retried.code, retried.stderr).toBe(0);
    const after = JSON.parse((await runDocmill(['status', '--queue', queue, '--json'], env())).stdout) as { counts: Record<string, number> };
    expect((after.counts.waiting ?? 0) + (after.counts.prioritized ?? 0)).toBe(1);
    expect(after.counts.failed ?? 0).toBe(0);

    // The retried job is the document's own: a rerun parses only it, and its record is now a conversion.
    server.setMode({ latencyMs: 5 });
    server.clearRequests();
    const rerun = await runDocmill(['run', src, '--out', out, '--queue', queue], env());
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(server.requests.map((request) => request.filename)).toEqual([baseName(bad.path)]);
    // Its record since the failure is a conversion. The run's listing may come after the retried job has finished
    // and been removed; it then finds the document unchanged and adds a `skipped` line, as for any converted file.
    const lines = (await readManifest(out)).filter((line) => line.path === bad.path);
    const sinceFailure = lines.slice(lines.map((line) => line.status).lastIndexOf('failed') + 1).map((line) => line.status);
    expect(sinceFailure[0]).toBe('converted');
    expect(sinceFailure.filter((status) => status !== 'skipped')).toEqual(['converted']);
    await expectOutputs(out, bad);
  }, 120_000);

  it('records each document of a group once when the group is started again after its worker was killed', async () => {
    const files = manyFiles(16);
    const held = files[12]!;
    await writeTree(src, files);
    // One document's parse is held, so the worker dies with the rest of its group recorded and that one not.
    server.setMode({ latencyMs: (request) => (request.filename === baseName(held.path) ? 120_000 : 5) });
    const queued = await runDocmill(['enqueue', src, '--queue', queue], env());
    expect(queued.code, queued.stderr).toBe(0);
    const bull = new Queue(queue, { connection: { url: SHARED_REDIS_URL }, prefix: QUEUE_PREFIX });
    try {
      expect(await bull.getJobCountByTypes('waiting', 'prioritized'), 'the 16 documents should make one group job').toBe(1);
    } finally {
      await bull.close();
    }

    const workerArgs = ['worker', '--out', out, '--queue', queue, '--lock-duration', '2000'];
    const victim = startDocmill(workerArgs, env());
    const converted = async () => (await readManifest(out)).filter((line) => line.status === 'converted');
    await waitFor('the group converted but for the held document', async () => (await converted()).length === files.length - 1 && server.requestsFor(baseName(held.path)).length === 1, {
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    victim.kill('SIGKILL');
    expect((await victim.exited).signal).toBe('SIGKILL');

    // The group's lock expires and another worker starts it again.
    server.setMode({ latencyMs: 5 });
    const survivor = startDocmill(workerArgs, env());
    await waitFor('every document converted', async () => new Set((await converted()).map((line) => line.path)).size === files.length, {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    survivor.kill('SIGTERM');
    expect((await survivor.exited).code, survivor.stderr).toBe(0);

    const manifest = await readManifest(out);
    for (const file of files) {
      expect(manifest.filter((line) => line.path === file.path).map((line) => line.status), file.path).toEqual(['converted']);
      await expectOutputs(out, file);
      expect(server.requestsFor(baseName(file.path)), file.path).toHaveLength(file === held ? 2 : 1);
    }
  }, 150_000);

  it('counts waiting documents, not jobs, in status', async () => {
    await writeTree(src, manyFiles(20));
    const queued = await runDocmill(['enqueue', src, '--queue', queue], env());
    expect(queued.code, queued.stderr).toBe(0);
    const bull = new Queue(queue, { connection: { url: SHARED_REDIS_URL }, prefix: QUEUE_PREFIX });
    try {
      // Fewer jobs than documents: what the grouping is for.
      expect(await bull.getJobCountByTypes('waiting', 'prioritized')).toBeLessThan(20);
    } finally {
      await bull.close();
    }
    const report = JSON.parse((await runDocmill(['status', '--queue', queue, '--json'], env())).stdout) as { counts: Record<string, number> };
    expect((report.counts.waiting ?? 0) + (report.counts.prioritized ?? 0)).toBe(20);
  }, 60_000);
});
