/**
 * A folder on the local disk as a Source: a streamed depth-first listing (local-dir-walk.ts), a chokidar watch
 * with the same filters (local-dir-watch.ts), and reads straight from disk (local-file.ts).
 */
import { lstat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { resolve } from 'node:path';
import { InlineFileCalls } from '../common/inline-file-calls.js';
import { fsPathOfFileUri, pathText } from './byte-paths.js';
import { errorCodeOf } from './errors.js';
import { IgnoredSubtrees } from './ignored-subtrees.js';
import { walkLocalDirectory } from './local-dir-walk.js';
import { watchLocalDirectory } from './local-dir-watch.js';
import { openLocalFile, readSmallLocalFile } from './local-file.js';
import { settledWatchSettings, type LocalSourceWatchOptions } from './local-watch-options.js';
import { isSameOrInside } from './paths.js';
import { createEntrySelector, type EntrySelector } from './selection.js';
import type { ListEntry, Source, SourceFile, SourcePresence, SourceSelection, WatchEntry } from './source.js';

export interface LocalDirSourceOptions extends LocalSourceWatchOptions {
  /** The folder, as the user gave it; a relative path resolves against the working directory. */
  location: string;
  selection?: SourceSelection;
  /**
   * Absolute paths of subtrees not to list or watch, such as the output folder when it lies inside the root
   * (`docmill run . --out ./out`). They need not exist yet.
   */
  ignorePaths?: string[];
}

export class LocalDirSource implements Source {
  readonly location: string;
  /** Absolute path of the root folder. */
  readonly root: string;
  private readonly selector: EntrySelector;
  private ignored: Promise<IgnoredSubtrees> | undefined;
  /** Aborted by close(), so a running watch() ends with the source. */
  private readonly closing = new AbortController();
  /** Files listed and small files read inline on a local disk that answers fast (common/inline-file-calls.ts). */
  readonly #fileCalls = new InlineFileCalls(() => this.root);

  constructor(private readonly options: LocalDirSourceOptions) {
    this.location = options.location;
    this.root = resolve(options.location);
    this.selector = createEntrySelector(options.selection);
  }

  async *list(signal?: AbortSignal): AsyncIterable<ListEntry> {
    yield* walkLocalDirectory({
      root: this.root,
      location: this.location,
      selector: this.selector,
      ignored: await this.ignoredSubtrees(),
      fileCalls: this.#fileCalls,
      signal,
    });
  }

  async watch(onEntry: (entry: WatchEntry) => Promise<void>, signal: AbortSignal): Promise<void> {
    await watchLocalDirectory(
      {
        root: this.root,
        location: this.location,
        selector: this.selector,
        ignored: await this.ignoredSubtrees(),
        ...settledWatchSettings(this.options),
      },
      onEntry,
      AbortSignal.any([signal, this.closing.signal]),
    );
  }

  open(file: SourceFile, signal?: AbortSignal): Promise<Readable> {
    return openLocalFile(file, signal);
  }

  readSmall(file: SourceFile, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array | undefined> {
    return readSmallLocalFile(file, maxBytes, this.#fileCalls, signal);
  }

  async presence(uri: string): Promise<SourcePresence> {
    if (!uri.startsWith('file:')) return 'unknown';
    const path = fsPathOfFileUri(uri);
    if (!isSameOrInside(this.root, pathText(path))) return 'unknown';
    try {
      await lstat(path);
      return 'present';
    } catch (error) {
      const code = errorCodeOf(error);
      return code === 'ENOENT' || code === 'ENOTDIR' ? 'gone' : 'unknown';
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
  }

  /** Resolved once, lazily: it needs realpath calls, which a constructor cannot await. */
  private ignoredSubtrees(): Promise<IgnoredSubtrees> {
    this.ignored ??= IgnoredSubtrees.resolve(this.options.ignorePaths, this.root);
    return this.ignored;
  }
}
