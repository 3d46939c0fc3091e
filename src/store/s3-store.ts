/**
 * The output store for `s3://bucket/prefix`: the fs store's layout, as keys below the prefix. Each PutObject
 * replaces an object whole, so outputs, state and index records are atomic per object without temporary keys.
 *
 * The manifest differs: S3 objects cannot be appended to, and rewriting one growing object per document would
 * cost O(n²) and race between workers. Manifest lines are buffered in memory and written as segments,
 * `_docmill/manifest/<timestamp>-<random id>.jsonl` (failed entries also under `_docmill/failures/`), when 500
 * lines are waiting, 5 s after the first waiting line (on an unref'd timer), and on close(). Each worker
 * process writes its own segments, so workers never contend for an object; reading the manifest means listing
 * the segments in key order (timestamp first). Lines still buffered when a process dies without close() are lost.
 *
 * The S3Client is injected: the caller owns its configuration (endpoint, credentials, checksum settings) and
 * its lifetime; close() flushes the manifest but does not destroy the client.
 */
import { randomBytes } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { parseS3Location } from '../common/s3-location.js';
import { FAILURE_SEGMENTS_DIR, MANIFEST_SEGMENTS_DIR, contentTypeOf } from './layout.js';
import { KeyedOutputStore, type WriteKind } from './keyed-store.js';
import { LineBatcher } from './line-batcher.js';
import type { ManifestEntry } from './output-store.js';
import { lookBack, MANIFEST_CLOCK_SKEW_MS, manifestEntries, manifestLine, parseManifestLine } from './records.js';
import {
  InvalidLocationError,
  StoreClosedError,
  StoreReadError,
  StoreWriteError,
} from './store-errors.js';

export interface S3StoreOptions {
  /** `s3://bucket` or `s3://bucket/prefix`. */
  location: string;
  client: S3Client;
  /** Lines buffered before a manifest segment is written. @default 500 */
  segmentLines?: number | undefined;
  /** Longest time a buffered manifest line waits, in milliseconds. @default 5000 */
  flushIntervalMs?: number | undefined;
  /** Keys per ListObjectsV2 page when reading failure segments. @default 1000 */
  listPageSize?: number | undefined;
  /** Told when a timer-driven manifest flush fails; the lines stay buffered and are tried again. */
  onBackgroundFlushError?: ((error: unknown) => void) | undefined;
}

export const DEFAULT_SEGMENT_LINES = 500;
export const DEFAULT_FLUSH_INTERVAL_MS = 5_000;

interface S3StoreLocation {
  bucket: string;
  /** '' or a prefix ending in '/'. */
  prefix: string;
}

export class S3Store extends KeyedOutputStore {
  readonly location: string;
  readonly bucket: string;
  /** Key prefix of everything this store writes: '' or ending in '/'. */
  readonly prefix: string;
  private readonly client: S3Client;
  private readonly listPageSize: number;
  private readonly manifest: LineBatcher;
  private readonly failures: LineBatcher;
  private closed = false;

  constructor(options: S3StoreOptions) {
    super();
    const { bucket, prefix } = parseStoreLocation(options.location);
    this.location = options.location;
    this.bucket = bucket;
    this.prefix = prefix;
    this.client = options.client;
    this.listPageSize = options.listPageSize ?? 1000;
    const batching = {
      maxLines: options.segmentLines ?? DEFAULT_SEGMENT_LINES,
      intervalMs: options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS,
      onBackgroundError: options.onBackgroundFlushError,
    };
    this.manifest = new LineBatcher({ ...batching, writeBatch: (lines) => this.writeSegment(MANIFEST_SEGMENTS_DIR, lines) });
    this.failures = new LineBatcher({ ...batching, writeBatch: (lines) => this.writeSegment(FAILURE_SEGMENTS_DIR, lines) });
  }

  /** The full object key for a key relative to the store root. */
  objectKey(key: string): string {
    return this.prefix + key;
  }


  /**
   * Buffers the line (see the file comment). Resolves once buffered; when the line completes a segment, after
   * the segment is written. If that write fails the error is thrown but the lines stay buffered for the next
   * flush: the entry is not lost, and callers should not append it again.
   */
  async appendManifest(entry: ManifestEntry): Promise<void> {
    if (this.closed) throw new StoreClosedError(this.location);
    const line = manifestLine(entry);
    const buffered = [this.manifest.add(line)];
    if (entry.status === 'failed') buffered.push(this.failures.add(line));
    await Promise.all(buffered);
  }

  /** Writes every buffered manifest line now (segments as usual). */
  async flush(): Promise<void> {
    await Promise.all([this.manifest.flush(), this.failures.flush()]);
  }

  /** Failures of every run on this prefix, this store's buffered ones included (they are flushed first). */
  async *readFailures(): AsyncGenerator<ManifestEntry> {
    await this.failures.flush();
    for await (const key of this.listKeys(FAILURE_SEGMENTS_DIR)) {
      const text = await this.readKey(key);
      // A segment is small (at most segmentLines lines) and was written whole, so reading it whole is fine.
      if (text !== undefined) yield* manifestEntries(text.split('\n'));
    }
  }

