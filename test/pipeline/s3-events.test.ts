/**
 * `docmill watch s3://… --events <queue>` end to end, as a user runs it: the built CLI against s3rver (S3), fauxqs
 * (SQS) or RabbitMQ (AMQP), the shared Redis and a loopback parse server. The tests put the objects and send the
 * notifications S3 (or MinIO) would send. What is checked is what a user sees: each document parsed once, outputs
 * that follow their sources, a manifest that says so, and an event queue left empty.
 */
import { CopyObjectCommand, DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type ChannelModel } from 'amqplib';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  builtCliExists,
  deleteQueueKeys,
  docmillEnv,
  killAllDocmill,
  QUEUE_PREFIX,
  SHARED_REDIS_URL,
  startDocmill,
  uniqueQueueName,
  waitFor,
  type DocmillProcess,
} from '../helpers/docmill-cli.js';
import { expectedMarkdown, startFaultParseServer, type FaultParseServer } from '../helpers/fault-parse-server.js';
import { startSqs, type FauxqsHandle } from '../helpers/fauxqs.js';
import { eventBridgeEvent, minioNotification, s3Notification, snsWrapped } from '../helpers/s3-notifications.js';
import { startS3rver, type S3rverHandle } from '../helpers/s3rver.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { lastLineByPath, readFailures, readManifest, recordedState } from './pipeline-fixtures.js';

const BUCKET = 'in';
const AMQP_URL = process.env.DOCMILL_TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
let s3: S3rverHandle;
let sqs: FauxqsHandle;
let server: FaultParseServer;
let home: string;
let out: string;
let queue: string;
let prefix: string;

beforeAll(async () => {
  if (!builtCliExists()) throw new Error('dist/ is missing: run `npm run build` before the pipeline tests');
  [s3, sqs] = await Promise.all([startS3rver([BUCKET]), startSqs()]);
});

afterAll(async () => {
  await Promise.all([s3?.close(), sqs?.close()]);
});

beforeEach(async () => {
  [home, out] = await Promise.all([makeTempDir(), makeTempDir()]);
  queue = uniqueQueueName();
  prefix = `docs-${randomUUID().slice(0, 8)}`;
  server = await startFaultParseServer({ latencyMs: 5 });
});

afterEach(async () => {
  await killAllDocmill();
  await server.close();
  await deleteQueueKeys(queue);
  await Promise.all([removeTempDir(home), removeTempDir(out)]);
});

async function put(name: string, body: string): Promise<{ key: string; etag: string; size: number }> {
  const key = `${prefix}/${name}`;
  const response = await s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: Buffer.from(body) }));
  return { key, etag: response.ETag!.replaceAll('"', ''), size: Buffer.byteLength(body) };
}

/** Copies `from` to `to` (names below the test's prefix), as a rename does before it deletes `from`. */
async function copy(from: string, to: string, size: number): Promise<{ key: string; etag: string; size: number }> {
  const source = `${BUCKET}/${`${prefix}/${from}`.split('/').map(encodeURIComponent).join('/')}`;
  const key = `${prefix}/${to}`;
  const response = await s3.client.send(new CopyObjectCommand({ Bucket: BUCKET, Key: key, CopySource: source }));
  return { key, etag: response.CopyObjectResult!.ETag!.replaceAll('"', ''), size };
}

async function removeObject(name: string): Promise<void> {
  await s3.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `${prefix}/${name}` }));
}

function created(object: { key: string; etag: string; size: number }) {
  return { kind: 'created' as const, bucket: BUCKET, ...object };
}

function cliEnv(): NodeJS.ProcessEnv {
  return docmillEnv({
    home,
    apiUrl: server.url,
    redisUrl: SHARED_REDIS_URL,
    extra: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' },
  });
}

