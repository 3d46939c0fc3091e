/**
 * /metrics as an operator reads it after real work: a worker on the shared Redis against a loopback parse server
 * that converts, refuses, throttles and reports credits; the queue gauges when Redis cannot be reached; the local
 * engine pool's load.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueue, startWorker, type WorkerHandle } from '../../src/index.js';
import { EngineThreadPool } from '../../src/engine/thread-pool.js';
import { DocmillMetrics } from '../../src/metrics/metrics.js';
import { observeForMetrics } from '../../src/app/metrics-wiring.js';
import { openQueue } from '../../src/app/queue-handle.js';
import { Resources } from '../../src/app/resources.js';
import { LocalParseEngine } from '../../src/engine/local-engine.js';
import { createLogger } from '../../src/logging/logger.js';
import { serveCommand } from '../../src/cli/commands/serve-action.js';
import { parseOptionsSchema } from '../../src/contract/options.js';
import { deleteQueueKeys, SHARED_REDIS_URL, waitFor } from '../helpers/docmill-cli.js';
import { errorReply, freePort, okReply, startRecordingServer, type RecordedRequest, type RecordingServer } from '../helpers/recording-server.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const KEY = 'metrics-test-key-7f3a9c';

let dir: string;
let src: string;
let out: string;
let server: RecordingServer | undefined;
let worker: WorkerHandle | undefined;
const queues: string[] = [];

function queueName(): string {
  const name = `metrics-${randomUUID()}`;
  queues.push(name);
  return name;
}

beforeEach(async () => {
  dir = await makeTempDir();
  src = join(dir, 'src');
  out = join(dir, 'out');
  await mkdir(src, { recursive: true });
});

afterEach(async () => {
  await worker?.close(true);
  worker = undefined;
  await server?.close();
  server = undefined;
  for (const name of queues.splice(0)) await deleteQueueKeys(name);
  await removeTempDir(dir);
});

/** The value of one sample (`name` with exactly these labels), or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = (match[2] ?? '').split(',').filter(Boolean).sort().join(',');
    if (found === wanted) return Number(match[3]);
  }
  return undefined;
}

async function scrape(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

function fileName(request: RecordedRequest): string | undefined {
  return request.parts.find((part) => part.kind === 'file')?.filename;
}

describe('/metrics after a worker has run against a parse API', () => {
  it('counts converted, skipped and failed documents, 429s and their waits, credits used and remaining, bytes, and the queue by state', async () => {
    const files = { 'a.csv': 'x,y\n1,2\n', 'b.csv': 'x,y\n1,2\n', 'c.csv': 'p,q,r\n1,2,3\n4,5,6\n', 'bad.csv': 'broken\n' };
    for (const [name, text] of Object.entries(files)) await writeFile(join(src, name), text);
    let throttledOnce = false;
    server = await startRecordingServer((request) => {
      if (request.method === 'GET' && request.path === '/v2/team/credit-usage') {
        return { status: 200, json: { success: true, data: { remaining_credits: 4321 } } };
      }
      const name = fileName(request);
      if (name === 'bad.csv') return errorReply(400, { error: 'Bad Request: cannot read bad.csv' });
      if (name === 'c.csv' && !throttledOnce) {
        throttledOnce = true;
        return errorReply(429, { error: 'Rate limit exceeded', headers: { 'retry-after': '1' } });
      }
      return okReply({ numPages: 2, creditsUsed: 3, contentType: 'text/csv' });
    });
    const queue = queueName();
    const listed = await enqueue({ source: src, redisUrl: SHARED_REDIS_URL, queue, attempts: 1 }).done;
    expect(listed.queued).toBe(4);

    const port = await freePort();
    worker = startWorker({ out, redisUrl: SHARED_REDIS_URL, queue, apiUrl: server.url, apiKey: KEY, concurrency: 1, metricsPort: port });
    let text = '';
    // Finished documents first; BullMQ moves the failed job to its failed set just after the manifest line.
    await waitFor('four documents finished and counted in the queue', async () => {
      text = await scrape(port);
      return sample(text, 'docmill_queue_jobs', { state: 'completed' }) === 3 && sample(text, 'docmill_queue_jobs', { state: 'failed' }) === 1;
    });

    expect(sample(text, 'docmill_documents_total', { status: 'converted' })).toBe(2);
    expect(sample(text, 'docmill_documents_total', { status: 'skipped' })).toBe(1);
    expect(sample(text, 'docmill_documents_total', { status: 'failed' })).toBe(1);
    expect(sample(text, 'docmill_failures_total', { code: 'BAD_REQUEST' })).toBe(1);
    expect(sample(text, 'docmill_parse_requests_total', { status: '200' })).toBe(2);
    expect(sample(text, 'docmill_parse_requests_total', { status: '400' })).toBe(1);
    expect(sample(text, 'docmill_parse_requests_total', { status: '429' })).toBe(1);
    expect(sample(text, 'docmill_throttled_total', { kind: 'rate' })).toBe(1);
    // A rate 429 that tells its wait teaches the pace, which holds every worker back: the queue is not paused for it
    // (docs/limits-and-retries.md); the document itself still waits the Retry-After.
    expect(sample(text, 'docmill_queue_rate_limit_pauses_total')).toBe(0);
    // The 429's Retry-After (1 s) plus up to 250 ms of jitter.
    const waited = sample(text, 'docmill_retry_after_wait_seconds_total') ?? 0;
    expect(waited).toBeGreaterThanOrEqual(1);
    expect(waited).toBeLessThan(1.25);
    expect(sample(text, 'docmill_pages_total')).toBe(4);
    expect(sample(text, 'docmill_credits_used_total')).toBe(6);
    expect(sample(text, 'docmill_credits_remaining')).toBe(4321);
    // a, b and bad read once each, c twice (before and after its 429).
    const size = (name: keyof typeof files) => Buffer.byteLength(files[name]);
    expect(sample(text, 'docmill_source_bytes_read_total')).toBe(size('a.csv') + size('b.csv') + 2 * size('c.csv') + size('bad.csv'));
    expect(sample(text, 'docmill_output_bytes_written_total')).toBeGreaterThan(2 * '# ok'.length);
    for (const state of ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']) {
      expect(sample(text, 'docmill_queue_jobs', { state }), state).toBe(0);
    }
    for (const reason of ['credits', 'auth', 'rate', 'budget', 'manual']) expect(sample(text, 'docmill_queue_paused', { reason }), reason).toBe(0);

    const creditReads = server.requests.filter((request) => request.path === '/v2/team/credit-usage');
    expect(creditReads.length).toBeGreaterThanOrEqual(1);
    expect(creditReads[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(text).not.toContain(KEY);
    // Bounded labels: no file name reaches a label.
    expect(text).not.toMatch(/\.csv/);
  });

  it('shows a queue paused for credits with its documents waiting, and no remaining credits where the API has no credit-usage endpoint', async () => {
    await writeFile(join(src, 'one.csv'), 'a\n1\n');
    await writeFile(join(src, 'two.csv'), 'a\n2\n');
    server = await startRecordingServer((request) => (request.method === 'GET' ? errorReply(404) : errorReply(402)));
    const queue = queueName();
    await enqueue({ source: src, redisUrl: SHARED_REDIS_URL, queue }).done;
    const port = await freePort();
    worker = startWorker({ out, redisUrl: SHARED_REDIS_URL, queue, apiUrl: server.url, apiKey: KEY, concurrency: 1, metricsPort: port });
    const text = await waitFor('the queue paused for credits', async () => {
      const body = await scrape(port);
      return sample(body, 'docmill_queue_paused', { reason: 'credits' }) === 1 && sample(body, 'docmill_queue_jobs', { state: 'waiting' }) === 2 ? body : undefined;
    });
    expect(sample(text, 'docmill_queue_paused', { reason: 'auth' })).toBe(0);
    expect(sample(text, 'docmill_documents_total', { status: 'failed' })).toBeUndefined();
    expect(sample(text, 'docmill_parse_requests_total', { status: '402' })).toBeGreaterThanOrEqual(1);
    expect(server.requests.some((request) => request.path === '/v2/team/credit-usage')).toBe(true);
    expect(sample(text, 'docmill_credits_remaining')).toBeUndefined();
    expect(text).toContain('# TYPE docmill_credits_remaining gauge');
  });
});

describe('/readyz, the probe a scheduler reads before giving a worker work', () => {
  it('answers ready while the worker takes documents, 503 while it drains on close, and /healthz stays 200', async () => {
    await writeFile(join(src, 'slow.csv'), 'a\n1\n');
    let release = (): void => undefined;
    const held = new Promise<void>((resolveHeld) => (release = resolveHeld));
    let sent = false;
    server = await startRecordingServer(async (request) => {
      if (request.method === 'GET') return errorReply(404);
      sent = true;
      await held;
      return okReply({ numPages: 1, contentType: 'text/csv' });
    });
    const queue = queueName();
    await enqueue({ source: src, redisUrl: SHARED_REDIS_URL, queue }).done;
    const port = await freePort();
    const started = startWorker({ out, redisUrl: SHARED_REDIS_URL, queue, apiUrl: server.url, apiKey: KEY, concurrency: 1, metricsPort: port });
    worker = started;
    const probe = (path: string) => fetch(`http://127.0.0.1:${port}${path}`);
    const ready = await waitFor('the worker ready', async () => {
      const response = await probe('/readyz').catch(() => undefined);
      return response?.status === 200 ? response.text() : undefined;
    });
    expect(ready).toBe('ready\n');
    await waitFor('the document sent to the API', () => sent);

    const closing = started.close();
    const draining = await waitFor('the worker draining', async () => {
      const response = await probe('/readyz');
      return response.status === 503 ? response.text() : undefined;
    });
    expect(draining).toContain('stopping');
    expect((await probe('/healthz')).status).toBe(200);
    release();
    // The document in flight when the drain began is finished, not handed back.
    const summary = await closing;
    expect(summary?.counts.converted).toBe(1);
  });
});

describe('why the queue is paused', () => {
  it('says rate while a 429 paces the queue, manual when paused by hand', async () => {
    const logger = createLogger({ level: 'silent' });
    const resources = new Resources(logger);
    try {
      const handle = resources.add('queue', await openQueue({ redisUrl: SHARED_REDIS_URL, queue: queueName() }, 'named', logger), (h) => h.close());
      const metrics = new DocmillMetrics();
      await observeForMetrics(resources, metrics, { handle, backend: resources.add('parse backend', new LocalParseEngine({ size: 1 }), (e) => e.close()), api: {}, metricsPort: 0 }, logger);
      const paused = async () => {
        const text = await metrics.registry.metrics();
        return Object.fromEntries(['credits', 'auth', 'rate', 'budget', 'manual'].map((reason) => [reason, sample(text, 'docmill_queue_paused', { reason })]));
      };
      expect(await paused()).toEqual({ credits: 0, auth: 0, rate: 0, budget: 0, manual: 0 });
      await handle.queue.rateLimit(60_000);
      expect(await paused()).toEqual({ credits: 0, auth: 0, rate: 1, budget: 0, manual: 0 });
      await handle.queue.removeRateLimitKey();
      await handle.queue.pause();
      expect(await paused()).toEqual({ credits: 0, auth: 0, rate: 0, budget: 0, manual: 1 });
      await handle.control.pause('auth', 'the key was refused');
      expect(await paused()).toEqual({ credits: 0, auth: 1, rate: 0, budget: 0, manual: 0 });
      expect(sample(await metrics.registry.metrics(), 'docmill_engine_threads')).toBe(1);
    } finally {
      await resources.close();
    }
  });
});

describe('one scrape', () => {
  it('never shows a job finished in the queue that the counters beside it have not counted yet', async () => {
    const metrics = new DocmillMetrics();
    let completed = 0;
    metrics.observeQueue({
      // A worker finishes a document while the scrape reads Redis: counted first, then its job marked completed, as
      // the pipeline records it.
      getJobCounts: async () => {
        await new Promise((resolveLater) => setTimeout(resolveLater, 5));
        metrics.documents.inc({ status: 'converted' });
        completed++;
        return { completed };
      },
      getRateLimitTtl: async () => 0,
      pauseReason: async () => undefined,
    });
    for (let scrape = 1; scrape <= 3; scrape++) {
      const text = await metrics.text();
      expect(sample(text, 'docmill_queue_jobs', { state: 'completed' })).toBe(scrape);
      expect(sample(text, 'docmill_documents_total', { status: 'converted' })).toBe(scrape);
    }
  });
});

describe('the queue gauges when Redis cannot be reached', () => {
  it('leaves them out and still answers the scrape', async () => {
    const deadPort = await freePort();
    const redis = new Redis({ host: '127.0.0.1', port: deadPort, maxRetriesPerRequest: null, retryStrategy: () => 200 });
    redis.on('error', () => undefined);
    const queue = new Queue(`metrics-${randomUUID()}`, { connection: redis });
    queue.on('error', () => undefined);
    try {
      const metrics = new DocmillMetrics();
      metrics.observeQueue({
        getJobCounts: (...states) => queue.getJobCounts(...states),
        getRateLimitTtl: () => queue.getRateLimitTtl(),
        pauseReason: async () => ((await queue.isPaused()) ? { kind: 'manual' } : undefined),
      });
      metrics.documents.inc({ status: 'converted' });
      const text = await metrics.registry.metrics();
      expect(sample(text, 'docmill_documents_total', { status: 'converted' })).toBe(1);
      expect(text).not.toMatch(/^docmill_queue_jobs\{/m);
      expect(text).not.toMatch(/^docmill_queue_paused\{/m);
    } finally {
      // Closing a queue that never connected waits for the connection: drop the socket instead.
      redis.disconnect();
    }
  });
});

describe('the engine pool gauges (docmill serve --metrics-port, and workers on the local engine)', () => {
  it('report the threads, the busy ones and the documents waiting for one', async () => {
    const pool = new EngineThreadPool({ size: 1 });
    const metrics = new DocmillMetrics();
    try {
      expect(sample(await metrics.registry.metrics(), 'docmill_engine_threads')).toBeUndefined();
      metrics.observePool(pool);
      const options = parseOptionsSchema.parse({});
      const csv = new TextEncoder().encode('a,b\n1,2\n');
      const first = pool.run(csv, 'one.csv', options);
      const second = pool.run(csv, 'two.csv', options);
      const busy = await metrics.registry.metrics();
      expect(sample(busy, 'docmill_engine_threads')).toBe(1);
      expect(sample(busy, 'docmill_engine_threads_busy')).toBe(1);
      expect(sample(busy, 'docmill_engine_tasks_queued')).toBe(1);
      await Promise.all([first, second]);
      const idle = await metrics.registry.metrics();
      expect(sample(idle, 'docmill_engine_threads_busy')).toBe(0);
      expect(sample(idle, 'docmill_engine_tasks_queued')).toBe(0);
    } finally {
      await pool.close();
    }
  });
});

describe('docmill serve --metrics-port', () => {
  it("serves the engine pool's gauges and Node's process metrics beside the parse server", async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const stop = new AbortController();
    const context = {
      stdout: process.stdout,
      stderr: process.stderr,
      env: {},
      logger: createLogger({ level: 'silent' }),
      signal: stop.signal,
      setExitCode: () => undefined,
    };
    const serving = serveCommand({ host: '127.0.0.1', port: String(port), maxConcurrency: '2', auth: true, metricsPort: String(metricsPort) }, context);
    try {
      await waitFor('serve listening', async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok);
      const body = new FormData();
      body.append('file', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'table.csv');
      const parsed = await fetch(`http://127.0.0.1:${port}/v2/parse`, { method: 'POST', body });
      expect(parsed.status).toBe(200);
      const text = await scrape(metricsPort);
      expect(sample(text, 'docmill_engine_threads')).toBe(2);
      expect(sample(text, 'docmill_engine_threads_busy')).toBe(0);
      expect(sample(text, 'docmill_engine_tasks_queued')).toBe(0);
      expect(text).toMatch(/^docmill_process_cpu_seconds_total /m);
      const readiness = await fetch(`http://127.0.0.1:${metricsPort}/readyz`);
      expect(readiness.status).toBe(200);
      expect(await readiness.text()).toBe('ready\n');
    } finally {
      stop.abort();
      await serving;
    }
  });
});
