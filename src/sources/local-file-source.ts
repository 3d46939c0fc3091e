/**
 * A single local file as a Source (`docmill run report.pdf`): it lists just that file, under its base name, and
 * watches it for changes. The user named the file, so a symlink is followed wherever it points.
 */
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { InlineFileCalls } from '../common/inline-file-calls.js';
import { errorCodeOf } from './errors.js';
import { fileEntry, skippedEntry } from './list-entries.js';
import { localSourceFile, openLocalFile, readSmallLocalFile } from './local-file.js';
import { settledWatchSettings, type LocalSourceWatchOptions } from './local-watch-options.js';
import { createEntrySelector, type EntrySelector } from './selection.js';
import { watchSettledFiles } from './settled-file-watcher.js';
import type { ListEntry, Source, SourceFile, SourceSelection, WatchEntry } from './source.js';

export interface LocalFileSourceOptions extends LocalSourceWatchOptions {
  /** The file, as the user gave it; a relative path resolves against the working directory. */
  location: string;
  selection?: SourceSelection;
}

export class LocalFileSource implements Source {
  readonly location: string;
  /** Absolute path of the file. */
  readonly path: string;
  private readonly relativePath: string;
  private readonly selector: EntrySelector;
  private readonly closing = new AbortController();
  /** The file read inline on a local disk that answers fast (common/inline-file-calls.ts). */
  readonly #fileCalls = new InlineFileCalls(() => this.path);

  constructor(private readonly options: LocalFileSourceOptions) {
    this.location = options.location;
    this.path = resolve(options.location);
    this.relativePath = basename(this.path);
    this.selector = createEntrySelector(options.selection);
  }

  async *list(signal?: AbortSignal): AsyncIterable<ListEntry> {
    signal?.throwIfAborted();
    yield await this.currentEntry();
  }

  async watch(onEntry: (entry: WatchEntry) => Promise<void>, signal: AbortSignal): Promise<void> {
    await watchSettledFiles(
      {
        path: this.path,
        // Changes of a selected file only: a skip was already reported by list().
        toEntry: async () => {
          const entry = await this.currentEntry();
          return entry.kind === 'file' ? entry : undefined;
        },
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

  async close(): Promise<void> {
    this.closing.abort();
  }

  private async currentEntry(): Promise<ListEntry> {
    const reason = this.selector.skipReason(this.relativePath);
    if (reason) return skippedEntry(this.relativePath, reason);
    try {
      const stats = await stat(this.path);
      if (!stats.isFile()) return skippedEntry(this.relativePath, 'unsupported', 'not a regular file');
      return fileEntry(localSourceFile(this.path, this.relativePath, stats));
    } catch (error) {
      return skippedEntry(this.relativePath, 'unreadable', errorCodeOf(error));
    }
  }
}
