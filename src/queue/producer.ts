/**
 * Turns a listing into jobs, in batches with addBulk. Job ids come from the file reference, its change token and
 * the options, so a file listed twice (by an overlapping listing, or a watcher and a scan) is queued once.
 */
import type { JobsOptions, KeepJobs, Queue } from 'bullmq';
import type { ListEntry, RemovedEntry, SkipReason, Source } from '../sources/source.js';
import { GROUP_JOB_NAME, groupJobIdFor, JOB_NAME, jobDataFor, jobIdFor, type ParseJobData, REMOVE_JOB_NAME, removalJobIdFor, type RemovalJobData, type RemovedOutputs } from './job-data.js';

export interface EnqueueSettings {
  optionsFingerprint: string;
  /** Re-parse even unchanged files: gives the jobs fresh ids. */
  force?: boolean;
  /** BullMQ attempts for errors that outlast the client's own retries. @default 4 */
  attempts?: number;
  /** Listing entries per addBulk call. @default 500 */
  batchSize?: number;
  /** Told of every file the listing reports but does not queue (awaited, so a record of it is written in order). */
  onSkipped?: (entry: Extract<ListEntry, { kind: 'skipped' }>) => Promise<void> | void;
  /** Told after each batch is queued. */
  onQueued?: (count: number) => void;
  /** What removals do to the outputs of the source file. @default 'keep' */
  removed?: RemovedOutputs;
  /**
   * With `removed: 'delete'`: how long a removal waits in the delayed set, from the moment a worker first takes it,
   * before it deletes anything, so that the other half of a rename (the new path, which a watch reports apart) is
   * queued meanwhile and its job copies the outputs rather than parsing again. 0 where every parse job that may need
   * them is queued before the removal (a run queues its removals after its listing). @default 10000
   */
  removalGraceMs?: number;
  /** Small files queued several to a job (see DocumentGrouping); false: one job each. @default DEFAULT_GROUPING */
  grouping?: DocumentGrouping | false;
  /**
   * The ids among `ids` that name a job already (QueueControl.jobsThatExist): a document with a job of its own (a
   * group moved it out: failed, deferred, parked) is not queued again in a group, as its own job would not be added
   * twice. Without it, the group's worker finds that job and leaves the document to it.
   */
  existingJobs?: (ids: readonly string[]) => Promise<Set<string>>;
}

/**
 * Which files share a job, and how many: files below `maxFileBytes`, consecutive in the listing, at most `maxFiles`
 * and `maxBytes` to a job. A small document costs less to convert than BullMQ's scripts cost to move its job; a
 * large one keeps a job of its own (its retries, deferrals and page ranges are the job's).
 */
export interface DocumentGrouping {
  maxFiles: number;
  maxBytes: number;
  maxFileBytes: number;
}

export const DEFAULT_GROUPING: DocumentGrouping = { maxFiles: 16, maxBytes: 1024 * 1024, maxFileBytes: 256 * 1024 };

/** The default of EnqueueSettings.removalGraceMs. */
export const DEFAULT_REMOVAL_GRACE_MS = 10_000;

export interface EnqueueSummary {
  queued: number;
  skipped: Partial<Record<SkipReason, number>>;
}

/**
 * What a job stores beside its data. Retention is not among it: the workers apply it to every job they finish
 * (finishedJobRetention), so the ~100 bytes of it are not repeated in each of a large queue's waiting jobs.
 */
export function defaultJobOptions(attempts = 4): JobsOptions {
  return { attempts, backoff: { type: 'exponential', delay: 30_000 } };
}

/**
 * How long finished jobs stay in Redis, so it does not grow with every document ever converted: completed ones a
 * day (at most 10,000; status and rates read them), failed ones two weeks (at most 100,000; `failed --retry`).
 * `run` keeps no completed job: each run re-checks every file against the store, which is what knows whether
 * outputs are really there.
 */
export function finishedJobRetention(keepCompleted: boolean): { removeOnComplete: KeepJobs; removeOnFail: KeepJobs } {
  return {
    removeOnComplete: keepCompleted ? { age: 24 * 3600, count: 10_000 } : { count: 0 },
    removeOnFail: { age: 14 * 24 * 3600, count: 100_000 },
  };
}

export class Producer {
  readonly #nonce: string;

  constructor(
    private readonly queue: Queue,
    private readonly settings: EnqueueSettings,
  ) {
    this.#nonce = settings.force ? `force-${Date.now()}` : '';
  }

