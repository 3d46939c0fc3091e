/**
 * Documents by job state: a group job (GROUP_JOB_NAME) holds several documents and says how many in its id, so the
 * counts read ids only, never job data. Up to SAMPLE ids a state are read; a state with more jobs is estimated from
 * those (status is a glance, and a million-job queue must not cost a million-id read).
 */
import type { JobType, Queue } from 'bullmq';
import { documentsInJob } from './job-data.js';

const SAMPLE = 10_000;

export async function documentCounts(queue: Queue, ...states: JobType[]): Promise<Record<string, number>> {
  const counts = await queue.getJobCounts(...states);
  await Promise.all(
    states.map(async (state) => {
      const jobs = counts[state] ?? 0;
      if (jobs === 0) return;
      const ids = await queue.getRanges([state], 0, SAMPLE - 1);
      if (ids.length === 0) return;
      const documents = ids.reduce((sum, id) => sum + documentsInJob(id), 0);
      counts[state] = ids.length >= jobs ? documents : Math.round((documents / ids.length) * jobs);
    }),
  );
  return counts;
}
