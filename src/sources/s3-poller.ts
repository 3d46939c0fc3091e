/**
 * S3Source.watch(): list, compare with the checkpoint, report what is new or changed, sleep, repeat.
 *
 * A failed listing (network, throttling, a permission blip) is reported through `onError` and retried at the next
 * poll; the checkpoint is only replaced by a poll that completed, so nothing is lost. Other failures end the watch:
 * the caller's onEntry failing, a damaged checkpoint, or a store that does not list in key order.
 *
 * Keys gone are reported after the poll's new and changed files, not where the key order meets them: a key renamed
 * (copied, then deleted) is then one poll's removal of the old key reported after the new key's file, so the removal
 * finds the new key's job queued before it (see pipeline/steps/remove-source.ts, renames). Only the keys are held
 * meanwhile, up to DEFERRED_REMOVALS; a poll that finds more gone reports them as they come beyond that.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SourceListError } from './errors.js';
import { fileEntry } from './list-entries.js';
import { detectChanges, type ListedObject } from './s3-change-detector.js';
import type { S3Checkpoint } from './s3-checkpoint.js';
import type { RemovedEntry, WatchEntry } from './source.js';

/** Keys gone held back until the end of a poll: some megabytes at most, for a mass deletion. */
const DEFERRED_REMOVALS = 10_000;

export interface PollSummary {
  /** True for the first poll without a checkpoint: it recorded the current state and reported nothing. */
  baseline: boolean;
  /** New and changed files reported by this poll. */
  reported: number;
}

export interface S3PollerOptions {
  checkpoint: S3Checkpoint;
  pollIntervalMs: number;
  location: string;
  /** The selected objects below the prefix, in key order. */
  listObjects: (signal: AbortSignal) => AsyncIterable<ListedObject>;
  /**
   * The entry for a recorded key the listing no longer has, or undefined when it is not gone after all (it still
   * exists, outside the selection now). Without it, such keys are only dropped from the checkpoint.
   */
  removedEntry?: ((key: string) => Promise<RemovedEntry | undefined>) | undefined;
  onError?: ((error: unknown) => void) | undefined;
  /** Called after every completed poll (for logs, metrics and tests). */
  onPoll?: ((summary: PollSummary) => void) | undefined;
}

export async function pollForChanges(
  options: S3PollerOptions,
  onEntry: (entry: WatchEntry) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    try {
      // Not `onPoll?.(await pollOnce(...))`: optional chaining would skip the poll itself when onPoll is unset.
      const summary = await pollOnce(options, onEntry, signal);
      options.onPoll?.(summary);
    } catch (error) {
      if (signal.aborted) return;
      if (!(error instanceof SourceListError)) throw error;
      options.onError?.(error);
    }
    await sleep(options.pollIntervalMs, undefined, { signal }).catch(() => undefined);
  }
}

async function pollOnce(
  options: S3PollerOptions,
  onEntry: (entry: WatchEntry) => Promise<void>,
  signal: AbortSignal,
): Promise<PollSummary> {
  const { checkpoint } = options;
  const baseline = !(await checkpoint.exists());
  const next = await checkpoint.startRewrite();
  let reported = 0;
  try {
    const changes = detectChanges(
      options.listObjects(signal),
      baseline ? undefined : checkpoint.entries(),
      next,
      options.location,
    );
    const gone: string[] = [];
    const reportGone = async () => {
      for (const key of gone.splice(0)) {
        const removed = await options.removedEntry?.(key);
        if (removed) await onEntry(removed);
      }
    };
    for await (const change of changes) {
      if (change.kind === 'gone') {
        if (options.removedEntry) gone.push(change.key);
        if (gone.length >= DEFERRED_REMOVALS) await reportGone();
        continue;
      }
      await onEntry(fileEntry(change.file));
      reported += 1;
    }
    await reportGone();
    await next.commit();
  } finally {
    await next.discard();
  }
  return { baseline, reported };
}
