/**
 * The BullMQ processor: one job, a document or a page range of a long PDF, run as the pipeline's steps over one
 * JobContext (./document-pipeline.ts, ./steps/). This shell only decides which, and what an error means for the
 * job: BullMQ's control flow passes through (./job-control.ts); throttling, exhausted credits and rejected keys never
 * cost the document an attempt and never fail it; errors about the document itself fail it, once, for good.
 */
import type { Job, JobsOptions } from 'bullmq';
import { Backoffs, UnrecoverableError } from '../queue/commonjs-packages.js';
import { isRetryCandidate, ParseAbortedError } from '../backend/errors.js';
import { BudgetReleases } from './budget-releases.js';
import { DocumentSlots } from './document-slots.js';
import { convertDocument } from './document-pipeline.js';
import { JobContext } from './job-context.js';
import { isJobControl, LeaveGroupError } from './job-control.js';
import { GroupMemberJob } from './group-member.js';
import { GROUP_JOB_NAME, groupJobDataSchema, JOB_NAME, parseJobDataSchema, REMOVE_JOB_NAME, type ParseJobData } from '../queue/job-data.js';
import type { ProcessorDeps, StepDeps } from './processor-deps.js';
import { SendingState } from './sending.js';
import { stopIfBlocked } from './steps/blocked.js';
import { writesRefused } from '../store/store-errors.js';
import { loadOptions } from './steps/load-options.js';
import { parseRange } from './steps/parse-range.js';
import { describeFailure, recordFailure, recordFinished, type ParseJobResult } from './steps/record.js';
import { recordCancelled } from './steps/removal-check.js';
import { removeSource } from './steps/remove-source.js';

export type { ProcessorDeps } from './processor-deps.js';
export type { ParseJobResult } from './steps/record.js';

export class DocumentProcessor {
  readonly #deps: StepDeps;
  /** Documents of group jobs converting at once, across the groups this process holds. */
  readonly #grouped: DocumentSlots;
  /** Documents this process has begun and whose outputs are not yet waiting for the store's flush (or that ended). */
  #converting = 0;

