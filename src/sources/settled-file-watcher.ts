/**
 * The chokidar mechanics behind the local sources' watch(): settle half-written files, turn each settled
 * add/change into at most one ListEntry, hand entries to the caller one at a time and in order, and stop cleanly
 * on abort.
 */
import type { Stats } from 'node:fs';
import { watch } from 'chokidar';
import type { ListEntry } from './source.js';

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
  /** Watcher errors (a folder became unreadable...): reported, never fatal. */
  onError?: ((error: unknown) => void) | undefined;
  /** Called once the initial scan is done; changes made before this may go unreported. */
  onReady?: (() => void) | undefined;
}

/** How often chokidar re-checks the size of a file that is still being written, in ms. */
const SIZE_POLL_INTERVAL_MS = 100;

/**
 * Runs until `signal` aborts. Rejects (after closing the watcher) only when `onEntry` or `toEntry` throws: that is
 * the caller's failure to take the entry, and silently dropping entries would lose files.
 */
export async function watchSettledFiles(
  options: SettledFileWatchOptions,
  onEntry: (entry: ListEntry) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) return;
  const watcher = watch(options.path, {
    ignoreInitial: true,
    awaitWriteFinish: { stabilityThreshold: options.stabilityThresholdMs, pollInterval: SIZE_POLL_INTERVAL_MS },
    ...(options.ignored ? { ignored: options.ignored } : {}),
  });

  let stop = (): void => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  let failure: { error: unknown } | undefined;
  // One entry at a time, in event order: the caller (an enqueuer) need not be reentrant.
  let queue = Promise.resolve();
  const report = (event: SettledFileEvent, path: string): void => {
    queue = queue
      .then(async () => {
        if (signal.aborted || failure) return;
        const entry = await options.toEntry(event, path);
        if (entry && !signal.aborted) await onEntry(entry);
      })
      .catch((error: unknown) => {
        failure ??= { error };
        stop();
      });
  };

  watcher.on('add', (path) => report('add', path));
  watcher.on('change', (path) => report('change', path));
  watcher.on('error', (error) => options.onError?.(error));
  watcher.on('ready', () => options.onReady?.());
  signal.addEventListener('abort', stop, { once: true });
  try {
    await stopped;
  } finally {
    signal.removeEventListener('abort', stop);
    await watcher.close();
    await queue;
  }
  if (failure) throw failure.error;
}
