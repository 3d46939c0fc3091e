/**
 * Removals seen, per source file, in Redis: a parse job queued before its file was removed is cancelled when it
 * starts (nothing read), and one already running checks again once it has written, deleting what it wrote when the
 * removal asked for deletion. The mark is set before a removal deletes anything, and the parse job checks after it
 * wrote, so either the removal's deletes come after the writes, or the job sees the mark: outputs of a removed file
 * never outlive the removal.
 *
 * One key per file, expiring after MARK_TTL_MS: a parse job older than that was queued long before, and its file
 * would be read (and found missing) anyway.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-connection.js';
import type { RemovedOutputs } from './job-data.js';
import { docmillKey } from './queue-names.js';

const MARK_TTL_MS = 7 * 24 * 3600 * 1000;

/** Keeps the later of the two marks (a removal seen again later moves it forward, never back). */
const MARK_IF_LATER = `
local current = redis.call('get', KEYS[1])
if current then
  local at = tonumber(string.match(current, '^(%d+)'))
  if at and at >= tonumber(ARGV[1]) then return 0 end
end
redis.call('set', KEYS[1], ARGV[1] .. ':' .. ARGV[2], 'PX', ARGV[3])
return 1`;

export interface RemovalMark {
  /** When the removal was seen (ms since the epoch). */
  at: number;
  outputs: RemovedOutputs;
}

export class RemovalMarks {
  constructor(
    private readonly redis: RedisClient,
    private readonly queue: string,
  ) {}

  async mark(uri: string, mark: RemovalMark): Promise<void> {
    await this.redis.eval(MARK_IF_LATER, 1, this.keyOf(uri), String(mark.at), mark.outputs, String(MARK_TTL_MS));
  }

  /** The removal of `uri` seen after `since` (ms since the epoch), if any. */
  async removedSince(uri: string, since: number): Promise<RemovalMark | undefined> {
    return markSince(await this.redis.get(this.keyOf(uri)), since);
  }

  /** The removals of `uris` seen after `since`, by URI, in one round trip (the documents of a group job). */
  async removedSinceEach(uris: readonly string[], since: number): Promise<Map<string, RemovalMark>> {
    const found = new Map<string, RemovalMark>();
    if (uris.length === 0) return found;
    // The keys share the queue's hash tag: one slot, so one MGET on a cluster too.
    const values = await this.redis.mget(...uris.map((uri) => this.keyOf(uri)));
    uris.forEach((uri, index) => {
      const mark = markSince(values[index] ?? null, since);
      if (mark) found.set(uri, mark);
    });
    return found;
  }

  /** The Redis key of `uri`'s mark (also for a script that reads it with other keys of the queue). */
  keyOf(uri: string): string {
    return docmillKey(this.queue, 'removed', createHash('sha256').update(uri).digest('hex').slice(0, 32));
  }
}

/** A stored mark (`<at>:<outputs>`) when it is later than `since`. */
export function markSince(value: string | null, since: number): RemovalMark | undefined {
  const match = value ? /^(\d+):(keep|delete)$/.exec(value) : null;
  if (!match) return undefined;
  const at = Number(match[1]);
  return at > since ? { at, outputs: match[2] as RemovedOutputs } : undefined;
}
