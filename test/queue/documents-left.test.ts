/**
 * What a worker's gate reads each second as the work left: documents, not jobs. A queue of a few large groups is
 * hundreds of documents, and a gate that took it for a few jobs never probed back a rate budget learned short
 * (a whole run paced below what the API allows).
 */
import { Queue, Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { documentsLeft } from '../../src/queue/document-counts.js';
import { GROUP_JOB_NAME, groupJobIdFor } from '../../src/queue/job-data.js';
import { deleteQueueKeys, QUEUE_PREFIX, SHARED_REDIS_URL, uniqueQueueName } from '../helpers/docmill-cli.js';

const queues: string[] = [];

afterEach(async () => {
  for (const name of queues.splice(0)) await deleteQueueKeys(name);
});

function ids(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
}

describe('documentsLeft', () => {
  it('counts the documents of queued groups and of the groups being worked on, and no longer those finished', async () => {
    const name = uniqueQueueName();
    queues.push(name);
    const connection = { url: SHARED_REDIS_URL };
    const queue = new Queue(name, { connection, prefix: QUEUE_PREFIX });
    const worker = new Worker(name, null, { connection, prefix: QUEUE_PREFIX, autorun: false });
    try {
      await queue.add(GROUP_JOB_NAME, {}, { jobId: groupJobIdFor(ids('a', 40)) });
      await queue.add(GROUP_JOB_NAME, {}, { jobId: groupJobIdFor(ids('b', 25)) });
      await queue.add('parse', {}, { jobId: 'alone-1' });
      expect(await documentsLeft(queue)).toBe(66);

      // The first group is taken: its 40 documents are being worked on, still left.
      const token = 'test-token';
      const active = await worker.getNextJob(token);
      expect(active?.id).toBe(groupJobIdFor(ids('a', 40)));
      expect(await documentsLeft(queue)).toBe(66);

      await active?.moveToCompleted({ documents: 40 }, token, false);
      expect(await documentsLeft(queue)).toBe(26);
    } finally {
      await worker.close();
      await queue.close();
    }
  });
});
