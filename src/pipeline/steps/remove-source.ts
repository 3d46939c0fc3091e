/**
 * The removal job: a source file is gone (an S3 "removed" event, a watched file unlinked, a file a run no longer
 * finds). In order:
 *
 *   1. mark the removal in Redis, so parse jobs of the file queued before it cancel themselves (removal-check.ts);
 *   2. with `delete`, wait out the grace period in the delayed set (see "Renames" below);
 *   3. act on nothing when the source says the file is back (a newer version of it is queued), or when the removal is
 *      recorded already (its state is marked removed: a removal whose outputs were kept is recorded once);
 *   4. with `delete`, when the content index leads to this file's outputs, wait until the parse jobs queued before
 *      the grace ended are done (see "Renames");
 *   5. drop the finished parse job that made the outputs, so the same content uploaded again is queued anew;
 *   6. with `delete`, delete every output of the file, its state and index entry, then record `removed` in the
 *      manifest (the store does both, outputs first: OutputStore.removeDocument); with `keep`, the record, and the
 *      state marked removed.
 *
 * A state recorded for the same path from another source file (two sources into one output) is left alone.
 *
 * Renames. A rename is two reports, in either order and possibly to different workers: the old path removed, the new
 * path created. The new path's job finds the content through the content index and copies the old path's outputs
 * (reuse-content.ts), which it can do only while they exist, so a removal with `delete` must not delete them before
 * that job has looked. Two things see to it:
 *
 *   - the grace: at its first start the removal moves itself to the delayed set for `graceMs` (10 s by default; 0 for a
 *     run, which queues its removals after its listing). A watch reports the two halves of a rename within moments of
 *     each other (a folder watch both after the same settling time, a poll the removals after the files, S3 events
 *     as S3 sends them), so the new path's job is queued before the grace ends;
 *   - the wait: BullMQ hands out waiting jobs first in, first out, and a delayed job that is due joins the back of the
 *     line, so every parse job queued before the grace ended is taken before the removal comes back. Before it
 *     deletes, the removal waits (in the delayed set again, not holding a worker) until none of them is still active
 *     (src/queue/parse-jobs-in-flight.ts): each has then copied what it needed, or had nothing to copy.
 *
 * So a renamed document is not parsed again when its new path is queued before the old path's removal has waited out
 * its grace, whatever the order of the two reports and whichever workers take them. The wait is for the parse jobs
 * in flight when the grace ends, on every worker, and at most MAX_WAIT_MS; it is skipped when the index leads to
 * another path's copy of the content, which the removal leaves alone.
 */
import type { Job } from 'bullmq';
import { parseJobIdOf, removalJobDataSchema, type RemovalJobData } from '../../queue/job-data.js';
import { parseJobsInFlight } from '../../queue/parse-jobs-in-flight.js';
import { delayJobUntil } from '../job-control.js';
import type { SourcePresence } from '../../sources/source.js';
import type { DocumentState, ManifestEntry } from '../../store/output-store.js';
import type { StepDeps } from '../processor-deps.js';
import type { ParseJobResult } from './record.js';

export type RemoveDeps = Pick<StepDeps, 'queue' | 'control' | 'store' | 'sourceFor' | 'metrics' | 'logger' | 'onOutcome'>;

/** How often a removal looks again at the parse jobs it waits for. */
const RECHECK_MS = 1000;
/** The longest a removal waits for parse jobs in flight (a parse job stuck active must not hold it for ever). */
const MAX_WAIT_MS = 10 * 60_000;

