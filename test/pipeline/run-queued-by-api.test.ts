/**
 * `docmill run` against an API that queues rather than refuses: beyond its concurrency limit it holds requests in
 * its own queue and answers them late, marked `metadata.concurrencyLimited` with `concurrencyQueueDurationMs` (as
 * `docmill serve` does). docmill must take that as the API's limit: once the first queued answers are back, it
 * keeps no more requests at the API than it serves at once (a probe one above aside), instead of keeping the
 * API's queue full up to --concurrency.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtCliExists, deleteQueueKeys, docmillEnv, killAllDocmill, runDocmill, SHARED_REDIS_URL, uniqueQueueName } from '../helpers/docmill-cli.js';
import { okReply, startRecordingServer, type RecordingServer } from '../helpers/recording-server.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { lastLineByPath, manyFiles, readManifest, writeTree } from './pipeline-fixtures.js';

const API_LIMIT = 2;
const SERVICE_MS = 150;

interface Answer {
  filename: string | undefined;
  /** Requests held by the API (served or queued) when this one arrived, itself excluded. */
  heldAtArrival: number;
  queued: boolean;
  arrivedAt: number;
  answeredAt: number;
}

/** An API serving API_LIMIT requests at once and queueing the rest, first come first served. */
function queueingApi() {
  const answers: Answer[] = [];
  let serving = 0;
  let held = 0;
  const waiting: (() => void)[] = [];
  const handler = async (request: { parts: Array<{ name: string; filename: string | undefined }> }) => {
    const filename = request.parts.find((part) => part.name === 'file')?.filename;
    const heldAtArrival = held++;
    const arrived = performance.now();
    let queued = false;
    if (serving >= API_LIMIT) {
      queued = true;
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      serving++;
    }
    const queuedMs = Math.round(performance.now() - arrived);
    await delay(SERVICE_MS);
    held--;
    // Hand the slot straight to the next in the queue, as the API's admission does.
    const next = waiting.shift();
    if (next) next();
    else serving--;
    answers.push({ filename, heldAtArrival, queued, arrivedAt: arrived, answeredAt: performance.now() });
    return okReply({ numPages: 1, creditsUsed: 1, ...(queued ? { concurrencyLimited: true, concurrencyQueueDurationMs: queuedMs } : {}) });
  };
  return { handler, answers };
}

let server: RecordingServer;
let api: ReturnType<typeof queueingApi>;
let home: string;
let src: string;
let out: string;
let queue: string;

beforeAll(() => {
  if (!builtCliExists()) throw new Error('dist/ is missing: run `npm run build` before the pipeline tests');
});

beforeEach(async () => {
  home = await makeTempDir();
  src = await makeTempDir();
  out = await makeTempDir();
  queue = uniqueQueueName();
  api = queueingApi();
  server = await startRecordingServer(api.handler);
});

afterEach(async () => {
  await killAllDocmill();
  await server.close();
  await deleteQueueKeys(queue);
  await Promise.all([removeTempDir(home), removeTempDir(src), removeTempDir(out)]);
});

describe('docmill run: an API that queues beyond its limit (metadata.concurrencyLimited)', () => {
  it('converts everything and, after the first queued answers, stops filling the API queue', async () => {
    const files = manyFiles(40);
    await writeTree(src, files);
    const env = docmillEnv({ home, apiUrl: server.url, apiKey: 'dm-queued-key', redisUrl: SHARED_REDIS_URL });

    const result = await runDocmill(['run', src, '--out', out, '--queue', queue, '--concurrency', '8'], env, 120_000);

    expect(result.code, result.stderr).toBe(0);
    const byPath = lastLineByPath(await readManifest(out));
    expect(files.filter((file) => byPath.get(file.path)?.status !== 'converted').map((file) => file.path)).toEqual([]);
    expect(api.answers).toHaveLength(files.length);

    const firstQueued = api.answers.find((answer) => answer.queued);
    expect(firstQueued, 'slow start should reach the API limit and get queued answers').toBeDefined();
    // Requests that arrived once docmill had seen a queued answer and the requests it had sent before had drained
    // (8 service times later at most): the API holds its limit, give or take one probe, never its full queue.
    const settledAt = firstQueued!.answeredAt + 8 * SERVICE_MS;
    const settled = api.answers.filter((answer) => answer.arrivedAt > settledAt);
    expect(settled.length, 'enough requests after the first queued answer to judge').toBeGreaterThan(10);
    const held = settled.map((answer) => answer.heldAtArrival + 1);
    expect(Math.max(...held), `requests held by the API at each arrival: ${held.join(' ')}`).toBeLessThanOrEqual(API_LIMIT + 1);
  }, 150_000);
});
