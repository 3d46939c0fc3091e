/**
 * The page ranges of a split PDF as BullMQ flows (the "process step" pattern): the document's job adds a child job
 * per range with `parent` set, moves itself to waiting-children, and is processed again when they are done; each
 * child parses its range (./parse-range.ts) and checkpoints the result in the store. Once every range has its
 * checkpoint the document's job merges them as one parse (../merge-ranges.ts). A run that dies resumes from the
 * checkpoints: only ranges without one are parsed again.
 */
import type { JobsOptions } from 'bullmq';
import { UnrecoverableError } from '../../queue/commonjs-packages.js';
import { pdfParserOf } from '../../contract/options.js';
import type { ParseData } from '../../contract/response.js';
import { DocmillError } from '../../errors/docmill-error.js';
import { RANGE_JOB_NAME, type ParseJobData } from '../../queue/job-data.js';
import type { JobContext } from '../job-context.js';
import { waitForChildren } from '../job-control.js';
import { mergeRangeResults } from '../merge-ranges.js';
import type { PageRange } from '../pdf-ranges.js';
import type { StepDeps } from '../processor-deps.js';
import { RangeWorkFiles, type Checkpoint } from '../range-work-files.js';
import type { SplitPlan } from './split-pdf.js';

/** A page range failed for good (its own attempts spent, or an error about its pages): the document fails. */
export class PdfRangeError extends DocmillError {
  constructor(file: string, reason: string) {
    super('PDF_RANGE_FAILED', `${file}: ${reason}`);
    this.name = 'PdfRangeError';
  }
}

/** Range bytes gone from the store (cleaned by hand): the document's job cuts again on its next step. */
export class RangeBytesMissing extends Error {
  constructor(readonly ranges: PageRange[]) {
    super(`range bytes missing: ${ranges.map((range) => `${range.first}-${range.last}`).join(', ')}`);
  }
}

export type RangeChildrenDeps = Pick<StepDeps, 'queue' | 'store'>;

/**
 * One step of the document's job once split: the merged result when every range is checkpointed; otherwise adds
 * children for the ranges not done and waits for them (throws WaitingChildrenError). A range whose child failed
 * for good fails the document; a rerun of it adds that range's child again.
 */
export async function advanceRanges(ctx: JobContext, split: SplitPlan, deps: RangeChildrenDeps): Promise<{ data: ParseData; requests: number }> {
  const files = new RangeWorkFiles(deps.store, split.sha256, ctx.data.optionsFingerprint);
  const pdf = pdfParserOf(ctx.options.sent);
  for (;;) {
    const checkpoints = await Promise.all(split.ranges.map((range) => files.readCheckpoint(range)));
    const missing = split.ranges.filter((_, index) => checkpoints[index] === undefined);
    if (missing.length === 0) {
      const done = checkpoints.filter((checkpoint): checkpoint is Checkpoint => checkpoint !== undefined);
      const merged = mergeRangeResults(
        done.map((checkpoint) => ({ firstPage: checkpoint.first, lastPage: checkpoint.last, data: checkpoint.data })),
        { pageMarkers: pdf.pageMarkers, totalPages: split.totalPages, keepPages: pdf.pages },
      );
      return { data: merged, requests: done.reduce((sum, checkpoint) => sum + checkpoint.requests, 0) };
    }
    const failure = await failureOf(ctx, split);
    if (failure) {
      // The next rerun of this document starts a new generation of children for the ranges still missing.
      await ctx.saveData({ split: { ...split, generation: split.generation + 1 } });
      throw new PdfRangeError(ctx.data.relativePath, failure);
    }
    const pending = await ctx.job.getDependenciesCount({ unprocessed: true });
    if ((pending.unprocessed ?? 0) === 0) await addChildren(ctx, split, missing, files, deps);
    await waitForChildren(ctx);
  }
}

/** Removes the range bytes and checkpoints once the merged outputs and the state are written; a failure is only logged. */
export async function cleanUpRanges(ctx: JobContext, deps: Pick<StepDeps, 'store' | 'logger'>): Promise<void> {
  const split = ctx.latestData().split;
  if (!split) return;
  await new RangeWorkFiles(deps.store, split.sha256, ctx.data.optionsFingerprint).remove(split.ranges).catch((error: unknown) => {
    deps.logger.warn({ file: ctx.data.relativePath, err: error }, 'could not remove the page ranges of a merged PDF');
  });
}

async function addChildren(ctx: JobContext, split: SplitPlan, missing: PageRange[], files: RangeWorkFiles, deps: RangeChildrenDeps): Promise<void> {
  const { job } = ctx;
  if (!job.id) throw new UnrecoverableError('a split document needs a job id');
  // Ranges whose bytes went missing (a store cleaned by hand) are cut again from the document's own bytes: the
  // caller only gets here with the document materialised, and re-cutting is rare.
  const absent = [];
  for (const range of missing) {
    if (!(await files.readBytes(range))) absent.push(range);
  }
  if (absent.length > 0) throw new RangeBytesMissing(absent);
  const { split: _split, requestsMade: _requests, throttles: _throttles, failures: _failures, ...document } = ctx.latestData();
  const options: JobsOptions = {
    attempts: job.opts.attempts ?? 1,
    ...(job.opts.backoff !== undefined ? { backoff: job.opts.backoff } : {}),
    removeOnComplete: true,
    removeOnFail: true,
    parent: { id: job.id, queue: job.queueQualifiedName },
    // A range that fails for good must not strand its document in waiting-children: it is processed, and fails.
    ignoreDependencyOnFailure: true,
  };
  await deps.queue.addBulk(
    missing.map((range) => ({
      name: RANGE_JOB_NAME,
      data: { ...document, size: 0, range: { ...range, sha256: split.sha256 } } satisfies ParseJobData,
      opts: { ...options, jobId: `${job.id}-g${split.generation}-p${range.first}-${range.last}` },
    })),
  );
}

/** Why a child of this generation failed for good, if one did. */
async function failureOf(ctx: JobContext, split: SplitPlan): Promise<string | undefined> {
  const failures = await ctx.job.getIgnoredChildrenFailures();
  const marker = `-g${split.generation}-p`;
  for (const [key, reason] of Object.entries(failures)) {
    const at = key.lastIndexOf(marker);
    if (at < 0) continue;
    return `pages ${key.slice(at + marker.length)}: ${reason}`;
  }
  return undefined;
}
