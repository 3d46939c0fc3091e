/**
 * The event half of `S3Source.watch()` with `events`: each message of the transport decoded (./envelopes.ts), each
 * event checked against the watched bucket, prefix and selection, ordered by its sequencer (./event-order.ts), and
 * handed on as a ListEntry: a file to convert (its ETag is the change token, so a document the backfill listing also
 * queued is one job, and one already converted is skipped unread) or a removed source. The message is done once
 * every entry it gave was taken, which the caller does by queueing it durably.
 *
 * A message that cannot be read is left to the queue's redrive policy, and told of once per message id per process
 * (the observer's `unreadable`); each later delivery of it (seen before here, or marked redelivered by the queue) is
 * told as `unreadableRedelivered`, so a queue handing one back for ever fills a counter, not the log.
 *
 * Two checks against the bucket keep stale events harmless across processes and restarts, where the in-memory order
 * cannot help: a "removed" event for a key that exists again is dropped (a newer object is there), and a "created"
 * event without an ETag is completed by a HEAD (one that finds nothing is dropped, and logged).
 */
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { fileEntry, removedEntry } from '../list-entries.js';
import { s3ObjectUri } from '../s3-url.js';
import type { EntrySelector } from '../selection.js';
import type { WatchEntry } from '../source.js';
import { decodeMessage } from './envelopes.js';
import { EventOrder } from './event-order.js';
import type { EventMessage, EventTransport, MessageVerdict, TransportObserver } from './event-transport.js';
import type { EventEnvelope, S3ObjectEvent } from './s3-event.js';

/** Why an event was acknowledged without queueing anything. */
export type IgnoredReason =
  | 'test-event'
  | 'other-kind'
  | 'other-bucket'
  | 'outside-prefix'
  | 'folder'
  | 'excluded'
  | 'unsupported'
  | 'temporary'
  | 'stale'
  | 'gone'
  | 'exists'
  | 'unchecked';

/** What the watch reports as it goes (metrics and logs). */
export interface EventObserver extends TransportObserver {
  /** Events in a readable message (kinds docmill does not act on included). */
  received?(envelope: EventEnvelope, count: number): void;
  /** An event's document (or removal) was queued, `lagMs` after the store's event time (undefined without one). */
  enqueued?(envelope: EventEnvelope, kind: S3ObjectEvent['kind'], lagMs: number | undefined): void;
  ignored?(envelope: EventEnvelope, reason: IgnoredReason, event?: S3ObjectEvent): void;
  /** A message left to the queue's redrive policy, the first time this process receives it. */
  unreadable?(messageId: string, reason: string): void;
  /** An unreadable message delivered again (received before by this process, or marked redelivered by the queue). */
  unreadableRedelivered?(messageId: string): void;
}

/** Unreadable message ids remembered, so each is told of once; the oldest are forgotten first. */
const REMEMBERED_UNREADABLE = 10_000;

export interface S3EventWatchOptions {
  transport: EventTransport;
  client: S3Client;
  bucket: string;
  /** '' or ending in '/'. */
  prefix: string;
  selector: EntrySelector;
  relativePathOf: (key: string) => string;
  observer?: EventObserver | undefined;
  onError?: ((error: unknown) => void) | undefined;
  order?: EventOrder | undefined;
}

export async function watchS3Events(
  options: S3EventWatchOptions,
  onEntry: (entry: WatchEntry) => Promise<void>,
  waitForRoom: (signal: AbortSignal) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  const order = options.order ?? new EventOrder();
  const act = new EventActions(options, order, onEntry);
  await options.transport.run((messages) => act.onBatch(messages), waitForRoom, signal);
}

class EventActions {
  /** Ids of the unreadable messages seen, oldest first (a Map keeps insertion order). */
  readonly #unreadableSeen = new Map<string, true>();

  constructor(
    private readonly options: S3EventWatchOptions,
    private readonly order: EventOrder,
    private readonly onEntry: (entry: WatchEntry) => Promise<void>,
  ) {}

