/**
 * The credit budget (`maxCredits`, `--max-credits`): shared in Redis by every worker of a queue, checked before each
 * document is sent, counted from the API's `creditsUsed`. A loopback parse API answers each file with known credits.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/app/run.js';
import { CreditBudget } from '../../src/queue/credit-budget.js';
import { QueueControl } from '../../src/queue/queue-control.js';
import { QUEUE_PREFIX } from '../../src/queue/queue-names.js';
import { corpusFile } from '../helpers/corpus.js';
import { deleteQueueKeys, SHARED_REDIS_URL, uniqueQueueName } from '../helpers/docmill-cli.js';
import { errorReply, okReply, startRecordingServer, type RecordingServer } from '../helpers/recording-server.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { readManifest } from './pipeline-fixtures.js';

const THREE_PAGES = fileURLToPath(new URL('../engine/pdf/fixtures/acme-report-3p.pdf', import.meta.url));

/**
 * The batch, in listing order, with each file's estimate (pdfinfo page counts: see credits.test.ts) and what the
 * API charges for it. b.html is charged 2 against an estimate of 1: the budget counts what the API says.
 */
const BATCH = [
  { name: 'a.pdf', from: corpusFile('pdf/code_and_formula.pdf'), estimate: 2, charged: 2 },
  { name: 'b.html', text: '<html><body><h1>Note</h1><p>Sales grew.</p></body></html>', estimate: 1, charged: 2 },
  { name: 'c.pdf', from: corpusFile('pdf/multi-column-2p.pdf'), estimate: 2, charged: 2 },
  { name: 'd.csv', text: 'item,price\napple,3\n', estimate: 1, charged: 1 },
  { name: 'e.pdf', from: THREE_PAGES, estimate: 3, charged: 3 },
] as const;

let redis: Redis;
const queues: string[] = [];

beforeAll(async () => {
  redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  for (const queue of queues) await deleteQueueKeys(queue);
  redis.disconnect();
});

function queueName(): string {
  const name = uniqueQueueName();
  queues.push(name);
  return name;
}

describe('CreditBudget', () => {
  it('lets only one of two workers reserve the last credits', async () => {
    const name = queueName();
    const [first, second] = [new CreditBudget(redis, name), new CreditBudget(redis, name)];
    await first.setLimit(10);
    await first.settle('earlier', 7);
    const replies = await Promise.all([first.reserve('job-1', 2, 60_000), second.reserve('job-2', 2, 60_000)]);
    expect(replies.map((reply) => reply.ok).sort()).toEqual([false, true]);
    expect(await first.state()).toEqual({ limit: 10, used: 7, reserved: 2 });
  });

  it('counts what the answer used, drops released and expired reservations, and keeps a held one', async () => {
    const budget = new CreditBudget(redis, queueName());
    await budget.setLimit(10);
    expect((await budget.reserve('job-1', 4, 60_000)).ok).toBe(true);
    expect((await budget.reserve('job-2', 4, 60_000)).ok).toBe(true);
    // 8 reserved: a third document of 4 would pass 10.
    expect((await budget.reserve('job-3', 4, 60_000)).ok).toBe(false);
    // A job that holds a reservation (processed again after its page ranges) is not checked again.
    expect((await budget.reserve('job-2', 4, 60_000)).ok).toBe(true);
    await budget.settle('job-1', 5);
    await budget.release('job-2');
    expect(await budget.state()).toEqual({ limit: 10, used: 5, reserved: 0 });
    // A reservation whose worker died expires.
    await budget.reserve('job-4', 5, 1_000, Date.now() - 5_000);
    expect((await budget.reserve('job-5', 5, 60_000)).ok).toBe(true);
  });

  it('drops a reservation by its token only: a late release cannot drop the one a later start of the job re-entered', async () => {
    const budget = new CreditBudget(redis, queueName());
    await budget.setLimit(10);
    const first = await budget.reserve('job-1', 3, 60_000);
    const again = await budget.reserve('job-1', 3, 60_000);
    if (!first.ok || !again.ok) throw new Error('a reservation was refused');
    expect(again.token).not.toBe(first.token);
    expect(again.expiresAt).toBe(first.expiresAt);
    expect(await budget.state()).toEqual({ limit: 10, used: 0, reserved: 3 });
    // The first start's release, retried late: the reservation is the later start's now.
    expect(await budget.release('job-1', first.token)).toBe(false);
    await budget.settle('job-1', 2, first.token);
    expect(await budget.state()).toEqual({ limit: 10, used: 2, reserved: 3 });
    expect(await budget.release('job-1', again.token)).toBe(true);
    expect(await budget.state()).toEqual({ limit: 10, used: 2, reserved: 0 });
  });

  it('reads reservations written before they carried a token', async () => {
    const name = queueName();
    const budget = new CreditBudget(redis, name);
    await budget.setLimit(10);
    await redis.hset(`${QUEUE_PREFIX}:${name}:docmill:budget:reserved`, 'old-job', `4:${Date.now() + 60_000}`);
    expect(await budget.state()).toEqual({ limit: 10, used: 0, reserved: 4 });
    expect(await budget.holds('old-job')).toBe(true);
    expect((await budget.reserve('new-job', 7, 60_000)).ok).toBe(false);
    const reentered = await budget.reserve('old-job', 4, 60_000);
    expect(reentered.ok).toBe(true);
    expect(await budget.state()).toEqual({ limit: 10, used: 0, reserved: 4 });
    expect(await budget.release('old-job')).toBe(true);
    expect(await budget.state()).toEqual({ limit: 10, used: 0, reserved: 0 });
  });

  it('starts a first budget at 0, and keeps the count when the budget is raised', async () => {
    const budget = new CreditBudget(redis, queueName());
    await budget.settle('before any budget', 3);
    await budget.setLimit(5);
    expect(await budget.state()).toMatchObject({ limit: 5, used: 0 });
    await budget.settle('job', 4);
    await budget.setLimit(8);
    expect(await budget.state()).toMatchObject({ limit: 8, used: 4 });
    await budget.setLimit(undefined);
    expect((await budget.state()).limit).toBeUndefined();
  });
});

