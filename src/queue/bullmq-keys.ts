/**
 * The reads of BullMQ's own Redis keys that BullMQ offers no public call for, kept in this one module. Each key is
 * named by BullMQ (`queue.toKey`, `QueueKeys`), never spelled out here, so a change of BullMQ's layout moves them too.
 * - Whether a queue exists: `new Queue()` creates it (it writes the queue's `meta` hash) and `getMeta()` answers for
 *   a queue that was never made as well; the meta hash being there is the test.
 * - Every queue under docmill's prefix (the dashboard over a whole Redis): BullMQ lists no queues.
 * - The token of a job's lock: BullMQ reads it only inside its scripts; moving a job with it (`job.moveToWait(token)`)
 *   is public.
 */
import { QueueKeys, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_PREFIX } from './queue-names.js';

const KEYS = new QueueKeys(QUEUE_PREFIX);
const META = 'meta';

export async function queueExists(redis: Redis, name: string): Promise<boolean> {
  return (await redis.exists(KEYS.toKey(name, META))) > 0;
}

/** The names of every queue under docmill's prefix (a SCAN: Redis is not blocked while it runs). */
export async function queueNamesIn(redis: Redis): Promise<string[]> {
  const head = KEYS.getQueueQualifiedName('');
  const tail = `:${META}`;
  const names: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', KEYS.toKey('*', META), 'COUNT', 1000);
    cursor = next;
    for (const key of keys) names.push(key.slice(head.length, -tail.length));
  } while (cursor !== '0');
  return names;
}

/** The token of the lock a worker holds on an active job, or null when no lock is held. */
export function lockTokenOf(queue: Queue, redis: Redis, jobId: string): Promise<string | null> {
  return redis.get(queue.toKey(`${jobId}:lock`));
}
