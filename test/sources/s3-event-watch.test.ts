/**
 * S3Source.watch() with events, against real servers: fauxqs for SQS, s3rver for S3, RabbitMQ (127.0.0.1:5672) for
 * AMQP. The tests put the objects and send the notifications themselves, in each envelope, with keys holding spaces,
 * `+` and non-ASCII. A message is deleted (acked) once its entries were taken; an unreadable one is left to the
 * queue's redrive policy; events elsewhere, stale or for objects gone are acknowledged without an entry.
 */
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { connect, type ChannelModel } from 'amqplib';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventObserver, IgnoredReason } from '../../src/sources/events/s3-event-watch.js';
import { S3Source } from '../../src/sources/s3-source.js';
import type { WatchEntry } from '../../src/sources/source.js';
import { waitFor } from '../helpers/docmill-cli.js';
import { startSqs, type FauxqsHandle } from '../helpers/fauxqs.js';
import { eventBridgeEvent, minioNotification, nextSequencer, s3Notification, s3TestEvent, snsWrapped } from '../helpers/s3-notifications.js';
import { startS3rver, type S3rverHandle } from '../helpers/s3rver.js';

const BUCKET = 'events';
const AMQP_URL = process.env.DOCMILL_TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
let s3: S3rverHandle;
let sqs: FauxqsHandle;
const watches = new Set<EventWatch>();

beforeAll(async () => {
  [s3, sqs] = await Promise.all([startS3rver([BUCKET, 'other']), startSqs()]);
});

afterAll(async () => {
  await Promise.all([s3?.close(), sqs?.close()]);
});

afterEach(async () => {
  await Promise.all([...watches].map((watch) => watch.stop()));
});

async function put(key: string, body: string, bucket = BUCKET): Promise<string> {
  const response = await s3.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.from(body) }));
  return response.ETag!.replaceAll('"', '');
}

async function remove(key: string): Promise<void> {
  await s3.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
}

/** A running event watch of s3://events/<prefix>: what it reported, ignored and could not read. */
class EventWatch {
  readonly entries: WatchEntry[] = [];
  readonly ignored: Array<{ reason: IgnoredReason; key?: string }> = [];
  readonly unreadable: string[] = [];
  readonly redelivered: string[] = [];
  readonly withoutRedrivePolicy: string[] = [];
  readonly enqueued: string[] = [];
  readonly errors: unknown[] = [];
  readonly done: Promise<void>;
  readonly #controller = new AbortController();

