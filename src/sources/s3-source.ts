/**
 * `s3://bucket/prefix` as a Source: a paginated ListObjectsV2 listing (s3-listing.ts), a watch that polls with an
 * on-disk checkpoint (s3-poller.ts) or reads the bucket's notifications from a queue (events/, with a re-list every
 * few hours for events a misconfigured notification lost), and GetObject reads pinned to the listed ETag.
 *
 * The prefix is read as a folder (`s3://b/docs` lists `docs/…`), relative paths are the keys below it with any
 * leading '/' removed, and otherwise passed on as they are: a key may contain `../`, and making it safe as an
 * output path is the store's job, which sees every path.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, addAbortSignal } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { isS3Location } from '../common/s3-location.js';
import { RECORDS_FOLDER } from '../common/records-folder.js';
import { SourceReadError } from './errors.js';
import { createEventTransport, describeEventQueue, type EventQueueSettings } from './events/create-transport.js';
import { watchS3Events, type EventObserver } from './events/s3-event-watch.js';
import { EVENT_ENVELOPES } from './events/s3-event.js';
import { fileEntry, removedEntry, skippedEntry } from './list-entries.js';
import { createS3Client } from './s3-client.js';
import type { ListedObject } from './s3-change-detector.js';
import { S3Checkpoint } from './s3-checkpoint.js';
import { describeS3Error, listS3Objects, unquoteEtag } from './s3-listing.js';
import { pollForChanges, type PollSummary } from './s3-poller.js';
import { asFolderPrefix, parseS3Url, s3ObjectUri } from './s3-url.js';
import { createEntrySelector, type EntrySelector } from './selection.js';
import type { ListEntry, RemovedEntry, Source, SourceFile, SourcePresence, SourceSelection, WatchEntry, WatchHooks } from './source.js';

export const DEFAULT_S3_POLL_INTERVAL_MS = 30_000;
/** With events, how often the bucket is listed anyway, for events a misconfigured notification lost: 6 hours. */
export const DEFAULT_RELIST_INTERVAL_MS = 6 * 3600 * 1000;

export interface S3EventSettings extends EventQueueSettings {
  /** How often to list the bucket anyway, in ms; 0: never. @default 6 hours */
  relistIntervalMs?: number | undefined;
  observer?: EventObserver | undefined;
}

/** How an S3 source lists and watches: the settings `createSource` passes through as they are. */
export interface S3SourceSettings {
  endpoint?: string | undefined;
  region?: string | undefined;
  /** Default true when `endpoint` is set. */
  forcePathStyle?: boolean | undefined;
  /** How often watch() lists the bucket, in ms (default 30000). */
  pollIntervalMs?: number | undefined;
  /**
   * Folder for watch()'s checkpoint (one JSON line per selected key; see s3-checkpoint.ts), kept across runs so a
   * restarted watch reports only what changed meanwhile. Without it the checkpoint lives in a temporary folder for
   * the duration of one watch().
   */
  checkpointDir?: string | undefined;
  /** Keys per ListObjectsV2 page (default: the store's, 1000 on S3). */
  pageSize?: number | undefined;
  /** Failed polls (they are retried at the next interval), failed event receives, failed removal checks. */
  onError?: ((error: unknown) => void) | undefined;
  /** Called after each completed poll of watch(). */
  onPoll?: ((summary: PollSummary) => void) | undefined;
  /** watch() reads the bucket's notifications from this queue, and lists only every `relistIntervalMs`. */
  events?: S3EventSettings | undefined;
}

export interface S3SourceOptions extends S3SourceSettings {
  /** `s3://bucket` or `s3://bucket/prefix`. */
  location: string;
  selection?: SourceSelection | undefined;
  /** A client to use (and leave open on close()); otherwise one is made from `endpoint`, `region`, `forcePathStyle`. */
  client?: S3Client | undefined;
  /** `s3://` locations not to list: the output prefix when it lies below this source's (others are ignored). */
  ignoreLocations?: readonly string[] | undefined;
}

interface ListedEntry {
  entry: ListEntry;
  key: string;
  etag: string | undefined;
}

export class S3Source implements Source {
  readonly location: string;
  readonly bucket: string;
  /** The prefix as a folder: '' or ending in '/'. */
  readonly prefix: string;
  private readonly client: S3Client;
  private readonly ownsClient: boolean;
  private readonly selector: EntrySelector;
  /** Folder prefixes below `prefix` not listed: the output's, when it lies inside the source. */
  private readonly ignoredPrefixes: readonly string[];
  private readonly closing = new AbortController();

