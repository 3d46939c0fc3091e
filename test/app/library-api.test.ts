/**
 * The library API (`import { parseFile, run, enqueue, startWorker } from 'docmill'`), used as a service would use
 * it: the built package entry, the embedded local engine, the shared Redis on 127.0.0.1:6379.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  enqueue,
  LocalParseEngine,
  localFileSource,
  parseFile,
  run,
  startWorker,
  type DocumentOutcome,
  type PipelineEvent,
  type ParseData,
} from '../../src/index.js';
import { embeddedStateDir } from '../../src/queue/embedded-redis.js';
import { documentCounts } from '../../src/queue/document-counts.js';
import { documentsInJob } from '../../src/queue/job-data.js';
import { deleteQueueKeys, SHARED_REDIS_URL } from '../helpers/docmill-cli.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { readManifest } from '../pipeline/pipeline-fixtures.js';

let dir: string;
let src: string;
let out: string;
const queues: string[] = [];

function queueName(): string {
  const name = `lib-${randomUUID()}`;
  queues.push(name);
  return name;
}

beforeEach(async () => {
  dir = await makeTempDir();
  src = join(dir, 'src');
  out = join(dir, 'out');
  await mkdir(join(src, 'mail'), { recursive: true });
  await writeFile(join(src, 'prices.csv'), 'item,price\napple,3\npear,4\n');
  await writeFile(join(src, 'note.html'), '<html><body><h1>Quarterly note</h1><p>Sales grew.</p></body></html>');
  await writeFile(join(src, 'broken.pdf'), '%PDF-1.4\n1 0 obj << /Type /Catalog >> cut short here');
  await writeFile(join(src, 'mail', 'a.msg'), 'an Outlook message docmill does not convert');
  await writeFile(join(src, 'mail', 'b.msg'), 'another one');
});

afterEach(async () => {
  for (const name of queues.splice(0)) await deleteQueueKeys(name);
  await removeTempDir(dir);
});

describe('parseFile', () => {
  it('gives the contract data of a document on the local engine, with no key and no network', async () => {
    const data: ParseData = await parseFile(join(src, 'prices.csv'));
    expect(data.markdown).toContain('| apple | 3 |');
    expect(data.metadata?.contentType).toBe('text/csv');
  });

  it('redacts personal data on the local engine when redactPII is asked for', async () => {
    await writeFile(join(src, 'contact.html'), '<html><body><p>Write to Laura Bennett at laura.bennett@example.org.</p></body></html>');
    const data = await parseFile(join(src, 'contact.html'), { parseOptions: { redactPII: true } });
    expect(data.markdown).toBe('Write to <PERSON> at <EMAIL>.');
  });
});

describe('LocalParseEngine.parse', () => {
  it('refuses the promise of localFileSource, its await forgotten, with FILE_SOURCE_INVALID saying so', async () => {
    const engine = new LocalParseEngine({ size: 1 });
    try {
      const pending = localFileSource(join(src, 'prices.csv'));
      await expect(engine.parse(pending as unknown as Awaited<typeof pending>, undefined)).rejects.toMatchObject({
        code: 'FILE_SOURCE_INVALID',
        message: expect.stringContaining('await localFileSource(path)') as unknown,
      });
      // The promise handed over by mistake settles before the folder goes.
      await pending;
      const data = (await engine.parse(await localFileSource(join(src, 'prices.csv')), undefined)).data;
      expect(data.markdown).toContain('| apple | 3 |');
    } finally {
      await engine.close();
    }
  });
});

describe('run', () => {
  it('reports each document as an event and as an async iterator, and resolves to a summary grouped by cause', async () => {
    const queue = queueName();
    const handle = run({ source: src, out, redisUrl: SHARED_REDIS_URL, queue, concurrency: 2 });
    const emitted: DocumentOutcome[] = [];
    handle.on('document', (event: Extract<PipelineEvent, { type: 'document' }>) => emitted.push(event.outcome));
    const iterated: PipelineEvent[] = [];
    const reading = (async () => {
      for await (const event of handle) iterated.push(event);
    })();
    const summary = await handle.done;
    await reading;

    expect(summary.outcome).toBe('completed');
    expect(summary.counts).toMatchObject({ converted: 2, failed: 1, notConverted: 2, skipped: 0 });
    expect(summary.failures).toEqual([{ cause: 'corrupt or empty', count: 1, extensions: { '.pdf': 1 } }]);
    expect(summary.notConverted).toEqual([{ cause: 'unsupported extension', count: 2, extensions: { '.msg': 2 } }]);
    expect(emitted.map((outcome) => `${outcome.status} ${outcome.relativePath}`).sort()).toEqual([
      'converted note.html',
      'converted prices.csv',
      'failed broken.pdf',
    ]);
    // Each document event carries the manifest line it added.
    for (const outcome of emitted) expect(outcome.record).toMatchObject({ path: outcome.relativePath, status: outcome.status });
    expect(iterated.filter((event) => event.type === 'document')).toHaveLength(3);
    expect(iterated.filter((event) => event.type === 'not-converted').map((event) => event.type === 'not-converted' && event.path).sort()).toEqual([
      'mail/a.msg',
      'mail/b.msg',
    ]);
    const manifest = await readManifest(out);
    expect(manifest.filter((line) => line.reason === 'unsupported extension')).toHaveLength(2);
    expect(await readFile(join(out, 'prices.csv.md'), 'utf8')).toContain('| pear | 4 |');
  });

  it('closes what it opened when a later step fails to open: the embedded redis-server is stopped', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const handle = run({ source: src, out, metricsPort: port });
      await expect(handle.done).rejects.toThrow(/EADDRINUSE/);
      const stateDir = embeddedStateDir(out);
      const running = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes('redis-server') && line.includes(stateDir));
      expect(running).toEqual([]);
    } finally {
      blocker.close();
    }
  });

  it('resumes at once on a shared Redis: jobs a dead run left active are handed back, not waited for', async () => {
    const queue = queueName();
    // A run that died: its job is active with a ten-minute lock, and nothing of it is connected any more.
    const listed = await enqueue({ source: src, redisUrl: SHARED_REDIS_URL, queue, include: ['prices.csv'] }).done;
    expect(listed.queued).toBe(1);
    const connection = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null });
    const dead = new Worker(queue, () => new Promise(() => undefined), { connection, prefix: '{docmill}', lockDuration: 600_000, autorun: true });
    const probe = new Queue(queue, { connection, prefix: '{docmill}' });
    for (let tries = 0; (await probe.getActiveCount()) === 0 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await probe.getActiveCount()).toBe(1);
    await dead.disconnect();
    await probe.close();
    connection.disconnect();

    const summary = await run({ source: src, out, redisUrl: SHARED_REDIS_URL, queue, include: ['prices.csv'] }).done;
    expect(summary.outcome).toBe('completed');
    expect(summary.counts.converted).toBe(1);
    expect(await readFile(join(out, 'prices.csv.md'), 'utf8')).toContain('| apple | 3 |');
  });
});

describe('files a run does not convert', () => {
  it('records dangling and out-of-source links as skipped with their reason, and still exits clean', async () => {
    const outside = join(dir, 'outside.csv');
    await writeFile(outside, 'a\n1\n');
    await symlink(join(src, 'missing.csv'), join(src, 'dangling.csv'));
    await symlink(outside, join(src, 'escape.csv'));
    const queue = queueName();
    const summary = await run({ source: src, out, redisUrl: SHARED_REDIS_URL, queue, include: ['*.csv'] }).done;
    expect(summary.outcome).toBe('completed');
    expect(summary.counts).toMatchObject({ converted: 1, failed: 0, notConverted: 2 });
    const byPath = new Map((await readManifest(out)).map((line) => [line.path, line]));
    expect(byPath.get('dangling.csv')).toMatchObject({ status: 'skipped', reason: 'dangling symbolic link' });
    expect(byPath.get('escape.csv')).toMatchObject({ status: 'skipped', reason: 'symbolic link outside the source' });
  });
});

describe('startWorker with a source (docmill watch)', () => {
  it('queues with the attempts it was given, converts, and stops on close()', async () => {
    const queue = queueName();
    const worker = startWorker({ source: src, out, redisUrl: SHARED_REDIS_URL, queue, attempts: 2, concurrency: 2, include: ['*.csv', '*.html'] });
    const converted: string[] = [];
    await new Promise<void>((resolve) => {
      worker.on('document', ({ outcome }: Extract<PipelineEvent, { type: 'document' }>) => {
        if (outcome.status === 'converted') converted.push(outcome.relativePath);
        if (converted.length === 2) resolve();
      });
    });
    const inspect = new Queue(queue, { connection: { url: SHARED_REDIS_URL }, prefix: '{docmill}' });
    const jobs = await inspect.getJobs(['completed', 'waiting', 'active']);
    await inspect.close();
    // Small files share a job (a group): the documents are counted, each job carries the attempts.
    expect(jobs.reduce((sum, job) => sum + documentsInJob(job.id ?? ''), 0)).toBe(2);
    expect(jobs.every((job) => job.opts.attempts === 2)).toBe(true);
    const summary = await worker.close();
    expect(summary).toMatchObject({ outcome: 'closed', counts: { converted: 2 } });
  });
});

describe('finished jobs and Redis', () => {
  it('queued jobs carry no retention of their own; a worker keeps its completed jobs, a run keeps none', async () => {
    const include = ['prices.csv', 'note.html'];
    const queue = queueName();
    expect((await enqueue({ source: src, redisUrl: SHARED_REDIS_URL, queue, include }).done).queued).toBe(2);
    const inspect = new Queue(queue, { connection: { url: SHARED_REDIS_URL }, prefix: '{docmill}' });
    try {
      const waiting = await inspect.getJobs(['waiting']);
      expect(waiting.reduce((sum, job) => sum + documentsInJob(job.id ?? ''), 0)).toBe(2);
      for (const job of waiting) expect(Object.keys(job.opts).sort()).toEqual(['attempts', 'backoff', 'jobId']);
      const worker = startWorker({ out, redisUrl: SHARED_REDIS_URL, queue, concurrency: 2 });
      const completed = async () => (await documentCounts(inspect, 'completed')).completed ?? 0;
      for (let tries = 0; (await completed()) < 2 && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await completed()).toBe(2);
      expect((await worker.close())?.counts.converted).toBe(2);
    } finally {
      await inspect.close();
    }

    const runQueue = queueName();
    const summary = await run({ source: src, out: join(dir, 'run-out'), redisUrl: SHARED_REDIS_URL, queue: runQueue, include }).done;
    expect(summary.counts.converted).toBe(2);
    const inspectRun = new Queue(runQueue, { connection: { url: SHARED_REDIS_URL }, prefix: '{docmill}' });
    try {
      expect(await inspectRun.getCompletedCount()).toBe(0);
    } finally {
      await inspectRun.close();
    }
  });
});