  constructor(deps: ProcessorDeps) {
    this.#deps = {
      ...deps,
      sending: new SendingState(),
      releases: new BudgetReleases(deps.control.budget, { logger: deps.logger, metrics: deps.metrics }),
    };
    this.#grouped = new DocumentSlots(deps.documentsAtOnce ?? 8);
  }

  /** The BullMQ processor function. */
  readonly process = async (job: Job, token?: string, signal?: AbortSignal): Promise<ParseJobResult> => {
    if (job.name === REMOVE_JOB_NAME) return removeSource(job, token, this.#deps);
    if (job.name === GROUP_JOB_NAME) return this.#processGroup(job, token, signal);
    const failedInGroup = job.name === JOB_NAME ? parseJobDataSchema.safeParse(job.data) : undefined;
    if (failedInGroup?.success && failedInGroup.data.groupFailure) {
      // Recorded by its group already: the job only fails, and without the mark, so `failed --retry` parses it again.
      const { groupFailure, ...data } = failedInGroup.data;
      await job.updateData(data);
      throw new UnrecoverableError(groupFailure.message);
    }
    const converted = this.#begin();
    try {
      const ctx = new JobContext(job, token, signal, false, converted);
      return await (ctx.isRange ? this.#processRange(ctx) : this.#processDocument(ctx));
    } finally {
      converted();
    }
  };

  /**
   * Counts a document in until the returned call (once; later calls do nothing): its outputs are then waiting for the
   * store's flush, or it ended. When none is left converting, no document is coming to share the next flush with the
   * outputs waiting for it, and the store flushes them without waiting out its window.
   */
  #begin(): () => void {
    this.#converting++;
    let counted = true;
    return () => {
      if (!counted) return;
      counted = false;
      if (--this.#converting === 0) this.#deps.store.commitWaiting?.();
    };
  }

  /**
   * A group job: its documents converted side by side, each as its own job would be (its own manifest line, its own
   * failure). One that fails for good, or must wait (a deferral, a paused queue, page ranges), or may be retried, is
   * queued in a job of its own, under the id it would have had alone: that job lists it in `failed`, or retries it
   * alone. A document that has a job of its own when the group starts (moved out by an earlier start, or queued
   * alone by a watcher) is left to it, as a document's job queued twice is added once. A group started again (its
   * worker died) passes over the documents an earlier start recorded (noted in the group job's hash once each has
   * its manifest line), and finds one whose outputs were written but not yet recorded as a conversion. Stopping (an aborted parse) hands the whole group back.
   */
  async #processGroup(job: Job, token: string | undefined, signal: AbortSignal | undefined): Promise<ParseJobResult> {
    const { documents } = groupJobDataSchema.parse(job.data);
    // The enqueuer left out documents with a job of their own then; one may have been queued since (a watcher's event),
    // or moved out by an earlier start of this group.
    const ids = documents.map((document) => document.id);
    // Files removed since the group was queued, for all its documents in one round trip (the removal check, before reading).
    const uris = documents.map((document) => document.data.uri);
    const [ownJobs, removals] = await Promise.all([this.#deps.control.jobsThatExist(ids), this.#deps.control.removals.removedSinceEach(uris, job.timestamp)]);
    // Started again (its worker died): the documents that got their manifest line then are done, not done twice.
    const groupId = job.id ?? '';
    const recorded = (job.attemptsStarted ?? 0) > 1 ? await this.#deps.control.recordedInGroup(groupId, ids) : new Set<string>();
    let stopped: unknown;
    let outputs = 0;
    let finished = 0;
    const convertMember = async (document: (typeof documents)[number], leave: () => void): Promise<void> => {
      if (stopped !== undefined || signal?.aborted) return;
      if (ownJobs.has(document.id) || recorded.has(document.id)) return;
      const member = new GroupMemberJob(job, document.id, document.data);
      try {
        const ctx = new JobContext(member, token, signal, true, leave);
        ctx.removalAtStart = { mark: removals.get(document.data.uri) };
        outputs += (await this.#processDocument(ctx)).outputs;
        finished++;
        await this.#noteRecorded(groupId, member);
      } catch (error) {
        if (error instanceof ParseAbortedError) stopped ??= error;
        else await this.#moveOut(job, member, error);
      }
    };
    await Promise.all(
      documents.map(async (document) => {
        // Counted while it waits for a slot too: a document about to start is coming to the next flush.
        const converted = this.#begin();
        try {
          await this.#grouped.run((leaveSlot) =>
            convertMember(document, () => {
              leaveSlot();
              converted();
            }),
          );
        } finally {
          converted();
        }
      }),
    );
    if (stopped !== undefined) throw stopped;
    if (signal?.aborted) throw new ParseAbortedError(signal.reason);
    return { status: 'converted', outputs, documents: finished };
  }

  /** Unnoted, a restart after a crash would add the document's line again: worth a warning, not a failure of it. */
  async #noteRecorded(groupId: string, member: GroupMemberJob): Promise<void> {
    try {
      await this.#deps.control.noteRecordedInGroup(groupId, member.documentId);
    } catch (error) {
      this.#deps.logger.warn({ file: member.data.relativePath, err: error }, 'could not note a grouped document as recorded');
    }
  }

  /** Queues a grouped document in a job of its own, as the error its conversion ended with asks. */
  async #moveOut(group: Job, member: GroupMemberJob, error: unknown): Promise<void> {
    const ownId = member.documentId;
    const allowed = group.opts.attempts ?? 1;
    const base: JobsOptions = { jobId: ownId, ...(group.opts.backoff !== undefined ? { backoff: group.opts.backoff } : {}) };
    let data: ParseJobData = member.data;
    let options: JobsOptions;
    if (isJobControl(error)) {
      // Deferred, parked or split: no attempt spent; the deferral's time and counters go with it.
      const delay = member.departure?.delayUntil === undefined ? 0 : Math.max(0, member.departure.delayUntil - Date.now());
      options = { ...base, attempts: Math.max(1, allowed - group.attemptsMade), delay };
      const why = error instanceof LeaveGroupError ? error.why : (member.departure?.why ?? 'moved');
      this.#deps.logger.debug({ file: data.relativePath, why }, 'document moved out of its group');
    } else if (isRetryCandidate(error) && error.retryable && group.attemptsMade + 1 < allowed) {
      // Its failure was logged and its progress saved (recordFailure): retried alone, after the job's backoff.
      options = { ...base, attempts: allowed - group.attemptsMade - 1, delay: backoffDelay(group, group.attemptsMade + 1) };
    } else {
      // Failed for good, and recorded: its own job fails at once with the same reason.
      const message = error instanceof Error ? error.message : String(error);
      data = { ...data, groupFailure: { message } };
      options = { jobId: ownId, attempts: 1 };
    }
    await this.#deps.queue.add(JOB_NAME, data, options);
  }

  async #processDocument(ctx: JobContext): Promise<ParseJobResult> {
    try {
      const done = await convertDocument(ctx, this.#deps);
      if (done.status === 'cancelled') return await recordCancelled(ctx, done, this.#deps);
      return await recordFinished(ctx, done, this.#deps);
    } catch (error) {
      if (isJobControl(error) || error instanceof ParseAbortedError) throw error;
      // A full or read-only output fails every document alike: the run stops on it, this one left waiting.
      await stopIfBlocked(ctx, writesRefused(error) ?? error, this.#deps);
      const retryable = await recordFailure(ctx, error, this.#deps);
      if (retryable || error instanceof UnrecoverableError) throw error;
      // A document that cannot succeed (bad request, corrupt, too large...) must not spend further attempts.
      throw new UnrecoverableError(describeFailure(error).message);
    }
  }

  /** A page range records nothing (its document does, once merged); a range that cannot succeed fails its document. */
  async #processRange(ctx: JobContext): Promise<ParseJobResult> {
    try {
      ctx.useOptions(await loadOptions(ctx, this.#deps.control));
      await parseRange(ctx, this.#deps);
      return { status: 'converted', outputs: 0 };
    } catch (error) {
      if (isJobControl(error) || error instanceof ParseAbortedError || error instanceof UnrecoverableError) throw error;
      await stopIfBlocked(ctx, writesRefused(error) ?? error, this.#deps);
      if (isRetryCandidate(error) && error.retryable) {
        const { data, job } = ctx;
        this.#deps.logger.warn({ file: data.relativePath, range: data.range, err: error, attempt: job.attemptsMade + 1 }, 'page range failed; BullMQ will retry it');
        throw error;
      }
      const failure = describeFailure(error);
      throw new UnrecoverableError(`${failure.code}: ${failure.message}`);
    }
  }
}

/**
 * The delay BullMQ itself would give the `attempt`th retry (1: the first) of the group's job, by its own built-in
 * strategies (fixed, exponential, with their jitter); 0 without a backoff or with a strategy only a worker knows.
 */
function backoffDelay(group: Job, attempt: number): number {
  const backoff = group.opts.backoff === undefined ? undefined : Backoffs.normalize(group.opts.backoff);
  if (backoff === undefined || !(backoff.type in Backoffs.builtinStrategies)) return 0;
  const delay = Backoffs.calculate(backoff, attempt, new Error('retried alone'), group);
  return typeof delay === 'number' ? delay : 0;
}
