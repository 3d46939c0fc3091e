/**
 * The reads of BullMQ's own Redis keys that BullMQ offers no public call for, kept in this one module. Each key is
 * named by BullMQ (`queue.toKey`, `QueueKeys`), never spelled out here, so a change of BullMQ's layout moves them too.
 * - Whether a queue exists: `new Queue()` creates it (it writes the queue's `meta` hash) and `getMeta()` answers for
 *   a queue that was never made as well; the meta hash being there is the test.
 * - Every queue under docmill's prefix (the dashboard over a whole Redis): BullMQ lists no queues.
 * - The token of a job's lock: BullMQ reads it only inside its scripts; moving a job with it (`job.moveToWait(token)`)
 *   is public.
 * - Which of several job ids name a job, in one round trip: a group job asks it of its documents' own ids.
 * - Which documents of a group job are recorded: a field each in the group job's own hash, so the note goes when the
 *   job goes (BullMQ reads only the fields it knows).
 */
import { Cluster, QueueKeys, type Queue } from './commonjs-packages.js';
import type { RedisClient } from './redis-connection.js';
import { QUEUE_PREFIX } from './queue-names.js';

const KEYS = new QueueKeys(QUEUE_PREFIX);
const META = 'meta';

export async function queueExists(redis: RedisClient, name: string): Promise<boolean> {
  return (await redis.exists(KEYS.toKey(name, META))) > 0;
}

/**
 * The names of every queue under docmill's prefix (a SCAN: Redis is not blocked while it runs). On a cluster each
 * master is scanned: SCAN sees one node's keys only (the prefix's hash tag puts them all on one, wherever it is).
 */
export async function queueNamesIn(redis: RedisClient): Promise<string[]> {
  const head = KEYS.getQueueQualifiedName('');
  const tail = `:${META}`;
  const names = new Set<string>();
  for (const node of redis instanceof Cluster ? redis.nodes('master') : [redis]) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', KEYS.toKey('*', META), 'COUNT', 1000);
      cursor = next;
      for (const key of keys) names.add(key.slice(head.length, -tail.length));
    } while (cursor !== '0');
  }
  return [...names];
}

/** The token of the lock a worker holds on an active job, or null when no lock is held. */
export function lockTokenOf(queue: Queue, redis: RedisClient, jobId: string): Promise<string | null> {
  return redis.get(queue.toKey(`${jobId}:lock`));
}

/**
 * The ids among `ids` that name a job of the queue, in any state. Mostly none do: one EXISTS over every key says so
 * (one command, not one per id; one slot: the prefix's hash tag); only when some do is each asked apart.
 */
export async function jobsThatExist(queue: Queue, redis: RedisClient, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  if (ids.length === 0 || (await redis.exists(...ids.map((id) => queue.toKey(id)))) === 0) return found;
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.exists(queue.toKey(id));
  const replies = (await pipeline.exec()) ?? [];
  replies.forEach(([error, exists], index) => {
    if (error) throw error;
    if (exists === 1) found.add(ids[index] as string);
  });
  return found;
}

/** The field of a group job's hash that says one of its documents has its manifest line. */
function recordedField(documentId: string): string {
  return `docmill:recorded:${documentId}`;
}

/** Notes, in the group job's own hash, that `documentIds` are recorded (one command). */
export async function noteRecordedInGroup(queue: Queue, redis: RedisClient, groupId: string, documentIds: readonly string[]): Promise<void> {
  await redis.hset(queue.toKey(groupId), Object.fromEntries(documentIds.map((id) => [recordedField(id), '1'])));
}

/** The documents among `documentIds` that an earlier start of the group job recorded (one command). */
export async function recordedInGroup(queue: Queue, redis: RedisClient, groupId: string, documentIds: readonly string[]): Promise<Set<string>> {
  if (documentIds.length === 0) return new Set();
  const values = await redis.hmget(queue.toKey(groupId), ...documentIds.map(recordedField));
  return new Set(documentIds.filter((_, index) => values[index] !== null));
}
