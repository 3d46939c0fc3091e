/**
 * Backpressure for event-driven watches: no more messages are taken from the event queue while this many documents
 * wait in the job queue, so a burst of a million notifications stays in SQS (or RabbitMQ), where it costs nothing,
 * rather than in Redis.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Queue } from 'bullmq';

export const DEFAULT_WAITING_LIMIT = 10_000;
const RECHECK_MS = 500;

/** Resolves once fewer than `limit` jobs wait (or when `signal` aborts). */
export async function waitForRoom(queue: Queue, signal: AbortSignal, limit = DEFAULT_WAITING_LIMIT): Promise<void> {
  while (!signal.aborted) {
    const counts = await queue.getJobCounts('waiting', 'prioritized', 'delayed');
    if (Object.values(counts).reduce((sum, count) => sum + count, 0) < limit) return;
    await sleep(RECHECK_MS, undefined, { signal }).catch(() => undefined);
  }
}
