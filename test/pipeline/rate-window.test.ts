/**
 * Runs at a request-rate window, end to end: the built CLI with the shared Redis (so the shared gate's Lua scripts
 * pace it) against the loopback capped server in window mode, whose 429s carry the wait only in their text, as the
 * hosted API's do. Counts only, never durations: every document converted once, every request accounted for, few
 * refused, and the window and budget the gate learned.
 *
 * What a broken pacer would show: one that does not pace is refused most of its requests; one a single request over
 * the budget (or two workers each spending the whole budget) is refused at least once in every window. So once the
 * gate has learned (after its first 4 windows' worth of accepted requests), the refusals are held to half the windows
 * that followed: a margin a loaded machine's stray refusal at a window's edge stays within, and a broken pacer does
 * not.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCappedServer, type CappedServer, type RequestRecord } from '../../bench/lib/capped-parse-server.js';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { docmillEnv, QUEUE_PREFIX, runDocmill, SHARED_REDIS_URL, startDocmill, waitFor } from '../helpers/docmill-cli.js';
import { lastLineByPath, manyFiles, readManifest, writeTree } from './pipeline-fixtures.js';

const KEY = 'dm-window-key-7c21';
/** N requests per 1-s window. */
const BUDGET = 10;

const workspace = useCliWorkspace({ queue: true });
let server: CappedServer | undefined;
let redis: Redis;

beforeAll(() => {
  redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  await server?.close();
  redis.disconnect();
});

beforeEach(async () => {
  await server?.close();
  server = undefined;
});

async function startWindowServer(windowMs = 1000): Promise<CappedServer> {
  server = await startCappedServer({ latencyMs: 20, capacity: 1000, retryAfterSeconds: 1, window: { limit: BUDGET, ms: windowMs, kind: 'fixed' } });
  return server;
}

/**
 * What the server saw of a paced run of `documents` documents, asserted on counts (see the header); `learningWindows`
 * is how many windows' worth of refusals the gate may cost while it learns.
 */
async function expectPaced(records: readonly RequestRecord[], documents: number, queue: string, learningWindows = 2, windowMs = 1000): Promise<void> {
  expect(records.filter((record) => record.status === 200)).toHaveLength(documents);
  const refused = records.filter((record) => record.status === 429);
  const inOrder = [...records].sort((a, b) => a.arrivedAt - b.arrivedAt);
  // The answers in order of arrival ('x' a 429), for the failure messages.
  const pattern = inOrder.map((record) => (record.status === 429 ? 'x' : '.')).join('');
  // Every 429 was the window's (the server has no other limit here), and few: the first windows' refusals while the
  // gate learns (slow start's burst overruns the first window).
  expect(refused.every((record) => record.rate === true)).toBe(true);
  expect(refused.length, pattern).toBeLessThanOrEqual(learningWindows * BUDGET);
  let accepted = 0;
  const learned = inOrder.findIndex((record) => record.status === 200 && ++accepted === 4 * BUDGET);
  const windowsOnceLearned = (documents - 4 * BUDGET) / BUDGET;
  const refusedOnceLearned = inOrder.slice(learned).filter((record) => record.status === 429);
  expect(refusedOnceLearned.length, pattern).toBeLessThanOrEqual(Math.floor(windowsOnceLearned / 2));
  // The pace the queue's workers share: the window told in the 429s' text, the budget counted from what was accepted.
  const pace = await redis.hmget(`${QUEUE_PREFIX}:${queue}:gate`, 'pW', 'pN');
  expect(Number(pace[0]), pattern).toBe(windowMs);
  expect(Number(pace[1]), pattern).toBeGreaterThanOrEqual(BUDGET - 1);
  expect(Number(pace[1]), pattern).toBeLessThanOrEqual(BUDGET + 1);
}

describe('a run at a request-rate window, the wait only in the 429 text', () => {
  it('at a 1-s window: converts every document, refuses few requests, and the shared gate learns the window and the budget', async () => {
    // 32 windows: on a loaded host slow start's burst can reach the API out of the order it went, so the first count
    // may fall a request or two short; the probe (after 16 clean windows) then wins the budget back within the run.
    const documents = 320;
    const { home, src, out, queue } = workspace;
    await writeTree(src, manyFiles(documents));
    const capped = await startWindowServer();

    const env = docmillEnv({ home, apiUrl: capped.url, apiKey: KEY, redisUrl: SHARED_REDIS_URL });
    const result = await runDocmill(['run', src, '--out', out, '--queue', queue, '--concurrency', '8'], env, 230_000);

    expect(result.code, result.stderr).toBe(0);
    const converted = (await readManifest(out)).filter((line) => line.status === 'converted');
    expect(converted).toHaveLength(documents);
    expect(result.stderr).toContain(`${capped.records.length} parse requests`);
    await expectPaced(capped.records, documents, queue);
  }, 240_000);

  it('at a 2-s window, two workers on one queue share the budget through Redis: together they stay within it', async () => {
    // 32 windows, as with one process: a first count a request or two short (two workers starting apart, on a loaded
    // host) is won back by the probe after 16 clean windows, which needs more than a window of work left behind it.
    // Windows of 2 s: the pace's margin against jitter is 2 % of the window, and on a CI host running the suite the
    // loopback server (in the test's own process) counts arrivals up to tens of milliseconds late; beyond 20 ms, a 1-s
    // window then refused a probe that would have held, and the run ended two below the budget.
    const documents = 320;
    const { home, src, out, queue } = workspace;
    const files = manyFiles(documents);
    await writeTree(src, files);
    const capped = await startWindowServer(2000);
    const env = docmillEnv({ home, apiUrl: capped.url, apiKey: KEY, redisUrl: SHARED_REDIS_URL });
    const enqueued = await runDocmill(['enqueue', src, '--queue', queue], env);
    expect(enqueued.code, enqueued.stderr).toBe(0);

    const workers = [1, 2].map(() => startDocmill(['worker', '--out', out, '--queue', queue, '--concurrency', '8'], env));
    await waitFor(
      'every document converted',
      async () => {
        const byPath = lastLineByPath(await readManifest(out).catch(() => []));
        return files.every((file) => byPath.get(file.path)?.status === 'converted');
      },
      { timeoutMs: 210_000, intervalMs: 200 },
    );
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));

    // Both took part: each converted documents of its own.
    for (const worker of workers) expect(worker.stderr.match(/"status":"converted"/g)?.length ?? 0, worker.stderr.slice(-2000)).toBeGreaterThan(0);
    // Learning may take a window more than with one process: the workers start apart, so the first window can
    // trickle, and the count at the first 429 then reaches into a window the API had already closed (too high a
    // budget, refused and counted again in the next window). Once learned, the same margin as one process.
    await expectPaced(capped.records, documents, queue, 3, 2000);
  }, 240_000);
});