describe('run with maxCredits', () => {
  let dir: string;
  let src: string;
  let out: string;
  let server: RecordingServer;
  const sentFiles = () => server.requests.map((request) => request.parts.find((part) => part.name === 'file')?.filename).sort();

  beforeEach(async () => {
    dir = await makeTempDir();
    src = join(dir, 'src');
    out = join(dir, 'out');
    await mkdir(src, { recursive: true });
    for (const file of BATCH) {
      if ('from' in file) await copyFile(file.from, join(src, file.name));
      else await writeFile(join(src, file.name), file.text);
    }
    server = await startRecordingServer((request) => {
      const filename = request.parts.find((part) => part.name === 'file')?.filename;
      if (filename === 'refused.csv') return errorReply(400, { error: 'Invalid multipart form-data request.' });
      const file = BATCH.find((candidate) => candidate.name === filename);
      return okReply({ numPages: file?.estimate ?? 1, creditsUsed: file?.charged ?? 1 });
    });
  });

  afterEach(async () => {
    await server.close();
    await removeTempDir(dir);
  });

  it('stops before the document that would pass the budget, leaves the rest waiting, and a rerun with a higher budget finishes', async () => {
    const queue = queueName();
    const options = { source: src, out, redisUrl: SHARED_REDIS_URL, queue, apiUrl: server.url, apiKey: 'test-key', concurrency: 1 };
    // a (2) + b (1) + c (2) reach 5 without passing it; d (1) would pass it: used is 6 by then (b cost 2).
    const first = await run({ ...options, maxCredits: 5 }).done;
    expect(first.outcome).toBe('stopped-budget');
    expect(first.budget).toEqual({ maxCredits: 5, used: 6, waiting: 2 });
    expect(first.counts).toMatchObject({ converted: 3, failed: 0, credits: 6 });
    expect(sentFiles()).toEqual(['a.pdf', 'b.html', 'c.pdf']);

    const bull = new Queue(queue, { connection: redis, prefix: QUEUE_PREFIX });
    try {
      const control = new QueueControl(redis, bull);
      expect((await control.pauseReason())?.kind).toBe('budget');
      expect(await bull.getJobCounts('waiting', 'failed')).toEqual({ waiting: 2, failed: 0 });
      expect((await readManifest(out)).filter((line) => line.status === 'failed')).toEqual([]);

      // The same batch goes on with the credits already used: d (6 + 1) and e (7 + 3) fit in 10.
      const second = await run({ ...options, maxCredits: 10 }).done;
      expect(second.outcome).toBe('completed');
      expect(second.counts).toMatchObject({ converted: 2, failed: 0 });
      expect(sentFiles()).toEqual(['a.pdf', 'b.html', 'c.pdf', 'd.csv', 'e.pdf']);
      expect(await control.budget.state()).toEqual({ limit: 10, used: 10, reserved: 0 });

      // A later run is a new batch: its count starts at 0, and nothing is left to send.
      const third = await run({ ...options, maxCredits: 1 }).done;
      expect(third.outcome).toBe('completed');
      expect(third.counts).toMatchObject({ converted: 0, skipped: 5 });
      expect(await control.budget.state()).toEqual({ limit: 1, used: 0, reserved: 0 });
      expect(server.requests).toHaveLength(5);
    } finally {
      await bull.close();
    }
  });

  it('counts nothing for a document the API refuses, and releases its reservation', async () => {
    await writeFile(join(src, 'refused.csv'), 'item\nx\n');
    const queue = queueName();
    const summary = await run({ source: src, out, redisUrl: SHARED_REDIS_URL, queue, apiUrl: server.url, apiKey: 'test-key', maxCredits: 100 }).done;
    expect(summary.outcome).toBe('completed');
    expect(summary.counts).toMatchObject({ converted: 5, failed: 1 });
    // 2 + 2 + 2 + 1 + 3 charged; the refused document (estimate 1) neither counted nor left reserved.
    expect(await new CreditBudget(redis, queue).state()).toEqual({ limit: 100, used: 10, reserved: 0 });
  });

  it('keeps the reservation of a long PDF while its page ranges are parsed: no other document takes those credits', async () => {
    const long = join(dir, 'long');
    await mkdir(long);
    await copyFile(THREE_PAGES, join(long, 'acme.pdf'));
    await writeFile(join(long, 'z.csv'), 'item\nx\n');
    const queue = queueName();
    const options = { source: long, out, redisUrl: SHARED_REDIS_URL, queue, apiUrl: server.url, apiKey: 'test-key', splitPages: 1, concurrency: 1 };
    // acme.pdf needs 3 (three one-page ranges, one credit each) and z.csv 1: whichever reserves first, the other would
    // pass the budget of 3. Were the PDF's reservation dropped while it waits for its ranges, both would be sent.
    const first = await run({ ...options, maxCredits: 3 }).done;
    expect(first.outcome).toBe('stopped-budget');
    expect(server.requests.length).toBeLessThanOrEqual(3);
    // Ranges still queued when the queue paused wait with it; a higher budget finishes them and the CSV, each charged once.
    const second = await run({ ...options, maxCredits: 10 }).done;
    expect(second.outcome).toBe('completed');
    expect(server.requests).toHaveLength(4);
    expect(await new CreditBudget(redis, queue).state()).toEqual({ limit: 10, used: 4, reserved: 0 });
    // Each document converted once. Whichever went first in the first run is listed again by the second and found done
    // there (a `skipped` line); nothing failed.
    const manifest = await readManifest(out);
    expect(manifest.filter((line) => line.status === 'converted').map((line) => line.path).sort()).toEqual(['acme.pdf', 'z.csv']);
    expect(manifest.filter((line) => line.status !== 'converted' && line.status !== 'skipped')).toEqual([]);
  });

  it('sends a document that reserved its credits even when another one, refused, paused the queue meanwhile', async () => {
    const small = join(dir, 'small');
    await mkdir(small);
    for (const name of ['p', 'q', 'r', 's']) await writeFile(join(small, `${name}.csv`), `n\n${name}\n`);
    const queue = queueName();
    // Concurrency 8: all four race for the budget at once.
    const options = { source: small, out, redisUrl: SHARED_REDIS_URL, queue, apiUrl: server.url, apiKey: 'test-key', concurrency: 8 };
    expect((await run({ ...options, maxCredits: 2 }).done).budget).toEqual({ maxCredits: 2, used: 2, waiting: 2 });
    // Room for exactly one more: one of the two reserves it and is sent, the other is refused and waits.
    const second = (await run({ ...options, maxCredits: 3 }).done).budget;
    expect(second).toMatchObject({ maxCredits: 3, used: 3 });
    expect(server.requests).toHaveLength(3);
    // The refused one waits; so may the two converted the first time, when the run's listing queued them again
    // after the refusal had paused the queue (the worker starts before the listing): the next run finds them
    // unchanged and sends neither.
    expect([1, 3]).toContain(second?.waiting);
    expect((await run({ ...options, maxCredits: 4 }).done).outcome).toBe('completed');
    expect(server.requests).toHaveLength(4);
  });
});
