/**
 * Documents by state as `docmill status` and /metrics show them: one moment of the queue. A document that finishes
 * while the counts are read shows as active or as completed, never as both (a scrape that said "3 completed, 1 failed,
 * 1 active" of four documents).
 */
import { Queue, Worker, type JobType } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { documentCounts } from '../../src/queue/document-counts.js';
import { deleteQueueKeys, QUEUE_PREFIX, SHARED_REDIS_URL, uniqueQueueName } from '../helpers/docmill-cli.js';

const queues: string[] = [];

afterEach(async () => {
  for (const name of queues.splice(0)) await deleteQueueKeys(name);
});

/** A real queue whose read of completed job ids comes just after `beforeCompletedRead` ran: a job moves on then. */
class QueueMovedMidRead extends Queue {
  beforeCompletedRead: (() => Promise<void>) | undefined;

  override async getRanges(types: JobType[], start?: number, end?: number, asc?: boolean): Promise<string[]> {
    if (types.includes('completed')) {
      const move = this.beforeCompletedRead;
      this.beforeCompletedRead = undefined;
      await move?.();
    }
    return super.getRanges(types, start, end, asc);
  }
}

describe('documentCounts', () => {
  it('counts a document that finishes while the states are read in one state only', async () => {
    const name = uniqueQueueName();
    queues.push(name);
    const connection = { url: SHARED_REDIS_URL };
    const queue = new QueueMovedMidRead(name, { connection, prefix: QUEUE_PREFIX });
    const worker = new Worker(name, null, { connection, prefix: QUEUE_PREFIX, autorun: false });
    try {
      await queue.add('parse', {}, { jobId: 'done-1' });
      await queue.add('parse', {}, { jobId: 'last-1' });
      const token = 'test-token';
      const first = await worker.getNextJob(token);
      await first?.moveToCompleted({}, token, false);
      const last = await worker.getNextJob(token);
      expect(last?.id).toBe('last-1');

      queue.beforeCompletedRead = async () => {
        await last?.moveToCompleted({}, token, false);
      };
      const counts = await documentCounts(queue, 'waiting', 'active', 'completed');
      expect(counts.waiting).toBe(0);
      expect((counts.active ?? 0) + (counts.completed ?? 0)).toBe(2);

      // Read again once nothing moves: the last document is completed.
      expect(await documentCounts(queue, 'waiting', 'active', 'completed')).toEqual({ waiting: 0, active: 0, completed: 2 });
    } finally {
      await worker.close();
      await queue.close();
    }
  });
});
