/**
 * Sources list files and hand out their bytes on demand. They yield references, never content: a listing of a
 * million files is streamed, and the bytes are read only by the worker that parses the file.
 */
import type { Readable } from 'node:stream';

export interface SourceFile {
  /** `file:///abs/path` or `s3://bucket/key`. */
  uri: string;
  /** Path below the source root, '/'-separated, never starting with '/': the output layout mirrors it. */
  relativePath: string;
  size: number;
  /** Changes whenever the content may have changed: `<mtimeMs>-<size>` locally, the ETag on S3. */
  changeToken: string;
}

export type SkipReason = 'unsupported' | 'excluded' | 'symlink-outside-root' | 'symlink-loop' | 'symlink-dangling' | 'unreadable' | 'temporary' | 'docmill-output';

export type ListEntry =
  | { kind: 'file'; file: SourceFile }
  | { kind: 'skipped'; relativePath: string; reason: SkipReason; detail?: string };

/** A source file that is gone (deleted, or renamed away): watches report it, so its outputs can follow. */
export interface RemovedEntry {
  kind: 'removed';
  uri: string;
  relativePath: string;
}

/** What a source says of a file it once listed: see Source.presence. */
export type SourcePresence = 'present' | 'gone' | 'unknown';

/** What a watch reports: what a listing does, and removals. */
export type WatchEntry = ListEntry | RemovedEntry;

/** What a watch may ask of the caller beyond taking entries. */
export interface WatchHooks {
  /**
   * Resolves when the caller can take more entries (its queue has room): an event-driven watch waits on it before
   * it receives the next batch of messages, so a full queue holds messages back at their source.
   */
  waitForRoom?: (signal: AbortSignal) => Promise<void>;
}

export interface Source {
  /** The location as the user gave it (a path or s3://bucket/prefix), for logs and job data. */
  readonly location: string;
  /** One pass over everything below the root, streamed. */
  list(signal?: AbortSignal): AsyncIterable<ListEntry>;
  /**
   * Reports files as they appear, change or go until `signal` aborts (no initial listing: callers list first).
   * Half-written local files are reported only once their size has settled.
   */
  watch(onEntry: (entry: WatchEntry) => Promise<void>, signal: AbortSignal, hooks?: WatchHooks): Promise<void>;
  /** Log fields saying how watch() learns of changes (`{ events: 'SQS …', envelopes: […] }`, or a poll interval). */
  describeWatch?(): Record<string, unknown>;
  /** The bytes of one listed file. */
  open(file: SourceFile, signal?: AbortSignal): Promise<Readable>;
  /**
   * A listed file's bytes in one piece when it holds at most `maxBytes` (undefined when larger: `open` streams it),
   * for a source that reads a small file cheaper that way than through a stream (the local ones).
   */
  readSmall?(file: SourceFile, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array | undefined>;
  /**
   * Whether a file this source once listed (by its URI) still exists: `gone` only when it is below the root and the
   * source confirms it is not there, `present` when it is, `unknown` when the source cannot tell (a failed request, a
   * URI outside the root). A run asks it of the files converted before that its listing did not report (a removal
   * only when `gone`); a removal job asks it before it acts (nothing is removed when the file is `present` again).
   */
  presence?(uri: string): Promise<SourcePresence>;
  close(): Promise<void>;
}

export interface SourceSelection {
  /** Glob patterns (picomatch) on the relative path; when given, only matching files are listed. */
  include?: string[];
  /** Glob patterns on the relative path; matching files are skipped as `excluded`. */
  exclude?: string[];
}