export async function removeSource(job: Job, token: string | undefined, deps: RemoveDeps): Promise<ParseJobResult> {
  const startedAt = Date.now();
  let data = removalJobDataSchema.parse(job.data);
  await deps.control.removals.mark(data.uri, { at: data.seenAt, outputs: data.outputs });
  if (data.outputs === 'delete' && data.dueAt === undefined) {
    const dueAt = startedAt + (data.graceMs ?? 0);
    data = { ...data, dueAt };
    await job.updateData(data);
    if (dueAt > startedAt) await delayJobUntil(job, token, dueAt);
  }
  if (await isBack(data, deps)) {
    deps.logger.info({ file: data.relativePath }, 'removal dropped: the source file exists again');
    return { status: 'skipped', outputs: 0 };
  }
  const state = await deps.store.readState(data.relativePath);
  const ours = state !== undefined && state.source === data.uri;
  if (ours && state.removedAt !== undefined) {
    deps.logger.debug({ file: data.relativePath, removedAt: state.removedAt }, 'removal recorded already');
    return { status: 'skipped', outputs: 0 };
  }
  const deleteOutputs = data.outputs === 'delete' && (ours || state === undefined);
  if (deleteOutputs && ours && (await othersMayCopy(data, state, deps))) await delayJobUntil(job, token, Date.now() + RECHECK_MS);
  if (ours) await removeJobQuietly(deps, parseJobIdOf(state.source, state.changeToken, state.optionsFingerprint));
  const reason = deleteOutputs ? 'source removed; outputs deleted' : 'source removed; outputs kept';
  const record: ManifestEntry = {
    path: data.relativePath,
    source: data.uri,
    ...(ours ? { sha256: state.sha256 } : {}),
    size: 0,
    status: 'removed',
    outputs: ours ? state.outputs : [],
    attempts: 0,
    durationMs: Date.now() - startedAt,
    reason,
    at: new Date().toISOString(),
  };
  await deps.store.removeDocument(data.relativePath, { deleteOutputs, record });
  await deps.control.addStats({ removed: 1 });
  deps.metrics?.removedDocuments.inc({ outputs: deleteOutputs ? 'deleted' : 'kept' });
  deps.logger.info({ file: data.relativePath, outputs: deleteOutputs ? 'deleted' : 'kept' }, 'source removed');
  deps.onOutcome?.({ status: 'removed', relativePath: data.relativePath, requests: 0, durationMs: record.durationMs, reason, record });
  return { status: 'removed', outputs: record.outputs.length };
}

/** Whether the source says the file exists again (a newer version of it is then queued, or converted already). */
async function isBack(data: RemovalJobData, deps: RemoveDeps): Promise<boolean> {
  let presence: SourcePresence = 'unknown';
  try {
    presence = (await (await deps.sourceFor(data.source)).presence?.(data.uri)) ?? 'unknown';
  } catch (error) {
    // The source root itself gone, or unreadable: nothing says the file is back.
    deps.logger.debug({ file: data.relativePath, err: error }, 'the source could not say whether a removed file is back');
  }
  return presence === 'present';
}

/**
 * Whether parse jobs queued before this removal's grace ended are still at work while the content index leads to this
 * file's outputs: one of them may be this content under a new name, about to copy them (see "Renames" above).
 */
async function othersMayCopy(data: RemovalJobData, state: DocumentState, deps: RemoveDeps): Promise<boolean> {
  const dueAt = data.dueAt ?? data.seenAt;
  if (Date.now() - dueAt > MAX_WAIT_MS) {
    deps.logger.warn({ file: data.relativePath }, 'removal waited its longest for parse jobs in flight; deleting now');
    return false;
  }
  const indexed = await deps.store.findByContent(state.sha256, state.optionsFingerprint).catch(() => undefined);
  if (indexed?.relativePath !== data.relativePath) return false;
  return (await parseJobsInFlight(deps.queue, dueAt, data.uri)) > 0;
}

/** Removes a job unless it is running (locked): a running one checks the removal mark itself. */
async function removeJobQuietly(deps: RemoveDeps, jobId: string): Promise<void> {
  try {
    await deps.queue.remove(jobId);
  } catch (error) {
    deps.logger.debug({ jobId, err: error }, 'the parse job of a removed file could not be removed (it is running)');
  }
}