  /** Queues every file of a listing (or of a watcher's reports); streamed in batches. */
  async enqueueAll(source: Source, entries: AsyncIterable<ListEntry>): Promise<EnqueueSummary> {
    const summary: EnqueueSummary = { queued: 0, skipped: {} };
    let batch: ListEntry[] = [];
    for await (const entry of entries) {
      if (entry.kind === 'skipped') {
        summary.skipped[entry.reason] = (summary.skipped[entry.reason] ?? 0) + 1;
        await this.settings.onSkipped?.(entry);
        continue;
      }
      batch.push(entry);
      if (batch.length >= (this.settings.batchSize ?? 500)) {
        summary.queued += await this.enqueueBatch(source, batch);
        batch = [];
      }
    }
    if (batch.length > 0) summary.queued += await this.enqueueBatch(source, batch);
    return summary;
  }

  /** Queues a batch of listing entries; resolves to the documents queued (a group counts its documents). */
  async enqueueBatch(source: Source, entries: ListEntry[]): Promise<number> {
    const documents = entries.flatMap((entry) => {
      if (entry.kind !== 'file') return [];
      const data = jobDataFor(source.location, entry.file, this.settings.optionsFingerprint, this.settings.force);
      return [{ id: jobIdFor(data, this.#nonce), data }];
    });
    if (documents.length === 0) return 0;
    const options = defaultJobOptions(this.settings.attempts);
    const grouping = this.settings.grouping ?? DEFAULT_GROUPING;
    let queueing = documents;
    if (grouping && this.settings.existingJobs) {
      const small = documents.filter((document) => document.data.size < grouping.maxFileBytes).map((document) => document.id);
      const existing = await this.settings.existingJobs(small);
      // Added alone, a document that has its own job already is a no-op, as before grouping.
      if (existing.size > 0) queueing = documents.map((document) => (existing.has(document.id) ? { ...document, alone: true } : document));
    }
    const jobs = groupDocuments(queueing, grouping).map((group) => {
      const [only] = group;
      if (group.length === 1 && only) return { name: JOB_NAME, data: only.data as object, opts: { ...options, jobId: only.id } };
      return { name: GROUP_JOB_NAME, data: { v: 1, documents: group.map(({ id, data }) => ({ id, data })) } as object, opts: { ...options, jobId: groupJobIdFor(group.map((document) => document.id)) } };
    });
    await this.queue.addBulk(jobs);
    this.settings.onQueued?.(documents.length);
    return documents.length;
  }

  /**
   * Queues the removal of source files that are gone: a job of its own kind, which records the removal in the
   * manifest and, with `removed: 'delete'`, deletes the file's outputs. Resolves once the jobs are in Redis.
   */
  async enqueueRemovals(source: Source, entries: RemovedEntry[], seenAt = Date.now()): Promise<number> {
    const outputs = this.settings.removed ?? 'keep';
    const graceMs = outputs === 'delete' ? (this.settings.removalGraceMs ?? DEFAULT_REMOVAL_GRACE_MS) : 0;
    const jobs = entries.map((entry) => {
      const data: RemovalJobData = {
        v: 1,
        source: source.location,
        uri: entry.uri,
        relativePath: entry.relativePath,
        outputs,
        seenAt,
        ...(graceMs > 0 ? { graceMs } : {}),
      };
      // Not kept once done, as in a run: the manifest is where a removal stays recorded.
      return { name: REMOVE_JOB_NAME, data, opts: { ...defaultJobOptions(this.settings.attempts), ...finishedJobRetention(false), jobId: removalJobIdFor(data) } };
    });
    if (jobs.length > 0) await this.queue.addBulk(jobs);
    return jobs.length;
  }
}

interface QueuedDocument {
  id: string;
  data: ParseJobData;
  /** Queued in a job of its own whatever its size. */
  alone?: boolean;
}

/** Splits documents into jobs: each large one alone, small ones grouped in listing order (see DocumentGrouping). */
export function groupDocuments(documents: readonly QueuedDocument[], grouping: DocumentGrouping | false): QueuedDocument[][] {
  if (!grouping || grouping.maxFiles < 2) return documents.map((document) => [document]);
  const jobs: QueuedDocument[][] = [];
  let open: QueuedDocument[] = [];
  let bytes = 0;
  for (const document of documents) {
    if (document.alone || document.data.size >= grouping.maxFileBytes) {
      jobs.push([document]);
      continue;
    }
    if (open.length > 0 && (open.length >= grouping.maxFiles || bytes + document.data.size > grouping.maxBytes)) {
      jobs.push(open);
      open = [];
      bytes = 0;
    }
    open.push(document);
    bytes += document.data.size;
  }
  if (open.length > 0) jobs.push(open);
  return jobs;
}
