/**
 * `status`, `resume` and `failed`: look at and steer a queue, named by its output (a run's own queue) or by name.
 * Each call opens the queue through the composition root and closes it before it returns.
 */
import { documentCounts } from '../queue/document-counts.js';
import { documentsOf, failedJobs } from '../queue/failed-jobs.js';
import { parseJobDataSchema } from '../queue/job-data.js';
import type { PauseKind } from '../queue/queue-control.js';
import { CompositionRoot } from './composition-root.js';
import type { CommonOptions, QueueOptions } from './options.js';

export interface QueueLookupOptions extends CommonOptions, QueueOptions {
  /** The output of a run: its queue, unless only the default queue exists. */
  out?: string | undefined;
}

/** What `status --json` prints. */
export interface QueueReport {
  queue: string;
  redis: string;
  paused: { kind: PauseKind; message: string; since: string } | false;
  workers: number;
  counts: Record<string, number>;
  documentsPerMinute: number;
  rateOverSeconds: number;
  /** Absent while paused, or when nothing finished lately. */
  etaSeconds?: number;
  totals: Record<string, number>;
  budget: { maxCredits: number; used: number; reserved: number } | null;
}

export interface QueueStatus {
  report: QueueReport;
  /** Documents finished over the last `report.rateOverSeconds` seconds. */
  finishedRecently: number;
  /** Documents not finished yet: waiting, delayed or active. */
  left: number;
}

export async function queueStatus(options: QueueLookupOptions): Promise<QueueStatus> {
  return CompositionRoot.use(options, async (root) => {
    const handle = await root.queue(options, 'lookup');
    const { queue, control } = handle;
    // Documents, not jobs: a group job holds several small ones.
    const counts = await documentCounts(queue, 'waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed');
    const pause = await control.pauseReason();
    const stats = await control.stats();
    const recent = await control.recentRate(60);
    const workers = await queue.getWorkersCount();
    const budget = await control.budget.state();
    const left = (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0) + (counts.active ?? 0);
    // A paused queue finishes nothing until it is resumed: no ETA then.
    const etaSeconds = recent.perMinute > 0 && left > 0 && !pause ? Math.round((left / recent.perMinute) * 60) : undefined;
    const report: QueueReport = {
      queue: queue.name,
      redis: handle.target,
      paused: pause ? { kind: pause.kind, message: pause.message, since: pause.at } : false,
      workers,
      counts,
      documentsPerMinute: Number(recent.perMinute.toFixed(2)),
      rateOverSeconds: recent.overSeconds,
      ...(etaSeconds !== undefined ? { etaSeconds } : {}),
      totals: stats,
      budget: budget.limit === undefined ? null : { maxCredits: budget.limit, used: budget.used, reserved: budget.reserved },
    };
    return { report, finishedRecently: recent.finished, left };
  });
}

export interface ResumeResult {
  queue: string;
  /** Why the queue was paused; undefined when it was not. */
  wasPaused: string | undefined;
  /** The budget set first, with the credits already used against it. */
  budget?: { maxCredits: number; used: number } | undefined;
}

/** Resumes a paused queue; with `maxCredits`, sets its credit budget first (credits already used still count). */
export async function resumeQueue(options: QueueLookupOptions & { maxCredits?: number | undefined }): Promise<ResumeResult> {
  return CompositionRoot.use(options, async (root) => {
    const { queue, control } = await root.queue(options, 'lookup');
    const pause = await control.pauseReason();
    let budget: ResumeResult['budget'];
    if (options.maxCredits !== undefined) {
      await control.budget.setLimit(options.maxCredits);
      budget = { maxCredits: options.maxCredits, used: (await control.budget.state()).used };
    }
    await control.resume();
    return { queue: queue.name, wasPaused: pause?.message, budget };
  });
}

export interface FailedDocument {
  /** Below the source; the job's id when its data cannot be read. */
  path: string | undefined;
  source: string | undefined;
  reason: string;
  attempts: number;
  at: string | undefined;
}

/**
 * Hands each failed document of the queue to `onDocument` (failed-jobs.ts); with `retry`, then puts them all back in
 * the queue. Resolves to the queue's name and how many were listed.
 */
export async function failedDocuments(
  options: QueueLookupOptions & { retry?: boolean | undefined },
  onDocument: (document: FailedDocument) => void,
): Promise<{ queue: string; listed: number; retried: boolean }> {
  return CompositionRoot.use(options, async (root) => {
    const { queue } = await root.queue(options, 'lookup');
    let listed = 0;
    for await (const job of failedJobs(queue)) {
      const at = job.finishedOn ? new Date(job.finishedOn).toISOString() : undefined;
      // A group job that failed as a whole (its every start stopped short): each of its documents is listed.
      for (const document of documentsOf(job)) {
        listed++;
        const data = parseJobDataSchema.safeParse(document);
        onDocument({
          path: data.success ? data.data.relativePath : job.id,
          source: data.success ? data.data.uri : undefined,
          reason: job.failedReason,
          attempts: job.attemptsMade,
          at,
        });
      }
    }
    const retried = Boolean(options.retry) && listed > 0;
    if (retried) await queue.retryJobs({ state: 'failed' });
    return { queue: queue.name, listed, retried };
  });
}
