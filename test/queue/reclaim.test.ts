/**
 * Reclaiming after a Redis outage, on the shared Redis: a job locked by this worker that it does not hold (its
 * fetch reply was lost) goes back to waiting; jobs it holds, and jobs of other workers, stay active.
 */
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QUEUE_PREFIX } from '../../src/queue/queue-names.js';
import { reclaimJobsLostBy, reclaimUnlockedJobs } from '../../src/queue/reclaim.js';
import { deleteQueueKeys, SHARED_REDIS_URL, uniqueQueueName } from '../helpers/docmill-cli.js';

let name: string;
let redis: Redis;
let queue: Queue;
let fetcher: Worker;

beforeEach(async () => {
  name = uniqueQueueName();
  redis = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null });
  queue = new Queue(name, { connection: redis, prefix: QUEUE_PREFIX });
  // Fetches by hand, with the tokens a test chooses (as a worker's `<id>:<n>`).
  fetcher = new Worker(name, null, { connection: redis, prefix: QUEUE_PREFIX, autorun: false });
  await queue.addBulk(['lost', 'held', 'other'].map((jobId) => ({ name: 'doc', data: {}, opts: { jobId } })));
});

afterEach(async () => {
  await fetcher.close(true);
  await queue.close();
  redis.disconnect();
  await deleteQueueKeys(name);
});

async function fetchAs(token: string): Promise<string> {
  const job = await fetcher.getNextJob(token, { block: false });
  if (!job?.id) throw new Error('no job to fetch');
  return job.id;
}

describe('reclaimJobsLostBy', () => {
  it('queues again only the jobs this worker locked but does not hold', async () => {
    const tokens = new Map<string, string>();
    for (const token of ['me:0', 'me:1', 'someone-else:0']) tokens.set(await fetchAs(token), token);
    const [lost, held] = [...tokens.keys()];
    const reclaimed = await reclaimJobsLostBy(queue, redis, 'me', (jobId, token) => jobId === held && tokens.get(jobId) === token, 50);
    expect(reclaimed).toBe(1);
    expect(await queue.getJobState(lost!)).toBe('waiting');
    expect((await queue.getActive()).map((job) => job.id).sort()).toEqual([...tokens.keys()].filter((id) => id !== lost).sort());
  });
});

describe('reclaimUnlockedJobs', () => {
  it('queues again the active jobs whose lock is gone, and only those', async () => {
    const first = await fetchAs('me:0');
    const second = await fetchAs('me:1');
    await redis.del(`${QUEUE_PREFIX}:${name}:${first}:lock`);
    expect(await reclaimUnlockedJobs(queue, redis)).toBe(1);
    expect(await queue.getJobState(first)).toBe('waiting');
    expect(await queue.getJobState(second)).toBe('active');
  });
});
