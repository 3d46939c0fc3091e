/**
 * Reading a queue's failed jobs: in pages (a queue keeps up to 100,000 of them), and each as the documents it holds
 * (a group job holds several, group-member.ts).
 */
import type { Job, Queue } from 'bullmq';
import { groupJobDataSchema } from './job-data.js';

/** Failed jobs are read this many at a time. */
const PAGE = 500;

/** The queue's failed jobs, newest first, a page at a time. */
export async function* failedJobs(queue: Queue): AsyncGenerator<Job> {
  for (let start = 0; ; start += PAGE) {
    const page: Job[] = await queue.getFailed(start, start + PAGE - 1);
    yield* page;
    if (page.length < PAGE) return;
  }
}

/** The job data of each document a job holds: each of a group's, or the job's own; unchecked. */
export function documentsOf(job: Job): unknown[] {
  const group = groupJobDataSchema.safeParse(job.data);
  return group.success ? group.data.documents.map((document) => document.data) : [job.data];
}
