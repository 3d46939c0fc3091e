/**
 * Removal check, for a parse job of a file that may have been removed since it was queued (removal marks:
 * src/queue/removal-marks.ts): before anything is read, and again once the outputs are written. A job cancelled
 * before it read records one `skipped` line; one that finds the removal only after writing deletes what it wrote when
 * the removal asked for deletion (and keeps it otherwise, as `--removed keep` keeps outputs).
 *
 * A file found missing when it is read (removed before anyone saw the removal, or a created event for an object
 * deleted since) is the same case: recorded as skipped, not failed.
 */
import type { ContentLock } from '../../queue/queue-control.js';
import { SourceReadError } from '../../sources/errors.js';
import type { ManifestEntry } from '../../store/output-store.js';
import type { JobContext } from '../job-context.js';
import type { StepDeps } from '../processor-deps.js';
import type { ParseJobResult } from './record.js';

/** A parse job that ends without a conversion because its file is gone. */
export interface Cancelled {
  status: 'cancelled';
  reason: string;
  /** Whether the run's counts and events hear of it (a file found missing); a job cancelled by a removal is counted by it. */
  report: boolean;
  /** Its manifest line is written already (by the removal of what it wrote). */
  recorded?: boolean;
}

export type CheckDeps = Pick<StepDeps, 'control' | 'store' | 'logger'>;

/**
 * Before reading: the cancellation when the file was removed after this job was queued (a group's documents: as looked
 * up for all of them when the group started; one removed since is found by the check after writing).
 */
export async function cancelIfRemoved(ctx: JobContext, deps: CheckDeps): Promise<Cancelled | undefined> {
  const removal = ctx.removalAtStart ? ctx.removalAtStart.mark : await deps.control.removals.removedSince(ctx.data.uri, ctx.job.timestamp);
  return removal ? { status: 'cancelled', reason: 'source removed before it was converted', report: false } : undefined;
}

/** The cancellation for a source the read step found missing; other read failures are the caller's to throw. */
export function cancelIfMissing(error: unknown): Cancelled | undefined {
  return error instanceof SourceReadError && error.failure === 'missing'
    ? { status: 'cancelled', reason: 'source removed before it was read', report: true }
    : undefined;
}

/**
 * After writing: when the file was removed meanwhile with `delete`, deletes what this job wrote (a manifest line
 * says why) and cancels it; with `keep`, the conversion stands. Given the document's content lock, the check releases
 * it in the same round trip when the file was not removed (held for the deletes when it was).
 */
export async function undoIfRemoved(ctx: JobContext, deps: CheckDeps, lock?: ContentLock): Promise<Cancelled | undefined> {
  const removal = lock
    ? await lock.releaseUnlessRemoved(ctx.data.uri, ctx.job.timestamp)
    : await deps.control.removals.removedSince(ctx.data.uri, ctx.job.timestamp);
  if (!removal || removal.outputs !== 'delete') return undefined;
  const reason = 'source removed while it was converted; outputs deleted';
  await deps.store.removeDocument(ctx.data.relativePath, { deleteOutputs: true, record: cancelledRecord(ctx, reason) });
  return { status: 'cancelled', reason, report: false, recorded: true };
}

/** Records a cancelled job (except one undone after writing, whose line the removal wrote); reports it if it should. */
export async function recordCancelled(ctx: JobContext, cancelled: Cancelled, deps: CheckDeps & Pick<StepDeps, 'onOutcome'>): Promise<ParseJobResult> {
  const { data } = ctx;
  deps.logger.info({ file: data.relativePath, reason: cancelled.reason }, 'not converted: the source is gone');
  if (!cancelled.recorded) {
    const record = cancelledRecord(ctx, cancelled.reason);
    await deps.store.appendManifest(record);
    if (cancelled.report) {
      deps.onOutcome?.({ status: 'skipped', relativePath: data.relativePath, requests: ctx.requests, durationMs: record.durationMs, reason: cancelled.reason, record });
    }
  }
  return { status: 'skipped', outputs: 0 };
}

function cancelledRecord(ctx: JobContext, reason: string): ManifestEntry {
  const { data } = ctx;
  return {
    path: data.relativePath,
    source: data.uri,
    size: data.size,
    status: 'skipped',
    outputs: [],
    attempts: ctx.requests,
    durationMs: ctx.elapsedMs(),
    reason,
    at: new Date().toISOString(),
  };
}
