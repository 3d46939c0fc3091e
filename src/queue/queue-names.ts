/**
 * Queue naming. The prefix is a Redis Cluster hash tag, so every key of every docmill queue lands in one slot.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';

export const QUEUE_PREFIX = '{docmill}';
export const DEFAULT_QUEUE = 'docmill';

/** `run` names its queue after its output, so two runs into different outputs on one Redis never mix. */
export function queueNameForOutput(outLocation: string): string {
  const canonical = outLocation.startsWith('s3://') ? outLocation.replace(/\/+$/, '') : resolve(outLocation);
  return `run-${createHash('sha256').update(canonical).digest('hex').slice(0, 12)}`;
}

export function assertQueueName(name: string): string {
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name)) {
    throw new RangeError(`Queue name "${name}" may use only letters, digits, '.', '_' and '-' (at most 100)`);
  }
  return name;
}

/** Redis keys docmill keeps beside BullMQ's own, under the same hash tag. */
export function docmillKey(queue: string, ...parts: string[]): string {
  return [QUEUE_PREFIX, queue, 'docmill', ...parts].join(':');
}
