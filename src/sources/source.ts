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

export type SkipReason = 'unsupported' | 'excluded' | 'symlink-outside-root' | 'symlink-loop' | 'symlink-dangling' | 'unreadable' | 'temporary';

export type ListEntry =
  | { kind: 'file'; file: SourceFile }
  | { kind: 'skipped'; relativePath: string; reason: SkipReason; detail?: string };

export interface Source {
  /** The location as the user gave it (a path or s3://bucket/prefix), for logs and job data. */
  readonly location: string;
  /** One pass over everything below the root, streamed. */
  list(signal?: AbortSignal): AsyncIterable<ListEntry>;
  /**
   * Reports files as they appear or change until `signal` aborts (no initial listing: callers list first).
   * Half-written local files are reported only once their size has settled.
   */
  watch(onEntry: (entry: ListEntry) => Promise<void>, signal: AbortSignal): Promise<void>;
  /** The bytes of one listed file. */
  open(file: SourceFile, signal?: AbortSignal): Promise<Readable>;
  close(): Promise<void>;
}

export interface SourceSelection {
  /** Glob patterns (picomatch) on the relative path; when given, only matching files are listed. */
  include?: string[];
  /** Glob patterns on the relative path; matching files are skipped as `excluded`. */
  exclude?: string[];
}
