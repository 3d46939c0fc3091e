/**
 * What the S3 watch remembers between polls and across restarts: every selected key with its ETag, one JSON line
 * per key, in S3 key order, after a header line:
 *
 *   {"format":"docmill-s3-checkpoint","version":1,"location":"s3://bucket/prefix/"}
 *   {"key":"prefix/a.pdf","etag":"9b2cf535f27731c974343645a3985328"}
 *   ...
 *
 * It is only ever read and written as a stream, never held in memory: because both the file and every listing
 * are in key order, a poll compares them like a merge of two sorted lists (s3-change-detector.ts). Each poll
 * writes a new file beside the old one and renames it over it, so a crash leaves the previous checkpoint intact.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { TEMP_MARKER } from '../common/atomic-file.js';
import { CheckpointError, errorCodeOf } from './errors.js';
import { compareS3Keys } from './s3-key-order.js';

export interface CheckpointEntry {
  key: string;
  etag: string;
}

const FORMAT = 'docmill-s3-checkpoint';
const VERSION = 1;
/** Lines are gathered into writes of about this many characters: one write per line would crawl at a million keys. */
const WRITE_BATCH_CHARS = 256 * 1024;

export class S3Checkpoint {
  /**
   * @param path the checkpoint file
   * @param location the `s3://bucket/prefix/` it belongs to, recorded in the header and checked on reading
   */
  constructor(
    readonly path: string,
    readonly location: string,
  ) {}

  /**
   * The file for one listing in a checkpoint folder: named after the bucket, plus a hash of everything that makes
   * the listing different (endpoint, bucket, prefix), so several sources can share one folder.
   */
  static inDirectory(directory: string, identity: { endpoint?: string | undefined; bucket: string; prefix: string }): S3Checkpoint {
    const location = `s3://${identity.bucket}/${identity.prefix}`;
    const hash = createHash('sha256')
      .update(JSON.stringify([identity.endpoint ?? '', identity.bucket, identity.prefix]))
      .digest('hex')
      .slice(0, 16);
    return new S3Checkpoint(join(directory, `s3-${identity.bucket}-${hash}.jsonl`), location);
  }

  async exists(): Promise<boolean> {
    try {
      return (await stat(this.path)).isFile();
    } catch (error) {
      if (errorCodeOf(error) === 'ENOENT') return false;
      throw new CheckpointError(this.path, `it cannot be read (${errorCodeOf(error)})`, error);
    }
  }

  /** The recorded entries, in key order. */
  async *entries(): AsyncGenerator<CheckpointEntry> {
    const input = createReadStream(this.path, 'utf8');
    const lines = createInterface({ input, crlfDelay: Infinity });
    let lineNumber = 0;
    let previousKey: string | undefined;
    try {
      for await (const line of lines) {
        lineNumber += 1;
        if (lineNumber === 1) {
          this.checkHeader(line);
          continue;
        }
        if (line === '') continue;
        const entry = this.parseEntry(line, lineNumber);
        if (previousKey !== undefined && compareS3Keys(previousKey, entry.key) >= 0) {
          throw new CheckpointError(this.path, `line ${lineNumber} is out of key order`);
        }
        previousKey = entry.key;
        yield entry;
      }
    } catch (error) {
      if (error instanceof CheckpointError) throw error;
      throw new CheckpointError(this.path, `it cannot be read (${errorCodeOf(error)})`, error);
    } finally {
      // Also when the reader stops early: the comparison ends at the first error.
      lines.close();
      input.destroy();
    }
    if (lineNumber === 0) throw new CheckpointError(this.path, 'it is empty');
  }

  /** Starts the next version of the checkpoint; nothing changes on disk for readers until commit(). */
  async startRewrite(): Promise<CheckpointWriter> {
    await mkdir(dirname(this.path), { recursive: true });
    const temporaryPath = join(
      dirname(this.path),
      `${TEMP_MARKER}${basename(this.path)}.${randomBytes(6).toString('hex')}`,
    );
    const handle = await open(temporaryPath, 'wx');
    const header = JSON.stringify({ format: FORMAT, version: VERSION, location: this.location });
    return new CheckpointWriter(handle, temporaryPath, this.path, header);
  }

  private checkHeader(line: string): void {
    let header: unknown;
    try {
      header = JSON.parse(line);
    } catch {
      throw new CheckpointError(this.path, 'the first line is not a docmill checkpoint header');
    }
    const fields = (typeof header === 'object' && header !== null ? header : {}) as Record<string, unknown>;
    if (fields['format'] !== FORMAT) throw new CheckpointError(this.path, 'it is not a docmill S3 checkpoint');
    if (fields['version'] !== VERSION) {
      throw new CheckpointError(this.path, `version ${String(fields['version'])} is not supported (expected ${VERSION})`);
    }
    if (fields['location'] !== this.location) {
      throw new CheckpointError(this.path, `it belongs to ${String(fields['location'])}, not ${this.location}`);
    }
  }

  private parseEntry(line: string, lineNumber: number): CheckpointEntry {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null) {
        const { key, etag } = value as Record<string, unknown>;
        if (typeof key === 'string' && typeof etag === 'string') return { key, etag };
      }
    } catch {
      // reported below
    }
    throw new CheckpointError(this.path, `line ${lineNumber} is not a {"key","etag"} entry`);
  }
}

export class CheckpointWriter {
  private pending: string[] = [];
  private pendingChars = 0;
  private finished = false;

  constructor(
    private readonly handle: FileHandle,
    private readonly temporaryPath: string,
    private readonly targetPath: string,
    header: string,
  ) {
    this.appendLine(header);
  }

  /** Entries must come in key order (the order of the listing). */
  async append(entry: CheckpointEntry): Promise<void> {
    this.appendLine(JSON.stringify({ key: entry.key, etag: entry.etag }));
    if (this.pendingChars >= WRITE_BATCH_CHARS) await this.flush();
  }

  /** Makes this version the checkpoint: flushed to disk, then renamed over the previous one. */
  async commit(): Promise<void> {
    this.finished = true;
    try {
      await this.flush();
      await this.handle.sync();
      await this.handle.close();
      await rename(this.temporaryPath, this.targetPath);
    } catch (error) {
      await this.handle.close().catch(() => undefined);
      await rm(this.temporaryPath, { force: true });
      throw new CheckpointError(this.targetPath, `it cannot be written (${errorCodeOf(error)})`, error);
    }
  }

  /** Drops this version; the previous checkpoint stays as it was. Safe to call after commit(). */
  async discard(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    await this.handle.close().catch(() => undefined);
    await rm(this.temporaryPath, { force: true });
  }

  private appendLine(line: string): void {
    this.pending.push(line, '\n');
    this.pendingChars += line.length + 1;
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    await this.handle.write(text);
  }
}
