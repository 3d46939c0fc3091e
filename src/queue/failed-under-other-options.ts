/**
 * A rerun retries the documents that failed last time, except those queued under other parse options than its own:
 * its listing queues their files again under the new options (a job's id includes them), so retrying the old jobs
 * too would parse such a document twice, once with options no longer asked for, and record its failure twice (or,
 * should the old job finish last, leave its outputs). Those old jobs are removed instead.
 */
import type { Job, Queue } from 'bullmq';
import { GROUP_JOB_NAME, groupJobDataSchema, parseJobDataSchema } from './job-data.js';

/** Failed jobs are read this many at a time (a queue keeps up to 100,000). */
const PAGE = 500;

/** The options fingerprint a failed job was queued under; undefined for a job that has none (a removal). */
function fingerprintOf(job: Job): string | undefined {
  if (job.name === GROUP_JOB_NAME) {
    const group = groupJobDataSchema.safeParse(job.data);
    return group.success ? group.data.documents[0]?.data.optionsFingerprint : undefined;
  }
  const single = parseJobDataSchema.safeParse(job.data);
  return single.success ? single.data.optionsFingerprint : undefined;
}

/** Removes the failed jobs queued under another fingerprint, then retries the rest; returns how many were removed. */
export async function retryFailedUnder(queue: Queue, fingerprint: string): Promise<number> {
  const superseded: Job[] = [];
  for (let start = 0; ; start += PAGE) {
    const page = await queue.getFailed(start, start + PAGE - 1);
    for (const job of page) {
      const queuedUnder = fingerprintOf(job);
      if (queuedUnder !== undefined && queuedUnder !== fingerprint) superseded.push(job);
    }
    if (page.length < PAGE) break;
  }
  for (const job of superseded) await job.remove();
  await queue.retryJobs({ state: 'failed' });
  return superseded.length;
}
