/**
 * LocalDirSource.watch(): chokidar events filtered by the same rules as list(). chokidar follows symlinks, and
 * `followSymlinks: false` would not keep a link's target inside the root anyway, so every event is checked here:
 * the realpath must lie inside the root, outside the ignored subtrees, and the name must pass the selection.
 *
 * Skips are reported on `add` only (a new unsupported file is worth one log line; every later write to it is not),
 * and docmill's own temporary files are never reported.
 */
import type { Stats } from 'node:fs';
import { realpathSync } from 'node:fs';
import { opendir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDocmillFolder } from './docmill-outputs.js';
import { errorCodeOf, SourceListError } from './errors.js';
import type { IgnoredSubtrees } from './ignored-subtrees.js';
import { fileEntry, removedEntry, skippedEntry } from './list-entries.js';
import { localSourceFile } from './local-file.js';
import { isSameOrInside, toRelativePath } from './paths.js';
import { isTemporaryName, type EntrySelector } from './selection.js';
import { watchSettledFiles, type SettledFileEvent } from './settled-file-watcher.js';
import type { ListEntry, RemovedEntry, SkipReason, WatchEntry } from './source.js';

export interface LocalDirWatchOptions {
  /** Absolute path of the root directory. */
  root: string;
  /** For error messages: the location as the user gave it. */
  location: string;
  selector: EntrySelector;
  ignored: IgnoredSubtrees;
  stabilityThresholdMs: number;
  onError?: ((error: unknown) => void) | undefined;
  onReady?: (() => void) | undefined;
}

export async function watchLocalDirectory(
  options: LocalDirWatchOptions,
  onEntry: (entry: WatchEntry) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  let rootRealPath: string;
  try {
    rootRealPath = await realpath(options.root);
  } catch (error) {
    throw new SourceListError(options.location, `the folder cannot be watched (${errorCodeOf(error)})`, error);
  }
  const filter = new WatchFilter(options, rootRealPath);
  await watchSettledFiles(
    {
      path: options.root,
      stabilityThresholdMs: options.stabilityThresholdMs,
      ignored: (path, stats) => filter.isIgnored(path, stats),
      toEntry: (event, path) => filter.toEntry(event, path),
      toRemoved: (path) => filter.toRemoved(path),
      filesBelow: (directory) => filter.filesBelow(directory),
      onError: options.onError,
      onReady: options.onReady,
    },
    onEntry,
    signal,
  );
}

class WatchFilter {
  constructor(
    private readonly options: LocalDirWatchOptions,
    private readonly rootRealPath: string,
  ) {}

  /**
   * Keeps chokidar out of what list() would not enter: ignored subtrees, wholly excluded directories, links
   * leaving the root, and link loops (which would otherwise make chokidar recurse without end). Synchronous,
   * as chokidar requires; the realpath calls happen only for directories and links.
   */
  isIgnored(path: string, stats?: Stats): boolean {
    const { root, ignored, selector } = this.options;
    if (path === root) return false;
    if (ignored.contains(path) || isTemporaryName(basename(path))) return true;
    if (!stats || !(stats.isDirectory() || stats.isSymbolicLink())) return false;
    if (stats.isDirectory() && (selector.excludesWholeDirectory(toRelativePath(root, path)) || isDocmillFolder(path, basename(path)))) return true;
    const target = realpathOrUndefined(path);
    if (target === undefined) return false; // gone, or a dangling link: nothing to descend into
    if (!isSameOrInside(this.rootRealPath, target) || ignored.contains(target)) return true;
    return this.realPathsOfAncestors(path).includes(target);
  }

  async toEntry(event: SettledFileEvent, path: string): Promise<ListEntry | undefined> {
    const { root, ignored, selector } = this.options;
    const relativePath = toRelativePath(root, path);
    const reportSkip = (reason: SkipReason, detail?: string): ListEntry | undefined =>
      event === 'add' ? skippedEntry(relativePath, reason, detail) : undefined;

    if (ignored.contains(path)) return undefined;
    const reason = selector.skipReason(relativePath);
    if (reason === 'temporary') return undefined;
    if (reason) return reportSkip(reason);

    let target: string;
    let stats: Stats;
    try {
      target = await realpath(path);
      if (!isSameOrInside(this.rootRealPath, target)) return reportSkip('symlink-outside-root', target);
      if (ignored.contains(target)) return undefined;
      // A fresh stat: the size and mtime the change token is made of must be those of the settled file.
      stats = await stat(path);
    } catch (error) {
      // Deleted (or renamed away) between the event and now: nothing to report.
      if (errorCodeOf(error) === 'ENOENT') return undefined;
      return reportSkip('unreadable', errorCodeOf(error));
    }
    return stats.isFile() ? fileEntry(localSourceFile(path, relativePath, stats)) : undefined;
  }

  /** A selected file unlinked (deleted, or renamed away) and still absent: its removal. */
  async toRemoved(path: string): Promise<RemovedEntry | undefined> {
    const { root, ignored, selector } = this.options;
    if (ignored.contains(path)) return undefined;
    const relativePath = toRelativePath(root, path);
    if (selector.skipReason(relativePath)) return undefined;
    try {
      await stat(path);
      return undefined; // back already (a save that deletes and rewrites): a change, reported as such
    } catch (error) {
      const code = errorCodeOf(error);
      return code === 'ENOENT' || code === 'ENOTDIR' ? removedEntry(pathToFileURL(path).href, relativePath) : undefined;
    }
  }

  /**
   * Files and links below a directory that appeared during the watch, for the watcher's second look. It does not
   * follow links to directories, nor enter ignored or wholly excluded ones; toEntry() judges each path it yields.
   */
  async *filesBelow(directory: string): AsyncGenerator<string> {
    const { root, ignored, selector } = this.options;
    const pending = [directory];
    for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
      let entries;
      try {
        entries = await opendir(current);
      } catch {
        continue; // gone again, or unreadable: chokidar reports what it can
      }
      for await (const entry of entries) {
        const path = join(current, entry.name);
        if (entry.isFile() || entry.isSymbolicLink()) yield path;
        else if (entry.isDirectory() && !ignored.contains(path) && !selector.excludesWholeDirectory(toRelativePath(root, path)) && !isDocmillFolder(path, basename(path))) {
          pending.push(path);
        }
      }
    }
  }

  /** Realpaths of the directories from the root down to `path`'s parent (the walk's "current path"). */
  private realPathsOfAncestors(path: string): string[] {
    const realPaths = [this.rootRealPath];
    let current = this.options.root;
    const names = toRelativePath(this.options.root, dirname(path)).split('/').filter((name) => name !== '');
    for (const name of names) {
      current = join(current, name);
      const real = realpathOrUndefined(current);
      if (real !== undefined) realPaths.push(real);
    }
    return realPaths;
  }
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}
