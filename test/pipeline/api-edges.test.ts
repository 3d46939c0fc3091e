/**
 * The API's rules at the edges, measured from the server's own log: a rejected key stops all sending at once, a
 * Retry-After holds across workers sharing a queue, and the counts docmill reports equal what the API received.
 * Real processes: the built CLI, the shared Redis, a loopback parse server with scripted faults.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { docmillEnv, runDocmill, SHARED_REDIS_URL, startDocmill, waitFor } from '../helpers/docmill-cli.js';
import { concurrencyLimitReply, type FaultParseServer } from '../helpers/fault-parse-server.js';
import { errorReply, startRecordingServer } from '../helpers/recording-server.js';
import { baseName, lastLineByPath, manyFiles, readFailures, readManifest, writeTree } from './pipeline-fixtures.js';

const KEY = 'dm-edges-key-41f0';
const workspace = useCliWorkspace({ faultServer: { latencyMs: 20 }, queue: true });
let server: FaultParseServer;
let home: string;
let src: string;
let out: string;
let queue: string;

beforeEach(() => {
  ({ server, home, src, out, queue } = workspace);
});

const env = () => docmillEnv({ home, apiUrl: server.url, apiKey: KEY, redisUrl: SHARED_REDIS_URL });

describe('a rejected key', () => {
  it('stops all sending with the first 401: no request after it, nothing failed, the summary and `failed` agree', async () => {
    await writeTree(src, manyFiles(100));
    server.setMode({ latencyMs: 5, faults: [{ reply: { status: 401, json: { success: false, error: 'Unauthorized: Invalid token' } } }] });

    const result = await runDocmill(['run', src, '--out', out, '--queue', queue, '--concurrency', '16'], env());

    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('no document was marked failed');
    // Only requests already out when the first 401 came back. The server cannot tell those from later ones by its own
    // clock (a request sent as the answer was on its way arrives after it was written); that none leaves once the
    // client has read the 401 is held by the slow server below, where every request out is in before any answer.
    // Here the count is: the API gate's first window, far below the 16 jobs open.
    expect(server.requests.length).toBeLessThanOrEqual(2);
    expect((await readManifest(out)).filter((line) => line.status === 'failed')).toEqual([]);
    expect(await readFailures(out)).toEqual([]);
    const failed = await runDocmill(['failed', '--out', out, '--queue', queue], env());
    expect(failed.stdout + failed.stderr).toMatch(/no failed documents|0 failed/i);
  }, 90_000);
});

describe('a rejected key, answered slowly', () => {
  it('with --concurrency 8, sends no more requests than the concurrency, none after the first 401', async () => {
    await writeTree(src, manyFiles(40));
    // Answers slow enough for every open job to be waiting for a gate slot when the first 401 comes back.
    let arrivalsAtFirstAnswer: number | undefined;
    const slow = await startRecordingServer(async () => {
      await delay(300);
      arrivalsAtFirstAnswer ??= slow.arrivals;
      return errorReply(401, { error: 'Unauthorized: Invalid token' });
    });
    try {
      const result = await runDocmill(
        ['run', src, '--out', out, '--queue', queue, '--concurrency', '8'],
        docmillEnv({ home, apiUrl: slow.url, apiKey: KEY, redisUrl: SHARED_REDIS_URL }),
      );

      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr).toContain('no document was marked failed');
      expect(slow.arrivals).toBeGreaterThan(0);
      expect(slow.arrivals).toBeLessThanOrEqual(8);
      expect(slow.arrivals).toBe(arrivalsAtFirstAnswer);
      expect((await readManifest(out)).filter((line) => line.status === 'failed')).toEqual([]);
    } finally {
      await slow.close();
    }
  }, 90_000);
});

describe('Retry-After across workers', () => {
  it('two workers on one queue never send a document again before its 429 Retry-After has passed', async () => {
    const files = manyFiles(40);
    await writeTree(src, files);
    server.setMode({ latencyMs: 60, concurrencyCap: 2, retryAfterSeconds: 1 });
    const enqueued = await runDocmill(['enqueue', src, '--queue', queue], env());
    expect(enqueued.code, enqueued.stderr).toBe(0);
    const workers = [1, 2].map(() => startDocmill(['worker', '--out', out, '--queue', queue, '--concurrency', '4'], env()));
    await waitFor(
      'every document converted',
      async () => {
        const byPath = lastLineByPath(await readManifest(out).catch(() => []));
        return files.every((file) => byPath.get(file.path)?.status === 'converted');
      },
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));

    const throttled = server.requests.filter((request) => request.status === 429);
    expect(throttled.length, 'the cap should have refused some requests').toBeGreaterThan(0);
    const early: string[] = [];
    for (const refusal of throttled) {
      const next = server.requestsFor(refusal.filename ?? '').find((request) => request.index > refusal.index);
      if (next && refusal.answeredAt !== undefined && next.arrivedAt < refusal.answeredAt + 1000) {
        early.push(`${refusal.filename}: ${Math.round(next.arrivedAt - refusal.answeredAt)} ms after a Retry-After of 1 s`);
      }
    }
    expect(early).toEqual([]);
    // Parsed once each: the deferrals cost no document a second conversion.
    for (const file of files) expect(server.requestsFor(baseName(file.path)).filter((request) => request.status === 200)).toHaveLength(1);
  }, 180_000);
});

describe('true counts', () => {
  it('the summary counts every request the API received, and each manifest line the requests made for its document', async () => {
    const files = manyFiles(30);
    await writeTree(src, files);
    // Two files in three fail once, in a way the client retries (503, 408) or the queue defers (429s with a wait).
    server.setMode({
      latencyMs: 20,
      faults: [0, 1, 2, 3, 4].flatMap((i) => [
        { filename: `doc-00${i}.html`, times: 1, reply: { status: 503, json: { success: false, error: 'Service Unavailable' } } },
        { filename: `doc-01${i}.html`, times: 1, reply: { status: 408, json: { success: false, error: 'Request Timeout' } } },
        { filename: `doc-02${i}.html`, times: 1, reply: concurrencyLimitReply(1) },
        // The per-minute budget: the whole queue is paced, and the document's count must survive its deferral.
        { filename: `doc-02${i + 5}.html`, times: 1, reply: { status: 429, headers: { 'retry-after': '1' }, json: { success: false, error: 'Rate limit exceeded' } } },
      ]),
    });

    const result = await runDocmill(['run', src, '--out', out, '--queue', queue, '--concurrency', '4'], env(), 120_000);

    expect(result.code, result.stderr).toBe(0);
    const received = server.requests.length;
    expect(received).toBe(30 + 20);
    expect(result.stderr).toContain(`${received} parse requests`);
    const byPath = lastLineByPath(await readManifest(out));
    const attempts = files.map((file) => byPath.get(file.path)?.attempts ?? 0);
    expect(attempts.reduce((sum, count) => sum + count, 0)).toBe(received);
    for (const file of files) expect(byPath.get(file.path)?.attempts).toBe(server.requestsFor(baseName(file.path)).length);

    // `status` right after a run shorter than a minute: the real rate, not 0/min (30 documents in under 60 s).
    const status = await runDocmill(['status', '--queue', queue, '--json'], env());
    const report = JSON.parse(status.stdout) as { documentsPerMinute: number; rateOverSeconds: number; totals: { converted: number } };
    expect(report.totals.converted).toBe(30);
    expect(report.documentsPerMinute).toBeGreaterThan(30);
    expect(report.rateOverSeconds).toBeLessThan(60);
  }, 150_000);
});