/** `docmill watch s3://in/<prefix> --events <events>` into the local `out`. */
function watch(events: string[], extra: string[] = [], sqsEndpoint: string = sqs.endpoint, s3Endpoint: string = s3.endpoint): DocmillProcess {
  const sqsFlags = events[0]?.startsWith('http') ? ['--sqs-endpoint', sqsEndpoint] : [];
  return startDocmill(
    ['watch', `s3://${BUCKET}/${prefix}`, '--out', out, '--queue', queue, '--s3-endpoint', s3Endpoint, '--events', ...events, ...sqsFlags, '--relist-interval', '0', ...extra],
    cliEnv(),
  );
}

/** Jobs not finished in the BullMQ queue of the test. */
async function openJobs(): Promise<number> {
  const connection = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null });
  const jobs = new Queue(queue, { connection, prefix: QUEUE_PREFIX });
  try {
    const counts = await jobs.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
  } finally {
    await jobs.close();
    connection.disconnect();
  }
}

async function manifestStatus(path: string): Promise<string | undefined> {
  return lastLineByPath(await readManifest(out)).get(path)?.status;
}

async function exists(path: string): Promise<boolean> {
  return stat(join(out, path)).then(() => true, () => false);
}

describe('docmill watch --events (SQS)', () => {
  it('backfills what is there while reading events; a document seen by both is parsed once; every envelope converts', async () => {
    const { url } = sqs.createQueue(`backfill-${randomUUID()}`);
    const before = [await put('report one.pdf', 'one'), await put('a+b.html', '<p>a+b</p>'), await put('Übersicht 2026/données.csv', 'a,b\n1,2\n')];
    // Events for two of them wait in the queue when docmill starts: the listing and the events both report them.
    await sqs.send(url, s3Notification(created(before[0]!)));
    await sqs.send(url, snsWrapped(s3Notification(created(before[1]!))));
    const docmill = watch([url]);

    const later = [await put('later/日本語.html', '<p>later</p>'), await put('later/eb doc.html', '<p>eb</p>')];
    await sqs.send(url, s3Notification(created(later[0]!)));
    await sqs.send(url, eventBridgeEvent(created(later[1]!)));
    const paths = ['report one.pdf', 'a+b.html', 'Übersicht 2026/données.csv', 'later/日本語.html', 'later/eb doc.html'];
    await waitFor(
      'every document converted, the event queue and the job queue empty',
      async () => (await Promise.all(paths.map(manifestStatus))).every((status) => status === 'converted') && (await sqs.depth(url)) === 0 && (await openJobs()) === 0,
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    for (const path of paths) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      expect(server.requestsFor(name), path).toHaveLength(1);
    }
    expect(await readFile(join(out, 'a+b.html.md'), 'utf8')).toBe(expectedMarkdown('a+b.html', Buffer.byteLength('<p>a+b</p>')));
    expect(docmill.stderr).toMatch(/"events":"SQS|events.*http:\/\/sqs/);
    expect(docmill.stderr).toContain('"envelopes":["s3","sns","eventbridge","minio"]');
    expect(await readFailures(out)).toEqual([]);
    docmill.kill('SIGTERM');
    expect((await docmill.exited).code).toBe(0);
  }, 120_000);

  for (const removed of ['delete', 'keep'] as const) {
    it(`follows a removed event with --removed ${removed}: the manifest records it and the outputs are ${removed === 'delete' ? 'deleted' : 'kept'}`, async () => {
      const { url } = sqs.createQueue(`removed-${randomUUID()}`);
      const docmill = watch([url], ['--removed', removed, '--pages', '--blocks', '--chunks']);
      const object = await put('sub dir/gone soon.html', '<h1>Gone soon</h1><p>text</p>');
      await sqs.send(url, s3Notification(created(object)));
      const path = 'sub dir/gone soon.html';
      await waitFor('the document converted', async () => (await manifestStatus(path)) === 'converted', { timeoutMs: 60_000 });
      const outputs = ['.md', '.json', '.pages.json', '.blocks.json', '.chunks.jsonl'].map((suffix) => `${path}${suffix}`);
      for (const output of outputs) expect(await exists(output), output).toBe(true);

      await removeObject('sub dir/gone soon.html');
      await sqs.send(url, s3Notification({ kind: 'removed', bucket: BUCKET, key: object.key }));
      await waitFor('the removal recorded', async () => (await manifestStatus(path)) === 'removed', { timeoutMs: 30_000 });
      const line = lastLineByPath(await readManifest(out)).get(path);
      expect(line).toMatchObject({ status: 'removed', source: `s3://${BUCKET}/${object.key}`, outputs });
      expect(Date.parse(line!.at)).toBeGreaterThan(0);
      for (const output of outputs) expect(await exists(output), output).toBe(removed === 'keep');
      expect((await recordedState(out, path))?.removedAt !== undefined, 'the state marked removed').toBe(removed === 'keep');
      await waitFor('the queues empty', async () => (await sqs.depth(url)) === 0 && (await openJobs()) === 0);
      docmill.kill('SIGTERM');
      await docmill.exited;
    }, 120_000);
  }

  it('cancels a conversion running when its source is removed: what it writes is deleted, the removal recorded', async () => {
    const { url } = sqs.createQueue(`running-${randomUUID()}`);
    server.setMode({ latencyMs: (request) => (request.filename === 'slow.html' ? 3000 : 5) });
    const docmill = watch([url], ['--removed', 'delete']);
    const object = await put('slow.html', '<p>slow to parse</p>');
    await sqs.send(url, s3Notification(created(object)));
    await waitFor('the parse under way', () => server.requestsFor('slow.html').length === 1, { timeoutMs: 60_000 });
    await removeObject('slow.html');
    await sqs.send(url, s3Notification({ kind: 'removed', bucket: BUCKET, key: object.key }));
    await waitFor(
      'the removal recorded and the conversion ended',
      async () => {
        const lines = (await readManifest(out)).filter((line) => line.path === 'slow.html');
        return lines.some((line) => line.status === 'removed') && lines.some((line) => line.status === 'skipped') && (await openJobs()) === 0;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    // The conversion sees the removal once it has written (and deletes what it wrote) before the removal, which waits
    // out its grace, records it: the last line says the file is removed.
    expect((await readManifest(out)).filter((line) => line.path === 'slow.html').map((line) => [line.status, line.reason])).toEqual([
      ['skipped', 'source removed while it was converted; outputs deleted'],
      ['removed', 'source removed; outputs deleted'],
    ]);
    expect(await exists('slow.html.md')).toBe(false);
    expect(await recordedState(out, 'slow.html')).toBeUndefined();
    expect(await readFailures(out)).toEqual([]);
    docmill.kill('SIGTERM');
    await docmill.exited;
  }, 120_000);

  it('moves the outputs of a renamed object to its new key without parsing it, whichever event comes first, on two workers', async () => {
    const { url } = sqs.createQueue(`renamed-${randomUUID()}`);
    // The new key of the second rename is slow to read: its job is still reading when the old key's removal has
    // waited out its grace (10 s).
    const slow = await startSlowS3Proxy(s3.endpoint, (key) => key.endsWith('/new two.html'), 14_000);
    try {
      const docmill = watch([url], ['--removed', 'delete', '--chunks'], sqs.endpoint, slow.endpoint);
      const worker = startDocmill(['worker', '--out', out, '--queue', queue, '--redis', SHARED_REDIS_URL, '--s3-endpoint', slow.endpoint], cliEnv());
      const one = await put('old one.html', '<h1>One</h1><p>first</p>');
      const two = await put('old two.html', '<h1>Two</h1><p>second</p>');
      await sqs.send(url, s3Notification(created(one)));
      await sqs.send(url, s3Notification(created(two)));
      await waitFor('both converted', async () => (await manifestStatus('old one.html')) === 'converted' && (await manifestStatus('old two.html')) === 'converted', {
        timeoutMs: 60_000,
      });

      // Renamed, the removal reported first: the new key's job is queued within the removal's grace.
      const newOne = await copy('old one.html', 'moved/new one.html', one.size);
      await removeObject('old one.html');
      await sqs.send(url, s3Notification({ kind: 'removed', bucket: BUCKET, key: one.key }));
      await sqs.send(url, s3Notification(created(newOne)));
      // Renamed, the creation reported first, the new key slow to read: the removal waits for its job.
      const newTwo = await copy('old two.html', 'moved/new two.html', two.size);
      await removeObject('old two.html');
      await sqs.send(url, s3Notification(created(newTwo)));
      await sqs.send(url, s3Notification({ kind: 'removed', bucket: BUCKET, key: two.key }));

      await waitFor(
        'both renames followed',
        async () => {
          const byPath = lastLineByPath(await readManifest(out));
          return ['old one.html', 'old two.html'].every((path) => byPath.get(path)?.status === 'removed') && (await openJobs()) === 0;
        },
        { timeoutMs: 90_000, intervalMs: 250 },
      );
      const byPath = lastLineByPath(await readManifest(out));
      for (const name of ['one', 'two']) {
        expect(byPath.get(`moved/new ${name}.html`), name).toMatchObject({ status: 'skipped', reason: `same content as old ${name}.html` });
        expect(server.requestsFor(`new ${name}.html`), name).toHaveLength(0);
        expect(server.requestsFor(`old ${name}.html`), name).toHaveLength(1);
        for (const suffix of ['.md', '.json', '.chunks.jsonl']) {
          expect(await exists(`moved/new ${name}.html${suffix}`), `new ${name}${suffix}`).toBe(true);
          expect(await exists(`old ${name}.html${suffix}`), `old ${name}${suffix}`).toBe(false);
        }
      }
      expect(slow.delayed).toBeGreaterThan(0);
      expect(await readFailures(out)).toEqual([]);
      docmill.kill('SIGTERM');
      worker.kill('SIGTERM');
      await Promise.all([docmill.exited, worker.exited]);
    } finally {
      await slow.close();
    }
  }, 180_000);

  it('records an object created then deleted before it was fetched as skipped, not failed', async () => {
    const { url } = sqs.createQueue(`short-lived-${randomUUID()}`);
    const object = await put('short lived.html', '<p>short</p>');
    await removeObject('short lived.html');
    await sqs.send(url, s3Notification(created(object)));
    const docmill = watch([url]);
    await waitFor('the document recorded', async () => (await manifestStatus('short lived.html')) !== undefined, { timeoutMs: 60_000 });
    expect(lastLineByPath(await readManifest(out)).get('short lived.html')).toMatchObject({ status: 'skipped', reason: 'source removed before it was read', outputs: [] });
    await waitFor('the queues empty', async () => (await sqs.depth(url)) === 0 && (await openJobs()) === 0);
    expect(server.requests).toHaveLength(0);
    expect(await readFailures(out)).toEqual([]);
    docmill.kill('SIGTERM');
    await docmill.exited;
  }, 120_000);

  it('warns once of a queue without a redrive policy, logs an unreadable message once, and counts each time it comes back', async () => {
    const { url } = sqs.createQueue(`no-redrive-${randomUUID()}`, { visibilityTimeoutS: 1 });
    await sqs.send(url, 'not JSON: a message docmill cannot read');
    const docmill = watch([url], ['--metrics-port', '0']);
    const port = await waitFor('the metrics port in the log', () => /"port":(\d+)[^\n]*metrics on \/metrics/.exec(docmill.stderr)?.[1], { timeoutMs: 30_000 });
    const redeliveries = async () => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return Number(/^docmill_event_messages_unreadable_redelivered_total (\d+)/m.exec(text)?.[1] ?? 0);
    };
    await waitFor('the message handed back twice', async () => (await redeliveries()) >= 2, { timeoutMs: 30_000, intervalMs: 250 });
    const count = (text: string) => docmill.stderr.split('\n').filter((line) => line.includes(text)).length;
    expect(count('no redrive policy')).toBe(1);
    expect(docmill.stderr).toContain(url);
    expect(count('event message unreadable')).toBe(1);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toMatch(/^docmill_event_messages_unreadable_total 1$/m);
    docmill.kill('SIGTERM');
    await docmill.exited;
  }, 120_000);

  it('gets the message back when killed after queueing but before deleting it, and parses nothing twice', async () => {
    const { url } = sqs.createQueue(`killed-${randomUUID()}`, { visibilityTimeoutS: 2 });
    const object = await put('once.html', '<p>once</p>');
    const proxy = await startSqsProxy(sqs.endpoint);
    try {
      await sqs.send(url, s3Notification(created(object)));
      const first = watch([url], [], proxy.endpoint);
      // The delete is held until the document is converted; then docmill dies before it reaches SQS.
      await waitFor('docmill to delete the message', () => proxy.heldDeletes > 0, { timeoutMs: 60_000 });
      await waitFor('the document converted', async () => (await manifestStatus('once.html')) === 'converted');
      // Its job finished too: killed between the manifest line and the job's completion, the job would stay locked
      // for its lock duration (the timeout + 60 s), which is not what this test is about.
      await waitFor('the job queue empty after the conversion', async () => (await openJobs()) === 0);
      first.kill('SIGKILL');
      await first.exited;
      expect(await sqs.depth(url)).toBe(1);

      proxy.passDeletes();
      const second = watch([url], [], proxy.endpoint);
      await waitFor('the message back and deleted', async () => (await sqs.depth(url)) === 0 && proxy.passedDeletes > 0, { timeoutMs: 60_000 });
      await waitFor('the job queue empty', async () => (await openJobs()) === 0);
      expect(server.requestsFor('once.html')).toHaveLength(1);
      expect((await readManifest(out)).filter((line) => line.path === 'once.html' && line.status === 'converted')).toHaveLength(1);
      second.kill('SIGTERM');
      await second.exited;
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('converts a burst of 1,000 events and leaves the queue empty', async () => {
    const { url } = sqs.createQueue(`burst-${randomUUID()}`);
    const objects = [];
    for (let i = 0; i < 1000; i += 50) {
      objects.push(...(await Promise.all(Array.from({ length: 50 }, (_, j) => put(`burst/doc ${String(i + j).padStart(4, '0')}.html`, `<p>${i + j}</p>`)))));
    }
    const docmill = watch([url], ['--concurrency', '16']);
    await sqs.sendAll(url, objects.map((object) => s3Notification(created(object))));
    await waitFor(
      'all 1,000 converted and both queues empty',
      async () => {
        const byPath = lastLineByPath(await readManifest(out));
        return [...byPath.values()].filter((line) => line.status === 'converted').length === 1000 && (await sqs.depth(url)) === 0 && (await openJobs()) === 0;
      },
      { timeoutMs: 240_000, intervalMs: 500 },
    );
    expect(server.requests).toHaveLength(1000);
    expect(await readFailures(out)).toEqual([]);
    docmill.kill('SIGTERM');
    await docmill.exited;
  }, 300_000);
});

describe('docmill watch --events (AMQP: MinIO through RabbitMQ)', () => {
  let connection: ChannelModel;
  beforeAll(async () => {
    connection = await connect(AMQP_URL);
  });
  afterAll(async () => {
    await connection?.close();
  });

  it('converts on MinIO created events and deletes the outputs on its removed events', async () => {
    const amqpQueue = `docmill-e2e-${randomUUID()}`;
    const channel = await connection.createChannel();
    try {
      const docmill = watch([`${AMQP_URL}/`, '--events-queue', amqpQueue, '--removed', 'delete']);
      const object = await put('minio doc é.html', '<p>minio</p>');
      // docmill declares the queue when it is missing; wait for it before publishing.
      await waitFor('the queue declared', async () => {
        const probe = await connection.createChannel();
        probe.on('error', () => undefined);
        return probe.checkQueue(amqpQueue).then(async () => (await probe.close(), true), () => false);
      });
      channel.sendToQueue(amqpQueue, Buffer.from(minioNotification(created(object))));
      await waitFor('the document converted', async () => (await manifestStatus('minio doc é.html')) === 'converted', { timeoutMs: 60_000 });
      await removeObject('minio doc é.html');
      channel.sendToQueue(amqpQueue, Buffer.from(minioNotification({ kind: 'removed', bucket: BUCKET, key: object.key })));
      await waitFor('the removal recorded', async () => (await manifestStatus('minio doc é.html')) === 'removed', { timeoutMs: 30_000 });
      expect(await exists('minio doc é.html.md')).toBe(false);
      await waitFor('the AMQP queue empty', async () => (await channel.checkQueue(amqpQueue)).messageCount === 0);
      expect(docmill.stderr).toContain(`"eventsQueue":"${amqpQueue}"`);
      expect(docmill.stderr).not.toContain('guest:guest');
      docmill.kill('SIGTERM');
      expect((await docmill.exited).code).toBe(0);
    } finally {
      await channel.deleteQueue(amqpQueue).catch(() => undefined);
      await channel.close().catch(() => undefined);
    }
  }, 120_000);
});

/** Passes a request on to `target` as it came (Host header and signature included), and its answer back. */
function forwardTo(target: URL, incoming: IncomingMessage, outgoing: ServerResponse): void {
  const forwarded = request(
    { hostname: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
    (response) => {
      outgoing.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(outgoing);
    },
  );
  forwarded.on('error', () => outgoing.destroy());
  incoming.pipe(forwarded);
}

/** A loopback proxy in front of s3rver that answers the GETs of the keys `isSlow` picks `delayMs` late. */
async function startSlowS3Proxy(target: string, isSlow: (key: string) => boolean, delayMs: number): Promise<{ endpoint: string; delayed: number; close(): Promise<void> }> {
  const targetUrl = new URL(target);
  const state = { delayed: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const proxy: Server = createServer((incoming, outgoing) => {
    const path = decodeURIComponent((incoming.url ?? '/').split('?')[0]!);
    const forward = () => forwardTo(targetUrl, incoming, outgoing);
    if (incoming.method === 'GET' && isSlow(path)) {
      state.delayed += 1;
      const timer = setTimeout(() => {
        timers.delete(timer);
        forward();
      }, delayMs);
      timers.add(timer);
      return;
    }
    forward();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    get delayed() {
      return state.delayed;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

/** A loopback proxy in front of fauxqs that holds DeleteMessageBatch requests until told to pass them. */
async function startSqsProxy(target: string): Promise<{ endpoint: string; heldDeletes: number; passedDeletes: number; passDeletes(): void; close(): Promise<void> }> {
  const targetUrl = new URL(target);
  let pass = false;
  const state = { heldDeletes: 0, passedDeletes: 0 };
  const held: IncomingMessage[] = [];
  const proxy: Server = createServer((incoming, outgoing) => {
    const isDelete = String(incoming.headers['x-amz-target'] ?? '').endsWith('.DeleteMessageBatch');
    if (isDelete && !pass) {
      state.heldDeletes += 1;
      held.push(incoming); // never answered: the caller dies waiting
      incoming.resume();
      return;
    }
    if (isDelete) state.passedDeletes += 1;
    forwardTo(targetUrl, incoming, outgoing);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    get heldDeletes() {
      return state.heldDeletes;
    },
    get passedDeletes() {
      return state.passedDeletes;
    },
    passDeletes: () => {
      pass = true;
    },
    close: async () => {
      for (const message of held) message.socket.destroy();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
