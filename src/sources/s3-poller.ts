/**
 * S3Source.watch(): list, compare with the checkpoint, report what is new or changed, sleep, repeat.
 *
 * A failed listing (network, throttling, a permission blip) is reported through `onError` and retried at the next
 * poll; the checkpoint is only replaced by a poll that completed, so nothing is lost. Other failures end the watch:
 * the caller's onEntry failing, a damaged checkpoint, or a store that does not list in key order.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SourceListError } from './errors.js';
import { fileEntry } from './list-entries.js';
import { detectChanges, type ListedObject } from './s3-change-detector.js';
import type { S3Checkpoint } from './s3-checkpoint.js';
import type { ListEntry } from './source.js';

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
  onError?: ((error: unknown) => void) | undefined;
  /** Called after every completed poll (for logs, metrics and tests). */
  onPoll?: ((summary: PollSummary) => void) | undefined;
}

export async function pollForChanges(
  options: S3PollerOptions,
  onEntry: (entry: ListEntry) => Promise<void>,
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
  onEntry: (entry: ListEntry) => Promise<void>,
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
    for await (const file of changes) {
      await onEntry(fileEntry(file));
      reported += 1;
    }
    await next.commit();
  } finally {
    await next.discard();
  }
  return { baseline, reported };
}
