/**
 * What a queued job holds: a reference to one file and the fingerprint of the options to parse it with
 * (a few hundred bytes; never content).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { SourceFile } from '../sources/source.js';

const pageRangeSchema = z.object({ first: z.number().int().positive(), last: z.number().int().positive() });

export const parseJobDataSchema = z.object({
  v: z.literal(1),
  /** The source root as the user gave it (path or s3://bucket/prefix): the worker opens the file through it. */
  source: z.string(),
  uri: z.string(),
  relativePath: z.string(),
  size: z.number().int().nonnegative(),
  changeToken: z.string(),
  optionsFingerprint: z.string(),
  /** Re-parse even when the store already holds output for this content. */
  force: z.boolean().optional(),
  /** Parse requests made for this document by earlier starts of the job (before a Retry-After deferral or a pause). */
  requestsMade: z.number().int().nonnegative().optional(),
  /** Milliseconds the earlier starts of the job spent on the document (deferrals, pauses and queue attempts). */
  workedMs: z.number().nonnegative().optional(),
  /** How long the last parse request made for the document took, from sending to its answer. */
  lastAttemptMs: z.number().nonnegative().optional(),
  /** 429s answered to this document so far: the backoff when the API gives no Retry-After grows with it. */
  throttles: z.number().int().nonnegative().optional(),
  /** Retryable failures in a row (408, 5xx, network) in this queue attempt: the contract's backoff grows with it. */
  failures: z.number().int().nonnegative().optional(),
  /** A document's job that split its PDF into page ranges (child jobs): what it waits for, then merges. */
  split: z
    .object({
      sha256: z.string(),
      totalPages: z.number().int().positive(),
      ranges: z.array(pageRangeSchema).min(1),
      /** Children are added anew (fresh ids) for each generation: after a resume, or a rerun of a failed range. */
      generation: z.number().int().nonnegative(),
    })
    .optional(),
  /** A child job: one page range of a split PDF, parsed on its own and checkpointed in the store. */
  range: pageRangeSchema.extend({ sha256: z.string() }).optional(),
  /**
   * A document of a group (GROUP_JOB_NAME) that failed for good there, its failure already recorded: its job of its
   * own only fails with this message, so `failed` lists it and `failed --retry` retries it alone.
   */
  groupFailure: z.object({ message: z.string() }).optional(),
});
export type ParseJobData = z.infer<typeof parseJobDataSchema>;

export const JOB_NAME = 'parse';
/** The job name of a page range of a split PDF (a child of its document's job). */
export const RANGE_JOB_NAME = 'parse-range';

/**
 * The job name of several small documents in one job: BullMQ's own scripts cost about 40 Redis commands a job, more
 * than a small HTML page costs to convert. Each document keeps the id its own job would have had.
 */
export const GROUP_JOB_NAME = 'parse-group';

export const groupJobDataSchema = z.object({
  v: z.literal(1),
  documents: z.array(z.object({ id: z.string(), data: parseJobDataSchema })).min(1),
});

/** A group's id: its documents' ids, and how many they are (`g<count>-…`, which status reads to count documents). */
export function groupJobIdFor(ids: readonly string[]): string {
  return `g${ids.length}-${createHash('sha256').update(ids.join('\n')).digest('hex').slice(0, 40)}`;
}

/** How many documents a job holds, from its id: a group's count, else one. */
export function documentsInJob(jobId: string): number {
  const match = /^g(\d+)-/.exec(jobId);
  return match ? Number(match[1]) : 1;
}

export function jobDataFor(source: string, file: SourceFile, optionsFingerprint: string, force = false): ParseJobData {
  return {
    v: 1,
    source,
    uri: file.uri,
    relativePath: file.relativePath,
    size: file.size,
    changeToken: file.changeToken,
    optionsFingerprint,
    ...(force ? { force: true } : {}),
  };
}

/**
 * The job id: the same file in the same state with the same options is one job, however often it is listed.
 * `nonce` (set by --force) makes a fresh id so finished jobs are redone.
 */
export function jobIdFor(data: ParseJobData, nonce = ''): string {
  return createHash('sha256')
    .update(`${data.uri}\n${data.changeToken}\n${data.optionsFingerprint}\n${nonce}`)
    .digest('hex')
    .slice(0, 40);
}

/** The job name of a removal: a source file is gone, and its outputs follow (./removal-marks.ts, pipeline/steps/remove-source.ts). */
export const REMOVE_JOB_NAME = 'remove';

/** What happens to the outputs of a source that is removed: kept (the manifest says so) or deleted. */
export type RemovedOutputs = 'keep' | 'delete';

export const removalJobDataSchema = z.object({
  v: z.literal(1),
  /** The source root as the user gave it, as in a parse job. */
  source: z.string(),
  uri: z.string(),
  relativePath: z.string(),
  outputs: z.enum(['keep', 'delete']),
  /** When the removal was seen (ms since the epoch): parse jobs queued before it are cancelled. */
  seenAt: z.number().int().nonnegative(),
  /**
   * With `delete`: how long the job waits in the delayed set, from its first start, before it deletes anything (time
   * for a rename's new path to be queued: pipeline/steps/remove-source.ts). Absent: 0.
   */
  graceMs: z.number().int().nonnegative().optional(),
  /** Set at the first start of a removal with `delete`: the end of its grace (ms since the epoch). */
  dueAt: z.number().int().nonnegative().optional(),
});
export type RemovalJobData = z.infer<typeof removalJobDataSchema>;

/** One removal job per file and moment seen: a watcher and a re-list reporting the same removal at once queue it once. */
export function removalJobIdFor(data: RemovalJobData): string {
  return createHash('sha256').update(`remove\n${data.uri}\n${data.seenAt}`).digest('hex').slice(0, 40);
}

/** The id of the parse job that produced a document's outputs (for a state's change token and options). */
export function parseJobIdOf(uri: string, changeToken: string, optionsFingerprint: string): string {
  return jobIdFor({ v: 1, source: '', uri, relativePath: '', size: 0, changeToken, optionsFingerprint });
}