  constructor(private readonly options: S3SourceOptions) {
    const { bucket, prefix } = parseS3Url(options.location);
    this.location = options.location;
    this.bucket = bucket;
    this.prefix = asFolderPrefix(prefix);
    this.ownsClient = options.client === undefined;
    this.client =
      options.client ??
      createS3Client({ endpoint: options.endpoint, region: options.region, forcePathStyle: options.forcePathStyle });
    this.selector = createEntrySelector(options.selection);
    this.ignoredPrefixes = (options.ignoreLocations ?? []).flatMap((ignored) => {
      const location = parseS3Url(ignored);
      const folder = asFolderPrefix(location.prefix);
      return location.bucket === bucket && folder.startsWith(this.prefix) && folder !== this.prefix ? [folder] : [];
    });
  }

  async *list(signal?: AbortSignal): AsyncIterable<ListEntry> {
    for await (const { entry } of this.listEntries(signal)) yield entry;
  }

  /**
   * Polls every `pollIntervalMs`; with `events`, reads the event queue and re-lists every `relistIntervalMs` (0: never)
   * at the same time. Either way, keys gone from the bucket are reported as removed.
   */
  async watch(onEntry: (entry: WatchEntry) => Promise<void>, signal: AbortSignal, hooks: WatchHooks = {}): Promise<void> {
    const { events } = this.options;
    const stopping = new AbortController();
    const stop = AbortSignal.any([signal, this.closing.signal, stopping.signal]);
    const relistMs = events ? (events.relistIntervalMs ?? DEFAULT_RELIST_INTERVAL_MS) : (this.options.pollIntervalMs ?? DEFAULT_S3_POLL_INTERVAL_MS);
    const watches: Array<Promise<void>> = [];
    if (events) watches.push(this.watchEvents(events, onEntry, hooks, stop));
    if (relistMs > 0) watches.push(this.poll(relistMs, onEntry, stop));
    // The first to fail ends the other: a watch that half works would lose changes silently.
    await Promise.all(watches.map((watch) => watch.catch((error: unknown) => {
      stopping.abort();
      throw error;
    })));
  }

  describeWatch(): Record<string, unknown> {
    const { events } = this.options;
    if (!events) return { pollIntervalMs: this.options.pollIntervalMs ?? DEFAULT_S3_POLL_INTERVAL_MS };
    return {
      events: describeEventQueue(events.url),
      ...(events.queue !== undefined ? { eventsQueue: events.queue } : {}),
      envelopes: EVENT_ENVELOPES,
      relistIntervalMs: events.relistIntervalMs ?? DEFAULT_RELIST_INTERVAL_MS,
    };
  }

  private async watchEvents(events: S3EventSettings, onEntry: (entry: WatchEntry) => Promise<void>, hooks: WatchHooks, signal: AbortSignal): Promise<void> {
    const transport = await createEventTransport({ ...events, region: events.region ?? this.options.region }, this.options.onError, events.observer);
    try {
      await watchS3Events(
        {
          transport,
          client: this.client,
          bucket: this.bucket,
          prefix: this.prefix,
          selector: this.selector,
          relativePathOf: (key) => relativePathOfKey(key, this.prefix),
          observer: events.observer,
          onError: this.options.onError,
        },
        onEntry,
        hooks.waitForRoom ?? (async () => undefined),
        signal,
      );
    } finally {
      await transport.close();
    }
  }

  private async poll(intervalMs: number, onEntry: (entry: WatchEntry) => Promise<void>, signal: AbortSignal): Promise<void> {
    const checkpointDir = this.options.checkpointDir ?? (await mkdtemp(join(tmpdir(), 'docmill-s3-checkpoint-')));
    try {
      await pollForChanges(
        {
          checkpoint: S3Checkpoint.inDirectory(checkpointDir, {
            endpoint: this.options.endpoint,
            bucket: this.bucket,
            prefix: this.prefix,
          }),
          pollIntervalMs: intervalMs,
          location: this.location,
          listObjects: (pollSignal) => this.selectedObjects(pollSignal),
          removedEntry: (key) => this.removedEntryIfGone(key),
          onError: this.options.onError,
          onPoll: this.options.onPoll,
        },
        onEntry,
        signal,
      );
    } finally {
      if (this.options.checkpointDir === undefined) await rm(checkpointDir, { recursive: true, force: true });
    }
  }

  /**
   * The removal of a key a poll no longer lists, once a HEAD confirms it is gone: a key that still exists left the
   * selection (an `--exclude` added), which is no reason to remove its outputs. A failed check reports nothing now;
   * the key is not in the new checkpoint, so the next run's listing decides.
   */
  private async removedEntryIfGone(key: string): Promise<RemovedEntry | undefined> {
    if ((await this.objectPresence(key)) !== 'gone') return undefined;
    return removedEntry(s3ObjectUri(this.bucket, key), relativePathOfKey(key, this.prefix));
  }