  /**
   * Looks in the segments written since `since` (less the clock skew), newest first, this store's buffered lines
   * flushed first: segment keys start with their time, so S3 lists only those.
   */
  async recordedSince(relativePath: string, since: string): Promise<ManifestEntry | undefined> {
    const sinceMs = Date.parse(since);
    if (!Number.isFinite(sinceMs)) return undefined;
    await this.manifest.flush();
    const keys: string[] = [];
    const after = `${MANIFEST_SEGMENTS_DIR}${segmentTimestamp(new Date(sinceMs - MANIFEST_CLOCK_SKEW_MS))}`;
    for await (const key of this.listKeys(MANIFEST_SEGMENTS_DIR, after)) keys.push(key);
    for (const key of keys.reverse()) {
      const text = await this.readKey(key);
      for (const line of (text ?? '').split('\n').reverse()) {
        const entry = parseManifestLine(line);
        if (entry !== undefined && lookBack(entry, relativePath, sinceMs) === 'match') return entry;
      }
    }
    return undefined;
  }

  /** Writes the buffered lines; once it resolves, further appends are refused. A failed close can be retried. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await Promise.all([this.manifest.close(), this.failures.close()]);
    } catch (error) {
      this.closed = false;
      throw error;
    }
  }

  private async writeSegment(folder: string, lines: string[]): Promise<void> {
    const key = `${folder}${segmentTimestamp(new Date())}-${randomBytes(6).toString('hex')}.jsonl`;
    await this.writeKey(key, lines.join(''));
  }

  protected async writeKey(key: string, body: string | Uint8Array, _kind?: WriteKind, _onWait?: () => void, after?: Promise<void>): Promise<void> {
    // An object is whole once put: the one that must follow others is put after them.
    await after;
    try {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: body, ContentType: contentTypeOf(key) }),
      );
    } catch (error) {
      throw new StoreWriteError(this.objectKey(key), error);
    }
  }

  /** The object's content as text, or undefined when there is no such object. */
  protected async readKey(key: string): Promise<string | undefined> {
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return (await response.Body?.transformToString('utf8')) ?? '';
    } catch (error) {
      if (isNoSuchKey(error)) return undefined;
      throw new StoreReadError(`s3://${this.bucket}/${this.objectKey(key)}`, error);
    }
  }

  /** The object's bytes (a range of a PDF is binary: text decoding would corrupt it). */
  protected override async readBytes(key: string): Promise<Uint8Array | undefined> {
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return (await response.Body?.transformToByteArray()) ?? new Uint8Array();
    } catch (error) {
      if (isNoSuchKey(error)) return undefined;
      throw new StoreReadError(`s3://${this.bucket}/${this.objectKey(key)}`, error);
    }
  }

  protected async deleteKey(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      throw new StoreWriteError(this.objectKey(key), error);
    }
  }

  protected keysBelow(folder: string): AsyncIterable<string> {
    return this.listKeys(folder);
  }

  /**
   * Keys (relative to the store root) below `folder`, in S3's order (lexicographic), page by page; with `after`, only
   * the keys that sort after it.
   */
  private async *listKeys(folder: string, after?: string): AsyncGenerator<string> {
    const listPrefix = this.objectKey(folder);
    let continuationToken: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: listPrefix,
            MaxKeys: this.listPageSize,
            ContinuationToken: continuationToken,
            ...(after !== undefined && continuationToken === undefined ? { StartAfter: this.objectKey(after) } : {}),
          }),
        );
      } catch (error) {
        throw new StoreReadError(`s3://${this.bucket}/${listPrefix}`, error);
      }
      for (const object of page.Contents ?? []) {
        if (object.Key?.startsWith(this.prefix)) yield object.Key.slice(this.prefix.length);
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);
  }
}

/**
 * `s3://bucket/prefix` → bucket and a normalised prefix ('' or ending in '/'), by the shared parser
 * (src/common/s3-location.ts) with the store's own rules on top: empty segments are dropped, and `.` or `..` segments
 * refused, since every key written is below the prefix and must stay there.
 */
function parseStoreLocation(location: string): S3StoreLocation {
  const invalid = (reason: string) => new InvalidLocationError(location, reason);
  const { bucket, rest } = parseS3Location(location, invalid);
  const segments = rest.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    throw invalid('the prefix may not contain "." or ".." segments');
  }
  return { bucket, prefix: segments.map((segment) => `${segment}/`).join('') };
}

/**
 * ISO 8601 in its basic form (20250102T030405.678Z): sorts like the extended form but has no ':', which some
 * tools that mirror a bucket to a local disk cannot put in a file name.
 */
function segmentTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '');
}

/** Whether an SDK error says the object does not exist (NoSuchKey, or a bare 404) rather than the bucket. */
function isNoSuchKey(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, $metadata } = error as { name?: unknown; $metadata?: { httpStatusCode?: number } };
  if (name === 'NoSuchKey') return true;
  return $metadata?.httpStatusCode === 404 && name !== 'NoSuchBucket';
}
