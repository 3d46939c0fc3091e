/**
 * The BullMQ processor: one job, a document or a page range of a long PDF, run as the pipeline's steps over one
 * JobContext (./document-pipeline.ts, ./steps/). This shell only decides which, and what an error means for the
 * job: BullMQ's control flow passes through (./job-control.ts); throttling, exhausted credits and rejected keys never
 * cost the document an attempt and never fail it; errors about the document itself fail it, once, for good.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import { isRetryCandidate, ParseAbortedError } from '../backend/errors.js';
import { BudgetReleases } from './budget-releases.js';
import { convertDocument } from './document-pipeline.js';
import { JobContext } from './job-context.js';
import { isJobControl } from './job-control.js';
import { REMOVE_JOB_NAME } from '../queue/job-data.js';
import type { ProcessorDeps, StepDeps } from './processor-deps.js';
import { SendingState } from './sending.js';
import { loadOptions } from './steps/load-options.js';
import { parseRange } from './steps/parse-range.js';
import { describeFailure, recordFailure, recordFinished, type ParseJobResult } from './steps/record.js';
import { recordCancelled } from './steps/removal-check.js';
import { removeSource } from './steps/remove-source.js';

export type { ProcessorDeps } from './processor-deps.js';
export type { ParseJobResult } from './steps/record.js';

export class DocumentProcessor {
  readonly #deps: StepDeps;

  constructor(deps: ProcessorDeps) {
    this.#deps = {
      ...deps,
      sending: new SendingState(),
      releases: new BudgetReleases(deps.control.budget, { logger: deps.logger, metrics: deps.metrics }),
    };
  }

  /** The BullMQ processor function. */
  readonly process = async (job: Job, token?: string, signal?: AbortSignal): Promise<ParseJobResult> => {
    if (job.name === REMOVE_JOB_NAME) return removeSource(job, token, this.#deps);
    const ctx = new JobContext(job, token, signal);
    return ctx.isRange ? this.#processRange(ctx) : this.#processDocument(ctx);
  };

  async #processDocument(ctx: JobContext): Promise<ParseJobResult> {
    try {
      const done = await convertDocument(ctx, this.#deps);
      if (done.status === 'cancelled') return await recordCancelled(ctx, done, this.#deps);
      return await recordFinished(ctx, done, this.#deps);
    } catch (error) {
      if (isJobControl(error) || error instanceof ParseAbortedError) throw error;
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
