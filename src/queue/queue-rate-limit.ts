/**
 * The queue-wide pause of a per-minute 429 (`Queue.rateLimit`: every worker of the queue waits it out), read and
 * honoured through BullMQ's public API. BullMQ checks a queue's rate limit only in workers that have a `limiter`
 * (its rate-limiting guide: "limiter.max is used to determine if we need to execute the rate limit validation"), so
 * every docmill worker has one, set far above any pace a parse API allows so that it never binds by itself.
 */
import type { Queue, WorkerOptions } from 'bullmq';

export const HONOUR_QUEUE_RATE_LIMIT: NonNullable<WorkerOptions['limiter']> = { max: 1_000_000, duration: 1000 };

/**
 * Milliseconds left of a pause set with Queue.rateLimit; 0 or less when none. Queue.rateLimit marks the limiter key
 * with MAX_SAFE_INTEGER, while the workers' own limiter counts the jobs they fetch in the same key: only the mark is
 * a pause.
 */
export function queueRateLimitTtl(queue: Queue): Promise<number> {
  return queue.getRateLimitTtl(Number.MAX_SAFE_INTEGER);
}