  /** A HEAD of the key: `unknown` when the store could not say (the failure goes to onError). */
  private async objectPresence(key: string): Promise<SourcePresence> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return 'present';
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (error as { name?: string }).name === 'NotFound') return 'gone';
      this.options.onError?.(error);
      return 'unknown';
    }
  }

  /**
   * Streams the object as listed. `IfMatch` makes S3 refuse a version other than the listed one (412), and the
   * response's ETag is checked as well, for S3-compatible stores that ignore the condition.
   */
  async open(file: SourceFile, signal?: AbortSignal): Promise<Readable> {
    const { bucket, prefix: key } = parseS3Url(file.uri);
    let response;
    try {
      response = await this.client.send(
        new GetObjectCommand({ Bucket: bucket, Key: key, IfMatch: `"${file.changeToken}"` }),
        { abortSignal: signal },
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new SourceReadError(key, readFailureOf(error), describeS3Error(error), error);
    }
    const body = response.Body;
    if (!(body instanceof Readable)) {
      throw new SourceReadError(key, 'io', 'the response has no readable body');
    }
    const etag = unquoteEtag(response.ETag);
    if (etag !== undefined && etag !== file.changeToken) {
      body.destroy();
      throw new SourceReadError(key, 'changed', `it changed since it was listed (ETag ${etag}, listed ${file.changeToken})`);
    }
    return signal ? addAbortSignal(signal, body) : body;
  }

  async presence(uri: string): Promise<SourcePresence> {
    if (!isS3Location(uri)) return 'unknown';
    const { bucket, prefix: key } = parseS3Url(uri);
    if (bucket !== this.bucket || !key.startsWith(this.prefix)) return 'unknown';
    return this.objectPresence(key);
  }

  async close(): Promise<void> {
    this.closing.abort();
    if (this.ownsClient) this.client.destroy();
  }

  private async *listEntries(signal: AbortSignal | undefined): AsyncGenerator<ListedEntry> {
    const objects = listS3Objects(this.client, {
      bucket: this.bucket,
      prefix: this.prefix,
      pageSize: this.options.pageSize,
      location: this.location,
      signal,
    });
    for await (const object of objects) {
      // Folder markers (zero-byte `docs/`) are not documents; the prefix itself lists as ''.
      if (object.key.endsWith('/')) continue;
      if (this.ignoredPrefixes.some((ignored) => object.key.startsWith(ignored))) continue;
      const relativePath = relativePathOfKey(object.key, this.prefix);
      if (relativePath === '' || isRecordKey(relativePath)) continue;
      yield { entry: this.entryFor(object.key, relativePath, object), key: object.key, etag: object.etag };
    }
  }

  private entryFor(key: string, relativePath: string, object: { etag: string | undefined; size: number }): ListEntry {
    const reason = this.selector.skipReason(relativePath);
    if (reason) return skippedEntry(relativePath, reason);
    // Every S3 listing carries ETags; without one there is no change token, so no safe way to track the object.
    if (object.etag === undefined || object.etag === '') return skippedEntry(relativePath, 'unreadable', 'no ETag in the listing');
    return fileEntry({
      uri: s3ObjectUri(this.bucket, key),
      relativePath,
      size: object.size,
      changeToken: object.etag,
    });
  }

  /** The listing as the watch needs it: selected files only, with their keys. */
  private async *selectedObjects(signal: AbortSignal): AsyncGenerator<ListedObject> {
    for await (const { entry, key, etag } of this.listEntries(signal)) {
      if (entry.kind === 'file' && etag !== undefined) yield { key, etag, file: entry.file };
    }
  }
}

/**
 * A key in the `_docmill/` records of a docmill output below the source (state, index, manifest segments): docmill's
 * bookkeeping, never a document, and thousands of keys for an output of thousands of documents.
 */
function isRecordKey(relativePath: string): boolean {
  return relativePath.startsWith(`${RECORDS_FOLDER}/`) || relativePath.includes(`/${RECORDS_FOLDER}/`);
}

/** The key below the prefix, without leading slashes (`docs//a.pdf` below `docs/` is `a.pdf`); '' for the prefix itself. */
export function relativePathOfKey(key: string, folderPrefix: string): string {
  const below = key.startsWith(folderPrefix) ? key.slice(folderPrefix.length) : key;
  return below.replace(/^\/+/, '');
}

function readFailureOf(error: unknown): SourceReadError['failure'] {
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode;
    if (error.name === 'NoSuchKey' || status === 404) return 'missing';
    if (error.name === 'PreconditionFailed' || status === 412) return 'changed';
  }
  return 'io';
}
