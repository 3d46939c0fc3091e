/**
 * The Source for a location as the user typed it: `s3://bucket/prefix`, a folder, or a single file. The S3 source (and
 * with it the AWS SDK and the event queues' clients) is loaded only for an `s3://` location: a run from a folder to a
 * folder does not pay for loading them.
 */
import { statSync } from 'node:fs';
import type { S3Client } from '@aws-sdk/client-s3';
import { isS3Location } from '../common/s3-location.js';
import { errorCodeOf, SourceNotFoundError } from './errors.js';
import { LocalDirSource } from './local-dir-source.js';
import { LocalFileSource } from './local-file-source.js';
import type { LocalSourceWatchOptions } from './local-watch-options.js';
import type { S3SourceSettings } from './s3-source.js';
import type { Source, SourceSelection } from './source.js';

export interface CreateSourceOptions extends S3SourceSettings, LocalSourceWatchOptions {
  selection?: SourceSelection;
  /**
   * Subtrees not to list (the output folder when it lies inside the source): absolute paths for a local folder,
   * `s3://` locations for an S3 source (those of its bucket below its prefix).
   */
  ignorePaths?: string[];
  /** S3: a client to share (left open by the source's close()); otherwise one is made from the S3 settings. */
  s3Client?: S3Client;
  /** Non-fatal watch errors (chokidar errors, failed S3 polls). */
  onError?: (error: unknown) => void;
}

/** Throws S3UrlError for a malformed s3:// location and SourceNotFoundError for a path that is not there. */
export async function createSource(location: string, options: CreateSourceOptions = {}): Promise<Source> {
  const { selection = {}, ignorePaths = [], s3Client, stabilityThresholdMs, onWatchReady, ...s3Settings } = options;
  if (isS3Location(location)) {
    const { S3Source } = await import('./s3-source.js');
    const ignoreLocations = ignorePaths.filter(isS3Location);
    return new S3Source({ ...s3Settings, location, selection, client: s3Client, ...(ignoreLocations.length ? { ignoreLocations } : {}) });
  }

  let stats;
  try {
    stats = statSync(location);
  } catch (error) {
    const code = errorCodeOf(error);
    throw new SourceNotFoundError(location, code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`, error);
  }
  const watchOptions = { stabilityThresholdMs, onWatchReady, onError: options.onError };
  if (stats.isDirectory()) return new LocalDirSource({ location, selection, ignorePaths: ignorePaths.filter((path) => !isS3Location(path)), ...watchOptions });
  if (stats.isFile()) return new LocalFileSource({ location, selection, ...watchOptions });
  throw new SourceNotFoundError(location, 'is neither a folder nor a file');
}
