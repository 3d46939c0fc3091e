/**
 * A rerun retries the documents that failed last time, except those queued under other parse options than its own:
 * its listing queues their files again under the new options (a job's id includes them), so retrying the old jobs
 * too would parse such a document twice, once with options no longer asked for, and record its failure twice (or,
 * should the old job finish last, leave its outputs). Those old jobs are removed instead.
 */
import type { Job, Queue } from 'bullmq';
import { documentsOf, failedJobs } from './failed-jobs.js';
import { parseJobDataSchema } from './job-data.js';

/** The options fingerprint a failed job was queued under (a group's documents share one); undefined for a job that has none (a removal). */
function fingerprintOf(job: Job): string | undefined {
  const first = parseJobDataSchema.safeParse(documentsOf(job)[0]);
  return first.success ? first.data.optionsFingerprint : undefined;
}

/** Removes the failed jobs queued under another fingerprint, then retries the rest; returns how many were removed. */
export async function retryFailedUnder(queue: Queue, fingerprint: string): Promise<number> {
  // Collected first: removing while paging would move the later pages.
  const superseded: Job[] = [];
  for await (const job of failedJobs(queue)) {
    const queuedUnder = fingerprintOf(job);
    if (queuedUnder !== undefined && queuedUnder !== fingerprint) superseded.push(job);
  }
  for (const job of superseded) await job.remove();
  await queue.retryJobs({ state: 'failed' });
  return superseded.length;
}
