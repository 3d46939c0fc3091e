/**
 * Where documents come from and where their outputs go: one S3 client per process, the output store, and the sources
 * by location (built once each, closed together). Opened through the composition root.
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '../sources/s3-client.js';
import { createSource } from '../sources/create-source.js';
import type { S3EventSettings } from '../sources/s3-source.js';
import type { Source, SourceSelection } from '../sources/source.js';
import { createStore } from '../store/create-store.js';
import type { OutputStore } from '../store/output-store.js';
import type { S3Options } from './options.js';

/** One S3 client for every S3 source and store of a process, created on first use. */
export class S3ClientCache {
  #client: S3Client | undefined;

  constructor(private readonly settings: S3Options = {}) {}

  get(): S3Client {
    this.#client ??= createS3Client({
      endpoint: this.settings.endpoint,
      region: this.settings.region,
      forcePathStyle: this.settings.forcePathStyle,
    });
    return this.#client;
  }

  close(): void {
    this.#client?.destroy();
  }
}

export function buildStore(out: string, s3: S3ClientCache): OutputStore {
  return createStore(out.startsWith('s3://') ? out : resolve(out), out.startsWith('s3://') ? { s3Client: s3.get() } : {});
}

export interface SourceFactoryOptions {
  selection?: SourceSelection;
  /** Subtrees a local source must not list (the output folder inside the source). */
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
export function sourceFactory(s3: S3ClientCache, options: SourceFactoryOptions = {}): (location: string) => Source {
  const cache = new Map<string, Source>();
  return (location) => {
    const canonical = canonicalLocation(location);
    let source = cache.get(canonical);
    if (!source) {
      source = createSource(canonical, {
        ...options,
        ...(canonical.startsWith('s3://') ? { s3Client: s3.get() } : {}),
      });
      cache.set(canonical, source);
    }
    return source;
  };
}

/** Closes every source a factory built (their watchers and clients). */
export function sourceCloser(): { track: (factory: (location: string) => Source) => (location: string) => Source; close: () => Promise<void> } {
  const built: Source[] = [];
  return {
    track: (factory) => (location) => {
      const source = factory(location);
      if (!built.includes(source)) built.push(source);
      return source;
    },
    close: async () => {
      for (const source of built) await source.close();
    },
  };
}
