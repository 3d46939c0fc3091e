/**
 * How both local sources (a folder, a single file) watch: the settings they take, and what they hand the settled-file
 * watcher from them, so the two read one default and pass the same hooks.
 */
import type { SettledFileWatchOptions } from './settled-file-watcher.js';

/** Default time a file's size must stay unchanged before watch() reports it. */
const DEFAULT_STABILITY_THRESHOLD_MS = 1000;

export interface LocalSourceWatchOptions {
  /** How long a file's size must stay unchanged before watch() reports it, in ms (default 1000). */
  stabilityThresholdMs?: number;
  /** Watcher errors (a folder became unreadable...). They are not fatal: the watch goes on. */
  onError?: (error: unknown) => void;
  /** Called when watch() has finished its initial scan and reports changes from then on. */
  onWatchReady?: () => void;
}

/** The settled-file watcher's settings that come from the source's options. */
export function settledWatchSettings(options: LocalSourceWatchOptions): Pick<SettledFileWatchOptions, 'stabilityThresholdMs' | 'onError' | 'onReady'> {
  return {
    stabilityThresholdMs: options.stabilityThresholdMs ?? DEFAULT_STABILITY_THRESHOLD_MS,
    onError: options.onError,
    onReady: options.onWatchReady,
  };
}

