/**
 * Documents by job state: a group job (GROUP_JOB_NAME) holds several documents and says how many in its id, so the
 * counts read ids, not job data. The job counts are one snapshot (BullMQ reads them in one script); the ids, read
 * after them, only say how many documents a job of each state holds, so a job that moves on between the two reads is
 * never counted in two states. Up to SAMPLE ids a state are read; a state with more jobs is estimated from those
 * (status is a glance, and a million-job queue must not cost a million-id read). A completed group counts what its
 * result says it finished itself (the documents it moved out into jobs of their own are counted there): its result is
 * read for up to FINISHED_SAMPLE groups.
 */
import type { JobType, Queue } from 'bullmq';
import { documentsInJob } from './job-data.js';

const SAMPLE = 10_000;
const FINISHED_SAMPLE = 500;

/** Ids read a state when a worker asks, every second, how many documents are left: an estimate is all it needs. */
const BACKLOG_SAMPLE = 200;

export function documentCounts(queue: Queue, ...states: JobType[]): Promise<Record<string, number>> {
  return countDocuments(queue, states, SAMPLE);
}

/**
 * The documents not yet finished: queued, and in the groups being worked on (whole, as their finished documents are
 * not counted apart). A worker's gate reads it to judge whether a probe for headroom is worth its possible refusal,
 * so a queue of a few large groups counts as the hundreds of documents it is, not as a few jobs.
 */
export async function documentsLeft(queue: Queue): Promise<number> {
  const counts = await countDocuments(queue, ['waiting', 'prioritized', 'delayed', 'active'], BACKLOG_SAMPLE);
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

async function countDocuments(queue: Queue, states: readonly JobType[], sample: number): Promise<Record<string, number>> {
  const counts = await queue.getJobCounts(...states);
  await Promise.all(
    states.map(async (state) => {
      const jobs = counts[state] ?? 0;
      if (jobs === 0) return;
      const ids = await queue.getRanges([state], 0, Math.min(sample, state === 'completed' ? FINISHED_SAMPLE : SAMPLE) - 1);
      if (ids.length === 0) return;
      const counted = await Promise.all(ids.map((id) => (state === 'completed' && documentsInJob(id) > 1 ? finishedBy(queue, id) : documentsInJob(id))));
      const documents = counted.reduce((sum, count) => sum + count, 0);
      counts[state] = ids.length === jobs ? documents : Math.round((documents / ids.length) * jobs);
    }),
  );
  return counts;
}

/** The documents a completed group finished itself, from its result; its count when the result says nothing. */
async function finishedBy(queue: Queue, id: string): Promise<number> {
  const job = await queue.getJob(id);
  const documents: unknown = (job?.returnvalue as { documents?: unknown } | undefined)?.documents;
  return typeof documents === 'number' ? documents : documentsInJob(id);
}