  /** One message after the other, each event in its order: the order within a batch is the queue's. */
  async onBatch(messages: EventMessage[]): Promise<MessageVerdict[]> {
    const verdicts: MessageVerdict[] = [];
    for (const message of messages) verdicts.push(await this.onMessage(message));
    return verdicts;
  }

  private async onMessage(message: EventMessage): Promise<MessageVerdict> {
    const { observer } = this.options;
    const decoded = decodeMessage(message.body);
    if (decoded.kind === 'unreadable') {
      const firstHere = this.#rememberUnreadable(message.id);
      if (firstHere) observer?.unreadable?.(message.id, decoded.reason);
      if (!firstHere || message.redelivered) observer?.unreadableRedelivered?.(message.id);
      return 'unreadable';
    }
    if (decoded.kind === 'test') {
      observer?.received?.(decoded.envelope, 1);
      observer?.ignored?.(decoded.envelope, 'test-event');
      return 'done';
    }
    observer?.received?.(decoded.envelope, decoded.events.length + decoded.ignored);
    for (let i = 0; i < decoded.ignored; i++) observer?.ignored?.(decoded.envelope, 'other-kind');
    for (const event of decoded.events) await this.onEvent(event, decoded.envelope);
    return 'done';
  }

  /** Whether this process sees the unreadable message for the first time (remembered from now on). */
  #rememberUnreadable(id: string): boolean {
    if (this.#unreadableSeen.has(id)) return false;
    this.#unreadableSeen.set(id, true);
    if (this.#unreadableSeen.size > REMEMBERED_UNREADABLE) this.#unreadableSeen.delete(this.#unreadableSeen.keys().next().value!);
    return true;
  }

  private async onEvent(event: S3ObjectEvent, envelope: EventEnvelope): Promise<void> {
    const { bucket, prefix, selector, observer } = this.options;
    const ignore = (reason: IgnoredReason) => observer?.ignored?.(envelope, reason, event);
    if (event.bucket !== bucket) return ignore('other-bucket');
    if (!event.key.startsWith(prefix)) return ignore('outside-prefix');
    const relativePath = this.options.relativePathOf(event.key);
    if (event.key.endsWith('/') || relativePath === '') return ignore('folder');
    const skip = selector.skipReason(relativePath);
    if (skip) return ignore(skip);
    if (!this.order.admit(event.key, event.sequencer)) return ignore('stale');
    const uri = s3ObjectUri(bucket, event.key);
    let entry: WatchEntry;
    if (event.kind === 'created') {
      const version = event.etag !== undefined ? { etag: event.etag, size: event.size ?? 0 } : await this.head(event.key);
      if (version === 'unchecked') return ignore('unchecked');
      if (version === undefined) return ignore('gone');
      entry = fileEntry({ uri, relativePath, size: version.size, changeToken: version.etag });
    } else {
      const current = await this.head(event.key);
      if (current === 'unchecked') return ignore('unchecked');
      if (current !== undefined) return ignore('exists');
      entry = removedEntry(uri, relativePath);
    }
    try {
      await this.onEntry(entry);
    } catch (error) {
      this.order.forget(event.key, event.sequencer);
      throw error;
    }
    observer?.enqueued?.(envelope, event.kind, event.eventTimeMs === undefined ? undefined : Math.max(0, Date.now() - event.eventTimeMs));
  }

  /** The object's current version; undefined when there is none; 'unchecked' when the store could not say. */
  private async head(key: string): Promise<{ etag: string; size: number } | undefined | 'unchecked'> {
    try {
      const response = await this.options.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      const etag = response.ETag?.replaceAll('"', '');
      return etag ? { etag, size: response.ContentLength ?? 0 } : 'unchecked';
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      const name = (error as { name?: string }).name;
      if (status === 404 || name === 'NotFound' || name === 'NoSuchKey') return undefined;
      this.options.onError?.(error);
      return 'unchecked';
    }
  }
}
