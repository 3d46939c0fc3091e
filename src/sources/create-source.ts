/**
 * The Source for a location as the user typed it: `s3://bucket/prefix`, a folder, or a single file.
 *
 * Synchronous on purpose (one stat): callers build sources in places that cannot await, such as a worker's
 * location-to-source cache.
 */
import { statSync } from 'node:fs';
import type { S3Client } from '@aws-sdk/client-s3';
import { errorCodeOf, SourceNotFoundError } from './errors.js';
import { LocalDirSource } from './local-dir-source.js';
import { LocalFileSource } from './local-file-source.js';
import type { PollSummary } from './s3-poller.js';
import { S3Source } from './s3-source.js';
import type { Source, SourceSelection } from './source.js';

export interface CreateSourceOptions {
  selection?: SourceSelection;

  /** Local folders: absolute paths of subtrees not to list (the output folder when it lies inside the source). */
  ignorePaths?: string[];
  /** Local sources: how long a file's size must stay unchanged before watch() reports it, in ms (default 1000). */
  stabilityThresholdMs?: number;
  /** Local sources: called when watch() has finished its initial scan. */
  onWatchReady?: () => void;

  /** S3: a client to share (left open by the source's close()); otherwise one is made from the next three. */
  s3Client?: S3Client;
  endpoint?: string;
  region?: string;
  forcePathStyle?: boolean;
  /** S3: watch() polling interval in ms (default 30000). */
  pollIntervalMs?: number;
  /** S3: folder for watch()'s checkpoint, kept across runs. */
  checkpointDir?: string;
  /** S3: keys per ListObjectsV2 page. */
  pageSize?: number;
  /** S3: called after each completed poll of watch(). */
  onPoll?: (summary: PollSummary) => void;

  /** Non-fatal watch errors (chokidar errors, failed S3 polls). */
  onError?: (error: unknown) => void;
}

/** Throws S3UrlError for a malformed s3:// location and SourceNotFoundError for a path that is not there. */
export function createSource(location: string, options: CreateSourceOptions = {}): Source {
  const { selection = {}, onError } = options;
  if (/^s3:\/\//i.test(location)) {
    return new S3Source({
      location,
      selection,
      client: options.s3Client,
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      pollIntervalMs: options.pollIntervalMs,
      checkpointDir: options.checkpointDir,
      pageSize: options.pageSize,
      onPoll: options.onPoll,
      onError,
    });
  }

  let stats;
  try {
    stats = statSync(location);
  } catch (error) {
    const code = errorCodeOf(error);
    throw new SourceNotFoundError(location, code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`, error);
  }
  const watchOptions = {
    stabilityThresholdMs: options.stabilityThresholdMs,
    onWatchReady: options.onWatchReady,
    onError,
  };
  if (stats.isDirectory()) {
    return new LocalDirSource({ location, selection, ignorePaths: options.ignorePaths ?? [], ...watchOptions });
  }
  if (stats.isFile()) return new LocalFileSource({ location, selection, ...watchOptions });
  throw new SourceNotFoundError(location, 'is neither a folder nor a file');
}
