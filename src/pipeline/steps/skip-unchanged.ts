/**
 * Skip check, before a byte of the file is read (this matters on S3): the store's state for this path records the
 * job's change token and options fingerprint, so the document is done. One exception: the state was written by an
 * earlier start of this very job, whose process died before the job was done; it is recorded now as what it was (a
 * conversion, with its pages and credits), not as an unchanged skip, unless that start got as far as its manifest
 * line: then the document is finished without a second one.
 */
import type { ParseJobData } from '../../queue/job-data.js';
import type { DocumentState, OutputStore } from '../../store/output-store.js';
import type { JobContext } from '../job-context.js';
import type { Finished } from './record.js';

/** What the decision needs to know of the job. */
export interface UnchangedCheck {
  data: ParseJobData;
  /** Requests made for the document so far. */
  requests: number;
  /** Times BullMQ has started the job, this start included. */
  attemptsStarted: number;
  /** When the job was added (ms since the epoch). */
  enqueuedAt: number;
}

/** Pure: the outcome when the stored state says the document is done, else undefined. */
export function unchangedOutcome(job: UnchangedCheck, state: DocumentState | undefined): Finished | undefined {
  // A state marked removed (its outputs kept) names no live conversion: the file is back, and is looked at anew.
  if (job.data.force || !state || state.removedAt !== undefined) return undefined;
  if (state.changeToken !== job.data.changeToken || state.optionsFingerprint !== job.data.optionsFingerprint) return undefined;
  if (wroteStateBefore(job, state)) {
    const recovered = state.origin === 'copied';
    return {
      status: recovered ? 'skipped' : 'converted',
      state,
      reason: recovered ? 'same content' : undefined,
      requests: job.requests + (state.requests ?? 0),
    };
  }
  return { status: 'skipped', state, reason: 'unchanged', requests: job.requests };
}

export async function skipIfUnchanged(ctx: JobContext, store: OutputStore): Promise<Finished | undefined> {
  if (ctx.data.force) return undefined;
  const state = await store.readState(ctx.data.relativePath);
  const check = { data: ctx.data, requests: ctx.requests, attemptsStarted: ctx.job.attemptsStarted ?? 0, enqueuedAt: ctx.job.timestamp };
  const outcome = unchangedOutcome(check, state);
  if (outcome === undefined || state === undefined || !wroteStateBefore(check, state)) return outcome;
  // Rare (a restart after a crash): the look back reads only the manifest lines written since the state.
  const recorded = await store.recordedSince(ctx.data.relativePath, state.convertedAt);
  return recorded?.status === outcome.status && recorded.sha256 === state.sha256 ? { ...outcome, recorded } : outcome;
}

/**
 * Whether the state was written by an earlier start of this same job (a process that died between writing a
 * document's state and its manifest line): the job was started before, and the state is newer than the job.
 */
function wroteStateBefore(job: UnchangedCheck, state: DocumentState): boolean {
  if (job.attemptsStarted < 2) return false;
  const convertedAt = Date.parse(state.convertedAt);
  return Number.isFinite(convertedAt) && convertedAt >= job.enqueuedAt;
}
