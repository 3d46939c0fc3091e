/**
 * Record step, the last of every job that ends: one manifest line, the queue's running totals, the metrics, and the
 * run's progress display. A failure is recorded only when it is final: the error is not retryable, or this was the
 * job's last attempt.
 */
import { UnrecoverableError } from '../../queue/commonjs-packages.js';
import { isRetryCandidate, ParseApiError } from '../../backend/errors.js';
import { DocmillError } from '../../errors/docmill-error.js';
import type { DocumentState, ManifestEntry } from '../../store/output-store.js';
import type { JobContext } from '../job-context.js';
import type { StepDeps } from '../processor-deps.js';

/** A document done without failing: converted, or skipped (unchanged, or the same content as one converted). */
export interface Finished {
  status: 'converted' | 'skipped';
  /** The document's state in the store (its outputs, pages, credits). */
  state: DocumentState;
  reason?: string | undefined;
  /** Parse requests the document took. */
  requests: number;
  /**
   * Its manifest line, written by an earlier start of the job that died before the job was done: the document is
   * recorded once, so neither the line nor the queue's totals are written again.
   */
  recorded?: ManifestEntry | undefined;
}

/** The value a finished job stores in BullMQ (small). */
export interface ParseJobResult {
  status: 'converted' | 'skipped' | 'removed';
  outputs: number;
  numPages?: number | undefined;
  /** A group job: the documents it finished itself (not those it moved out into jobs of their own). */
  documents?: number | undefined;
}

export type RecordDeps = Pick<StepDeps, 'store' | 'control' | 'metrics' | 'onOutcome' | 'logger'>;

export async function recordFinished(ctx: JobContext, finished: Finished, deps: RecordDeps): Promise<ParseJobResult> {
  const { data } = ctx;
  const { status, state, reason, requests, recorded } = finished;
  const { durationMs, totalDurationMs } = ctx.durations();
  const converted = status === 'converted';
  const lastAttemptMs = ctx.lastAttemptMs;
  const entry: ManifestEntry = {
    path: data.relativePath,
    source: data.uri,
    sha256: state.sha256,
    size: data.size,
    status,
    outputs: state.outputs,
    numPages: state.numPages,
    totalPages: state.totalPages,
    creditsUsed: converted ? state.creditsUsed : 0,
    attempts: requests,
    durationMs,
    totalDurationMs,
    ...(lastAttemptMs !== undefined ? { lastAttemptMs } : {}),
    ...(reason ? { reason } : {}),
    ...(state.warning ? { warning: state.warning } : {}),
    at: new Date().toISOString(),
  };
  if (recorded === undefined) {
    await deps.store.appendManifest(entry);
    await deps.control.addStats(
      {
        [status]: 1,
        pages: converted ? (state.numPages ?? 0) : 0,
        credits: converted ? (state.creditsUsed ?? 0) : 0,
      },
      1,
    );
  }
  // Said where the run's log goes (a worker's operators read nothing else), once: not again for a line recorded before.
  const warned = converted && state.warning !== undefined && recorded === undefined;
  if (warned) deps.logger.warn({ file: data.relativePath, warning: state.warning }, 'converted with a warning');
  const { metrics } = deps;
  if (warned) metrics?.documentsWithWarning.inc();
  metrics?.documents.inc({ status });
  if (converted) {
    metrics?.pages.inc(state.numPages ?? 0);
    metrics?.credits.inc(state.creditsUsed ?? 0);
  }
  metrics?.duration.observe(durationMs / 1000);
  deps.onOutcome?.({
    status,
    relativePath: data.relativePath,
    requests,
    numPages: converted ? state.numPages : undefined,
    creditsUsed: converted ? state.creditsUsed : undefined,
    durationMs,
    reason,
    ...(converted && state.warning ? { warning: state.warning } : {}),
    record: recorded ?? entry,
  });
  return { status, outputs: state.outputs.length, numPages: state.numPages };
}

/**
 * Records a failure when it is final; resolves whether the error is retryable (BullMQ may try the job again). A
 * failure that is not final is only logged.
 */
export async function recordFailure(ctx: JobContext, error: unknown, deps: RecordDeps): Promise<boolean> {
  const { job, data } = ctx;
  const retryable = isRetryCandidate(error) && error.retryable;
  const attemptsAllowed = job.opts.attempts ?? 1;
  const final = !retryable || job.attemptsMade + 1 >= attemptsAllowed;
  if (!final) {
    deps.logger.warn({ file: data.relativePath, err: error, attempt: job.attemptsMade + 1 }, 'parse failed; BullMQ will retry');
    // The next queue attempt starts from the job's data: what this one cost goes with it (a lost figure is no reason
    // to lose the retry).
    await ctx.saveProgress().catch((saveError: unknown) => deps.logger.debug({ err: saveError }, 'the time spent could not be saved with the job'));
    return true;
  }
  const failure = describeFailure(error);
  const { durationMs, totalDurationMs } = ctx.durations();
  const lastAttemptMs = ctx.lastAttemptMs;
  const record: ManifestEntry = {
    path: data.relativePath,
    source: data.uri,
    size: data.size,
    status: 'failed',
    outputs: [],
    attempts: ctx.requests,
    durationMs,
    totalDurationMs,
    ...(lastAttemptMs !== undefined ? { lastAttemptMs } : {}),
    error: failure,
    at: new Date().toISOString(),
  };
  // Counted and told even when its line cannot be written (a full disk fails the outputs and then the line): the
  // cause must reach the user, and the job still fails, to be tried again by a rerun.
  const unwritten = await deps.store.appendManifest(record).then(
    () => undefined,
    (writeError: unknown) => writeError,
  );
  await deps.control.addStats({ failed: 1 }, 1);
  deps.metrics?.documents.inc({ status: 'failed' });
  deps.metrics?.failures.inc({ code: failure.code });
  deps.logger.error({ file: data.relativePath, ...failure }, 'document failed');
  if (unwritten !== undefined) deps.logger.error({ file: data.relativePath, err: unwritten }, 'the failure could not be written to the manifest');
  deps.onOutcome?.({ status: 'failed', relativePath: data.relativePath, requests: ctx.requests, durationMs, error: failure, record });
  return retryable;
}

/** What the manifest says of a failure: the API's own code (BAD_REQUEST, ENCRYPTED_DOCUMENT...) when it sent one; docmill's otherwise. */
export function describeFailure(error: unknown): { status?: number; code: string; message: string } {
  if (error instanceof ParseApiError) return { status: error.status, code: error.apiCode ?? error.code, message: error.apiMessage };
  if (error instanceof DocmillError) return { code: error.code, message: error.message };
  if (error instanceof UnrecoverableError) return { code: 'DOCUMENT_REJECTED', message: error.message };
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}
