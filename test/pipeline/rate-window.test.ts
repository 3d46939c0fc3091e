/**
 * A run at a request-rate window, end to end: the built CLI with the shared Redis (so the shared gate's Lua scripts
 * pace it) against the loopback capped server in window mode, whose 429s carry the wait only in their text, as the
 * hosted API's do. Counts only: every document converted, every request accounted for, few refused, and the window
 * and budget the gate learned.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCappedServer, type CappedServer } from '../../bench/lib/capped-parse-server.js';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { docmillEnv, QUEUE_PREFIX, runDocmill, SHARED_REDIS_URL } from '../helpers/docmill-cli.js';
import { manyFiles, readManifest, writeTree } from './pipeline-fixtures.js';

const KEY = 'dm-window-key-7c21';
/** N requests per 1-s window. */
const BUDGET = 10;
const DOCUMENTS = 100;

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

describe('a run at a 1-s request window, the wait only in the 429 text', () => {
  it('converts every document, refuses few requests, and the shared gate learns the window and the budget', async () => {
    const { home, src, out, queue } = workspace;
    await writeTree(src, manyFiles(DOCUMENTS));
    const capped = await startCappedServer({ latencyMs: 20, capacity: 1000, retryAfterSeconds: 1, window: { limit: BUDGET, ms: 1000, kind: 'fixed' } });
    server = capped;

    const env = docmillEnv({ home, apiUrl: capped.url, apiKey: KEY, redisUrl: SHARED_REDIS_URL });
    const result = await runDocmill(['run', src, '--out', out, '--queue', queue, '--concurrency', '8'], env, 110_000);

    expect(result.code, result.stderr).toBe(0);
    const converted = (await readManifest(out)).filter((line) => line.status === 'converted');
    expect(converted).toHaveLength(DOCUMENTS);
    const answers = capped.records;
    expect(answers.filter((record) => record.status === 200)).toHaveLength(DOCUMENTS);
    expect(result.stderr).toContain(`${answers.length} parse requests`);
    // Every 429 was the window's (the server has no other limit here), and few: the first windows' refusals while
    // the gate learns (slow start's burst overruns the first window), then a stray one at a window's edge at most.
    const refused = answers.filter((record) => record.status === 429);
    const inOrder = [...answers].sort((a, b) => a.arrivedAt - b.arrivedAt);
    // The answers in order of arrival ('x' a 429), for the failure message.
    const pattern = inOrder.map((record) => (record.status === 429 ? 'x' : '.')).join('');
    expect(refused.every((record) => record.rate === true)).toBe(true);
    expect(refused.length, pattern).toBeLessThanOrEqual(2 * BUDGET);
    let accepted = 0;
    const learned = inOrder.findIndex((record) => record.status === 200 && ++accepted === 4 * BUDGET);
    const refusedOnceLearned = inOrder.slice(learned).filter((record) => record.status === 429);
    expect(refusedOnceLearned.length, pattern).toBeLessThanOrEqual(5);
    const pace = await redis.hmget(`${QUEUE_PREFIX}:${queue}:gate`, 'pW', 'pN');
    expect(Number(pace[0]), pattern).toBe(1000);
    expect(Number(pace[1])).toBeGreaterThanOrEqual(BUDGET - 1);
    expect(Number(pace[1])).toBeLessThanOrEqual(BUDGET + 1);
  }, 120_000);
});
