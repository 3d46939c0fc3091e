/**
 * Where documents come from and where their outputs go: one S3 client per process, the output store, and the sources
 * by location (built once each, closed together). Opened through the composition root. The AWS SDK is loaded the
 * first time an S3 client is needed, not at start-up: a run from a folder to a folder never loads it.
 */
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { createSource } from '../sources/create-source.js';
import type { S3EventSettings } from '../sources/s3-source.js';
import { asFolderPrefix } from '../sources/s3-url.js';
import type { Source, SourceSelection } from '../sources/source.js';
import { createStore } from '../store/create-store.js';
import { InvalidLocationError } from '../store/store-errors.js';
import { isS3Location, parseS3Location } from '../common/s3-location.js';
import type { OutputStore } from '../store/output-store.js';
import type { S3Options } from './options.js';

/** One S3 client for every S3 source and store of a process, created on first use. */
export class S3ClientCache {
  #client: Promise<S3Client> | undefined;
  #made: S3Client | undefined;

  constructor(private readonly settings: S3Options = {}) {}

  get(): Promise<S3Client> {
    this.#client ??= import('../sources/s3-client.js').then(({ createS3Client }) => {
      this.#made = createS3Client({
        endpoint: this.settings.endpoint,
        region: this.settings.region,
        forcePathStyle: this.settings.forcePathStyle,
      });
      return this.#made;
    });
    return this.#client;
  }

  close(): void {
    this.#made?.destroy();
  }
}

export async function buildStore(out: string, s3: S3ClientCache): Promise<OutputStore> {
  return createStore(out.startsWith('s3://') ? out : resolve(out), out.startsWith('s3://') ? { s3Client: await s3.get() } : {});
}

export interface SourceFactoryOptions {
  selection?: SourceSelection;
  /** Subtrees a source must not list (the output folder or S3 prefix inside the source): paths, or `s3://` locations. */
  ignorePaths?: string[];
  /** Where an S3 watch keeps its checkpoint. */
  checkpointDir?: string;
  pollIntervalMs?: number;
  /** An S3 watch reads the bucket's notifications from this queue. */
  events?: S3EventSettings;
}

/**
 * Where an S3 watch keeps its listing checkpoint unless told: the user's cache folder, one per (source, queue),
 * so a restarted watcher reports only what changed while it was down.
 */
export function defaultCheckpointDir(location: string, queue: string, cacheDir: string): string {
  const name = createHash('sha256').update(`${canonicalLocation(location)}\n${queue}`).digest('hex').slice(0, 16);
  return join(cacheDir, 'docmill', 'checkpoints', name);
}

/** Normalises a location so job data means the same on every machine: local paths become absolute. */
export function canonicalLocation(location: string): string {
  return location.startsWith('s3://') ? location : resolve(location);
}

/** Sources by location, built once each: the worker opens files through the source named in each job. */
export function sourceFactory(s3: S3ClientCache, options: SourceFactoryOptions = {}): (location: string) => Promise<Source> {
  const cache = new Map<string, Promise<Source>>();
  return (location) => {
    const canonical = canonicalLocation(location);
    let source = cache.get(canonical);
    if (!source) {
      source = (async () =>
        createSource(canonical, {
          ...options,
          ...(canonical.startsWith('s3://') ? { s3Client: await s3.get() } : {}),
        }))();
      // A location that could not be opened (missing, malformed) is tried afresh next time, as before.
      source.catch(() => cache.delete(canonical));
      cache.set(canonical, source);
    }
    return source;
  };
}

/** Closes every source a factory built (their watchers and clients). */
export function sourceCloser(): {
  track: (factory: (location: string) => Promise<Source>) => (location: string) => Promise<Source>;
  close: () => Promise<void>;
} {
  const built = new Set<Promise<Source>>();
  return {
    track: (factory) => (location) => {
      const source = factory(location);
      built.add(source);
      return source;
    },
    close: async () => {
      for (const source of built) {
        const opened = await source.catch(() => undefined);
        await opened?.close();
      }
    },
  };
}

/**
 * Refuses an output folder that is the local source folder itself (InvalidLocationError): the outputs would be listed
 * among its documents on the next run. One inside the source is left out of its listing; one holding it is beside it.
 */
export async function checkOutputIsNotSource(source: string | undefined, out: string): Promise<void> {
  if (source === undefined || isS3Location(source) !== isS3Location(out)) return;
  if (isS3Location(source)) {
    if (!sameS3Folder(source, out)) return;
    throw new InvalidLocationError(out, 'it is the source prefix itself, where the outputs would be listed among the documents: give them a prefix of their own (one inside the source is left out of its listing)');
  }
  const [sourcePath, outPath] = await Promise.all([realpathOr(resolve(source)), realpathOr(resolve(out))]);
  if (sourcePath !== outPath) return;
  throw new InvalidLocationError(out, 'it is the source folder itself, where the outputs would be listed among the documents: give them a folder of their own (one inside the source is left out of its listing)');
}

async function realpathOr(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

/** Whether two `s3://` locations name the same bucket and folder (`s3://b/docs` and `s3://b/docs/`). */
function sameS3Folder(a: string, b: string): boolean {
  const folder = (location: string) => {
    const { bucket, rest } = parseS3Location(location, (reason) => new InvalidLocationError(location, reason));
    return `${bucket}/${asFolderPrefix(rest)}`;
  };
  return folder(a) === folder(b);
}
