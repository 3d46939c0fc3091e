/**
 * The document parse jobs being worked on now, across every worker of the queue, that were queued by a given time:
 * what a removal waits for before it deletes outputs another path's job may still copy (pipeline/steps/remove-source.ts).
 *
 * BullMQ hands out waiting jobs first in, first out (a job is pushed on one end of the wait list, workers take from
 * the other, and a delayed job that is due joins the waiting end like a new one), so every job queued before a
 * removal became due was taken before it. Of those, only the active ones can still be short of their content check:
 * one that finished has done it, and one waiting again (a deferral, a backoff, its page ranges) did it first.
 */
import type { Queue } from 'bullmq';
import { JOB_NAME } from './job-data.js';

/** How many document parse jobs queued at or before `queuedBy` (ms since the epoch) are active, leaving out `exceptUri`'s. */
export async function parseJobsInFlight(queue: Queue, queuedBy: number, exceptUri: string): Promise<number> {
  const active = await queue.getJobs(['active']);
  // A job finished between the listing of ids and the read of its hash comes back empty: it is no longer in flight.
  return active.filter((job) => job?.name === JOB_NAME && job.timestamp <= queuedBy && (job.data as { uri?: unknown }).uri !== exceptUri).length;
}