  constructor(prefix: string, events: { url: string; queue?: string; sqsClient?: FauxqsHandle['client'] }, exclude: string[] = []) {
    const observer: EventObserver = {
      ignored: (_envelope, reason, event) => this.ignored.push({ reason, ...(event ? { key: event.key } : {}) }),
      unreadable: (id) => this.unreadable.push(id),
      unreadableRedelivered: (id) => this.redelivered.push(id),
      noRedrivePolicy: (queue) => this.withoutRedrivePolicy.push(queue),
      enqueued: (envelope, kind) => this.enqueued.push(`${envelope}:${kind}`),
    };
    const source = new S3Source({
      location: `s3://${BUCKET}/${prefix}`,
      client: s3.client,
      selection: { exclude },
      events: { ...events, relistIntervalMs: 0, observer },
      onError: (error) => this.errors.push(error),
    });
    this.done = source.watch(async (entry) => {
      this.entries.push(entry);
    }, this.#controller.signal);
    this.done.catch((error: unknown) => this.errors.push(error));
    watches.add(this);
  }

  paths(kind: WatchEntry['kind']): string[] {
    return this.entries.flatMap((entry) => (entry.kind !== kind ? [] : [entry.kind === 'file' ? entry.file.relativePath : entry.relativePath]));
  }

  async stop(): Promise<void> {
    watches.delete(this);
    this.#controller.abort();
    await this.done.catch(() => undefined);
  }
}

function sqsEvents(url: string) {
  return { url, sqsClient: sqs.client };
}

describe('S3Source.watch with SQS events', () => {
  it('reads every envelope, decodes keys, and deletes each message once its entries are taken', async () => {
    const prefix = `run-${randomUUID()}`;
    const { url } = sqs.createQueue(`envelopes-${randomUUID()}`, { visibilityTimeoutS: 30 });
    const keys = ['report one.pdf', 'a+b.html', 'Übersicht 2026/données.csv', '日本語.html'].map((name) => `${prefix}/${name}`);
    const etags = await Promise.all(keys.map((key, i) => put(key, `content ${i}`)));
    const watch = new EventWatch(prefix, sqsEvents(url));

    await sqs.send(url, s3TestEvent(BUCKET));
    await sqs.send(url, s3Notification({ kind: 'created', bucket: BUCKET, key: keys[0]!, etag: etags[0], size: 9 }));
    await sqs.send(url, snsWrapped(s3Notification({ kind: 'created', bucket: BUCKET, key: keys[1]!, etag: etags[1], size: 9 })));
    await sqs.send(url, eventBridgeEvent({ kind: 'created', bucket: BUCKET, key: keys[2]!, etag: etags[2], size: 9 }));
    await sqs.send(url, minioNotification({ kind: 'created', bucket: BUCKET, key: keys[3]!, etag: etags[3], size: 9 }));

    await waitFor('four files reported and the queue emptied', async () => watch.entries.length === 4 && (await sqs.depth(url)) === 0);
    expect(watch.paths('file').sort()).toEqual(keys.map((key) => key.slice(prefix.length + 1)).sort());
    const first = watch.entries.find((entry) => entry.kind === 'file' && entry.file.relativePath === 'report one.pdf');
    expect(first).toEqual({ kind: 'file', file: { uri: `s3://${BUCKET}/${keys[0]}`, relativePath: 'report one.pdf', size: 9, changeToken: etags[0] } });
    expect(watch.enqueued.sort()).toEqual(['eventbridge:created', 'minio:created', 's3:created', 'sns:created']);
    expect(watch.ignored).toEqual([{ reason: 'test-event' }]);
    expect(watch.errors).toEqual([]);
  });

  it('acknowledges events elsewhere, excluded, duplicate, out of order or for objects gone, reporting nothing for them', async () => {
    const prefix = `run-${randomUUID()}`;
    const { url } = sqs.createQueue(`ignored-${randomUUID()}`);
    const key = `${prefix}/kept.pdf`;
    const etag = await put(key, 'kept');
    const watch = new EventWatch(prefix, sqsEvents(url), ['drafts/**']);
    const [older, newer] = [nextSequencer(), nextSequencer()];

    await sqs.sendAll(url, [
      s3Notification({ kind: 'created', bucket: 'other', key, etag, size: 4 }),
      s3Notification({ kind: 'created', bucket: BUCKET, key: `elsewhere/${prefix}.pdf`, etag, size: 4 }),
      s3Notification({ kind: 'created', bucket: BUCKET, key: `${prefix}/drafts/draft.pdf`, etag, size: 4 }),
      s3Notification({ kind: 'created', bucket: BUCKET, key: `${prefix}/notes.txt`, etag, size: 4 }),
      s3Notification({ kind: 'created', bucket: BUCKET, key, etag, size: 4, sequencer: newer }),
      s3Notification({ kind: 'created', bucket: BUCKET, key, etag, size: 4, sequencer: newer }), // delivered twice
      s3Notification({ kind: 'removed', bucket: BUCKET, key, sequencer: older }), // older, arriving late
    ]);
    // A removal whose object exists again (a newer upload) changes nothing, even without an order to compare.
    await put(`${prefix}/other.pdf`, 'back');
    await sqs.send(url, s3Notification({ kind: 'removed', bucket: BUCKET, key: `${prefix}/other.pdf` }));
    // A created event without an ETag is completed from the bucket; one for an object gone is dropped.
    await sqs.send(url, JSON.stringify({ Records: [{ ...JSON.parse(s3Notification({ kind: 'created', bucket: BUCKET, key: `${prefix}/gone.pdf` })).Records[0], s3: { bucket: { name: BUCKET }, object: { key: `${prefix}/gone.pdf` } } }] }));

    await waitFor('every message handled', async () => watch.ignored.length + watch.entries.length >= 9 && (await sqs.depth(url)) === 0);
    expect(watch.entries.map((entry) => entry.kind === 'file' && entry.file.relativePath)).toEqual(['kept.pdf']);
    expect(watch.ignored.map((ignored) => ignored.reason).sort()).toEqual(
      ['other-bucket', 'outside-prefix', 'excluded', 'unsupported', 'stale', 'stale', 'exists', 'gone'].sort(),
    );
    expect(watch.errors).toEqual([]);
  });

  it('reports a removal once the object is gone', async () => {
    const prefix = `run-${randomUUID()}`;
    const { url } = sqs.createQueue(`removed-${randomUUID()}`);
    const key = `${prefix}/sub folder/gone soon.pdf`;
    const etag = await put(key, 'x');
    const watch = new EventWatch(prefix, sqsEvents(url));
    await sqs.send(url, s3Notification({ kind: 'created', bucket: BUCKET, key, etag, size: 1 }));
    await waitFor('the file reported', () => watch.entries.length === 1);
    await remove(key);
    await sqs.send(url, eventBridgeEvent({ kind: 'removed', bucket: BUCKET, key }));
    await waitFor('the removal reported', () => watch.entries.length === 2);
    expect(watch.entries[1]).toEqual({ kind: 'removed', uri: `s3://${BUCKET}/${key}`, relativePath: 'sub folder/gone soon.pdf' });
  });

  it('leaves a message that is not JSON to the redrive policy: not deleted, received once per visibility timeout', async () => {
    const prefix = `run-${randomUUID()}`;
    const { url, dlqUrl } = sqs.createQueue(`unreadable-${randomUUID()}`, { visibilityTimeoutS: 1, deadLetterAfter: 2 });
    const watch = new EventWatch(prefix, sqsEvents(url));
    await sqs.send(url, 'this is not JSON');
    const key = `${prefix}/after.pdf`;
    await sqs.send(url, s3Notification({ kind: 'created', bucket: BUCKET, key, etag: await put(key, 'after'), size: 5 }));

    const deadLettered = await waitFor('the message in the dead-letter queue', async () => {
      const bodies = await sqs.drain(dlqUrl!);
      return bodies.length > 0 ? bodies : undefined;
    });
    expect(deadLettered).toEqual(['this is not JSON']);
    // Seen as often as the redrive policy allows (twice), each time a visibility timeout apart: no hot loop. Told of
    // once; the second delivery is counted as one.
    expect(watch.unreadable).toHaveLength(1);
    expect(watch.redelivered).toEqual(watch.unreadable);
    expect(watch.paths('file')).toEqual(['after.pdf']);
    expect(watch.withoutRedrivePolicy).toEqual([]);
  });

  it('says once that a queue has no redrive policy, and tells of a message it hands back for ever once, counting the rest', async () => {
    const prefix = `run-${randomUUID()}`;
    const { url } = sqs.createQueue(`no-redrive-${randomUUID()}`, { visibilityTimeoutS: 1 });
    const watch = new EventWatch(prefix, sqsEvents(url));
    await sqs.send(url, '{"neither":"an S3 event"}');
    await waitFor('the message handed back twice', () => watch.redelivered.length >= 2, { timeoutMs: 20_000 });
    await watch.stop();
    expect(watch.withoutRedrivePolicy).toEqual([`SQS ${url}`]);
    expect(watch.unreadable).toHaveLength(1);
    expect(new Set(watch.redelivered)).toEqual(new Set(watch.unreadable));
    expect(await sqs.depth(url)).toBe(1); // never deleted: the queue's to keep, or to dead-letter once it has a policy
  });
});

describe('S3Source.watch with AMQP events (MinIO through RabbitMQ)', () => {
  let connection: ChannelModel;

  beforeAll(async () => {
    connection = await connect(AMQP_URL);
  });

  afterAll(async () => {
    await connection?.close();
  });

  it('consumes MinIO notifications, acks them, and dead-letters an unreadable one', async () => {
    const prefix = `run-${randomUUID()}`;
    const queue = `docmill-test-${randomUUID()}`;
    const channel = await connection.createChannel();
    await channel.assertQueue(`${queue}-dlq`, { durable: false, autoDelete: false });
    await channel.assertQueue(queue, { durable: false, arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': `${queue}-dlq` } });
    try {
      const key = `${prefix}/minio upload+1 é.pdf`;
      const etag = await put(key, 'from minio');
      const watch = new EventWatch(prefix, { url: `${AMQP_URL}/?queue=${encodeURIComponent(queue)}` });
      channel.sendToQueue(queue, Buffer.from('not JSON at all'), { messageId: 'broken-1' });
      channel.sendToQueue(queue, Buffer.from(minioNotification({ kind: 'created', bucket: BUCKET, key, etag, size: 10 })));

      await waitFor('the file reported', () => watch.entries.length === 1);
      const dead = await waitFor('the unreadable message dead-lettered', async () => (await channel.get(`${queue}-dlq`, { noAck: true })) || undefined);
      expect(dead.content.toString()).toBe('not JSON at all');
      expect(watch.unreadable).toEqual(['broken-1']);
      expect(watch.paths('file')).toEqual(['minio upload+1 é.pdf']);
      await waitFor('the queue empty (acked)', async () => (await channel.checkQueue(queue)).messageCount === 0);
      await watch.stop();
      expect((await channel.checkQueue(queue)).messageCount).toBe(0);
    } finally {
      await channel.deleteQueue(queue).catch(() => undefined);
      await channel.deleteQueue(`${queue}-dlq`).catch(() => undefined);
      await channel.close().catch(() => undefined);
    }
  });

  it('refuses a URL without a queue, and an unreachable broker, at once', async () => {
    const missing = new S3Source({ location: `s3://${BUCKET}/x`, client: s3.client, events: { url: AMQP_URL, relistIntervalMs: 0 } });
    await expect(missing.watch(async () => undefined, new AbortController().signal)).rejects.toThrow(/no queue named/);
    const refused = new S3Source({ location: `s3://${BUCKET}/x`, client: s3.client, events: { url: 'amqp://guest:secret@127.0.0.1:1/?queue=q', relistIntervalMs: 0 } });
    const error = await refused.watch(async () => undefined, new AbortController().signal).catch((caught: unknown) => caught as Error);
    expect(String(error)).toMatch(/cannot connect/);
    expect(String(error)).not.toContain('secret');
  });
});
