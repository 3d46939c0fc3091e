/**
 * The chokidar mechanics behind the local sources' watch(): settle half-written files, turn each settled
 * add/change into at most one ListEntry, hand entries to the caller one at a time and in order, and stop cleanly
 * on abort.
 *
 * One gap in chokidar is closed here: it reads a new directory before it starts watching it, so a file created
 * in between (`cp -r`, unzip, rsync into the watched folder, on a busy machine) is never reported. Each directory
 * that appears is therefore listed once more after it had time to settle, and files found then are reported unless
 * the same version was already reported.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { watch } from 'chokidar';
import type { ListEntry, RemovedEntry, WatchEntry } from './source.js';

export type SettledFileEvent = 'add' | 'change';

export interface SettledFileWatchOptions {
  /** A directory (watched recursively) or a single file. */
  path: string;
  /** How long a file's size must stay unchanged before its add/change is reported, in ms. */
  stabilityThresholdMs: number;
  /** Paths chokidar should not track at all. Called often: keep it cheap. */
  ignored?: (path: string, stats?: Stats) => boolean;
  /** What a settled add/change of `path` means for the caller: a file, a skip, or nothing. */
  toEntry: (event: SettledFileEvent, path: string) => Promise<ListEntry | undefined>;
  /**
   * What an unlink of `path` means, looked at once the stability threshold has passed (an editor that saves by
   * deleting and writing anew has put the file back by then): a removal, or nothing. Without it, unlinks are not
   * reported.
   */
  toRemoved?: (path: string) => Promise<RemovedEntry | undefined>;
  /** Files (and links) below a directory that appeared during the watch, for the second look described above. */
  filesBelow?: (directory: string) => AsyncIterable<string>;
  /** Watcher errors (a folder became unreadable...): reported, never fatal. */
  onError?: ((error: unknown) => void) | undefined;
  /** Called once the initial scan is done; changes made before this may go unreported. */
  onReady?: (() => void) | undefined;
}

/** How often chokidar re-checks the size of a file that is still being written, in ms. */
const SIZE_POLL_INTERVAL_MS = 100;
/** Added to twice the stability threshold before a new directory's second look: room for a busy machine. */
const SECOND_LOOK_MARGIN_MS = 500;
/** Versions remembered to drop repeats (chokidar's and the second look's); old ones are forgotten first. */
const REMEMBERED_VERSIONS = 10_000;

/**
 * Runs until `signal` aborts. Rejects (after closing the watcher) only when `onEntry` or `toEntry` throws: that is
 * the caller's failure to take the entry, and silently dropping entries would lose files.
 */
export async function watchSettledFiles(
  options: SettledFileWatchOptions,
  onEntry: (entry: WatchEntry) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) return;
  const { stabilityThresholdMs, filesBelow } = options;
  const watcher = watch(options.path, {
    ignoreInitial: true,
    awaitWriteFinish: { stabilityThreshold: stabilityThresholdMs, pollInterval: SIZE_POLL_INTERVAL_MS },
    ...(options.ignored ? { ignored: options.ignored } : {}),
  });

  let stop = (): void => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  let failure: { error: unknown } | undefined;
  const reported = new RecentVersions(REMEMBERED_VERSIONS);
  const secondLooks = new Set<NodeJS.Timeout>();

  // One entry at a time, in event order: the caller (an enqueuer) need not be reentrant.
  let queue = Promise.resolve();
  const enqueue = (work: () => Promise<void>): void => {
    queue = queue.then(work).catch((error: unknown) => {
      failure ??= { error };
      stop();
    });
  };
  const deliver = async (event: SettledFileEvent, path: string, filesOnly = false): Promise<void> => {
    if (signal.aborted || failure) return;
    const entry = await options.toEntry(event, path);
    if (!entry || signal.aborted || (filesOnly && entry.kind !== 'file')) return;
    if (entry.kind === 'file' && !reported.isNew(entry.file.uri, entry.file.changeToken)) return;
    await onEntry(entry);
  };
  const deliverRemoval = async (path: string): Promise<void> => {
    if (signal.aborted || failure || !options.toRemoved) return;
    const entry = await options.toRemoved(path);
    if (!entry || signal.aborted) return;
    reported.forget(entry.uri);
    await onEntry(entry);
  };
  const lookAgain = async (directory: string): Promise<void> => {
    if (!filesBelow) return;
    for await (const path of filesBelow(directory)) {
      if (signal.aborted || failure) return;
      // A file written recently is chokidar's to report (it watches the directory by now), once settled.
      const stats = await stat(path).catch(() => undefined);
      if (!stats?.isFile() || Date.now() - stats.mtimeMs < stabilityThresholdMs) continue;
      await deliver('add', path, true);
    }
  };

  watcher.on('add', (path) => enqueue(() => deliver('add', path)));
  watcher.on('change', (path) => enqueue(() => deliver('change', path)));
  watcher.on('unlink', (path) => {
    if (!options.toRemoved) return;
    const timer = setTimeout(() => {
      secondLooks.delete(timer);
      enqueue(() => deliverRemoval(path));
    }, stabilityThresholdMs);
    secondLooks.add(timer);
  });
  watcher.on('addDir', (directory) => {
    if (!filesBelow) return;
    const timer = setTimeout(() => {
      secondLooks.delete(timer);
      enqueue(() => lookAgain(directory));
    }, 2 * stabilityThresholdMs + SECOND_LOOK_MARGIN_MS);
    secondLooks.add(timer);
  });
  watcher.on('error', (error) => options.onError?.(error));
  watcher.on('ready', () => options.onReady?.());
  signal.addEventListener('abort', stop, { once: true });
  try {
    await stopped;
  } finally {
    signal.removeEventListener('abort', stop);
    for (const timer of secondLooks) clearTimeout(timer);
    await watcher.close();
    await queue;
  }
  if (failure) throw failure.error;
}

/** The last reported change token per file, for a bounded number of files. */
class RecentVersions {
  private readonly tokens = new Map<string, string>();

  constructor(private readonly limit: number) {}

  /** Records this version; false when it is the one already recorded for the file. */
  isNew(file: string, changeToken: string): boolean {
    if (this.tokens.get(file) === changeToken) return false;
    this.tokens.delete(file); // re-inserted last: a Map iterates in insertion order, oldest first
    this.tokens.set(file, changeToken);
    if (this.tokens.size > this.limit) this.tokens.delete(this.tokens.keys().next().value!);
    return true;
  }

  /** The file is gone: whatever comes back under its name is new. */
  forget(file: string): void {
    this.tokens.delete(file);
  }
}
