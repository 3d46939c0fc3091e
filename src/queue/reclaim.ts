/**
 * Hands back jobs left active by a docmill that died (SIGKILL, power loss) so a rerun need not wait for their
 * locks to expire. Only safe when no worker at all is connected to the queue, which docmill can know for certain
 * only on its private embedded Redis; on a shared Redis, BullMQ's stalled-job check does this once locks expire.
 */
import type { Queue } from 'bullmq';
import type { RedisClient } from './redis-connection.js';
import { lockTokenOf } from './bullmq-keys.js';

export async function reclaimOrphanedJobs(queue: Queue, redis: RedisClient): Promise<number> {
  if ((await queue.getWorkersCount()) > 0) return 0;
  let reclaimed = 0;
  for (const job of await queue.getActive()) {
    if (!job.id) continue;
    // Given the lock's own token, BullMQ drops the lock as it moves the job (a job without a lock moves with none).
    // Nobody renews or takes the lock in between: no worker is connected.
    const token = await lockTokenOf(queue, redis, job.id);
    if ((await job.moveToWait(token ?? undefined)) >= 0) reclaimed++;
  }
  return reclaimed;
}

/**
 * After the embedded server was restarted from its append-only file: jobs active without a lock are held by
 * nobody (the worker that took them has moved on, or the lock expired while Redis was down), so they wait again
 * now rather than at BullMQ's next stalled-job check. Jobs whose lock survived stay with their worker.
 */
export async function reclaimUnlockedJobs(queue: Queue, redis: RedisClient): Promise<number> {
  let reclaimed = 0;
  for (const job of await queue.getActive()) {
    if (!job.id || (await lockTokenOf(queue, redis, job.id)) !== null) continue;
    if ((await job.moveToWait()) >= 0) reclaimed++;
  }
  return reclaimed;
}

/**
 * After an outage of Redis: a job whose fetch reached Redis but whose reply was lost is active under a lock of this
 * worker (its tokens are `<worker id>:<n>`) that the worker never saw, so nobody works on it until the lock expires.
 * Such jobs (locked by `workerId`, not `held` by it, on two looks a moment apart) go back to waiting. Other
 * workers' jobs are never touched.
 */
export async function reclaimJobsLostBy(
  queue: Queue,
  redis: RedisClient,
  workerId: string,
  held: (jobId: string, token: string) => boolean,
  settleMs = 2000,
): Promise<number> {
  const lost = async (): Promise<Map<string, string>> => {
    const found = new Map<string, string>();
    for (const job of await queue.getActive()) {
      if (!job.id) continue;
      const token = await lockTokenOf(queue, redis, job.id);
      if (token?.startsWith(`${workerId}:`) && !held(job.id, token)) found.set(job.id, token);
    }
    return found;
  };
  const first = await lost();
  if (first.size === 0) return 0;
  await new Promise((resolveWait) => setTimeout(resolveWait, settleMs));
  let reclaimed = 0;
  for (const [jobId, token] of await lost()) {
    if (first.get(jobId) !== token) continue;
    const job = await queue.getJob(jobId);
    if (job && (await job.moveToWait(token)) >= 0) reclaimed++;
  }
  return reclaimed;
}
