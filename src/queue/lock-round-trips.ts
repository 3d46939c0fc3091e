/**
 * The content locks' calls to Redis (take, let go, let go unless the file was removed), sent together: calls made
 * while one batch is on its way go out in the next, as one script call. A small document takes a lock and lets it
 * go within a few milliseconds, and those two round trips were a tenth of a run of small pages; documents converted
 * side by side now share them. No call waits for company: with none on its way, a call goes out at once (with
 * those made in the same turn of the event loop). A batch Redis refuses fails every call in it, as one call would.
 *
 * Every key is of one queue, under its hash tag (queue-names.ts), so a batch stays within one slot of a cluster.
 */
import type { RedisClient } from './redis-connection.js';

export type LockCall =
  /** Takes the lock for `owner` or re-enters it (the same owner): 1 when held now, else 0. */
  | { kind: 'take'; lockKey: string; owner: string; ttlMs: number }
  /** Lets go of the lock when `owner` holds it: 1 when it did, else 0. */
  | { kind: 'release'; lockKey: string; owner: string }
  /**
   * The removal mark at `markKey` when it is later than `since` (the lock is then kept); else lets go of the lock
   * when `owner` holds it, and answers 0.
   */
  | { kind: 'releaseUnlessRemoved'; lockKey: string; markKey: string; owner: string; since: number };

/** One reply per call, in order: a number (see LockCall), or a removal mark's text. */
export type LockReply = number | string;

/** At most this many calls in one script call, so one batch never holds Redis long. */
const MAX_BATCH = 64;

/**
 * ARGV[1]: the number of calls; then per call its kind and arguments (t: owner, ttl; r: owner; u: owner, since).
 * KEYS: per call its lock, and for `u` the removal mark after it. A mark is stored as `<ms>:<outputs>`.
 */
const SCRIPT = `
local replies = {}
local key = 1
local arg = 2
for call = 1, tonumber(ARGV[1]) do
  local kind = ARGV[arg]
  local lock = KEYS[key]
  local owner = ARGV[arg + 1]
  if kind == 't' then
    local holder = redis.call('get', lock)
    if (not holder) or holder == owner then
      redis.call('set', lock, owner, 'PX', ARGV[arg + 2])
      replies[call] = 1
    else
      replies[call] = 0
    end
    key = key + 1
    arg = arg + 3
  elseif kind == 'r' then
    replies[call] = 0
    if redis.call('get', lock) == owner then replies[call] = redis.call('del', lock) end
    key = key + 1
    arg = arg + 2
  else
    replies[call] = 0
    local mark = redis.call('get', KEYS[key + 1])
    local at = mark and tonumber(string.match(mark, '^(%d+)'))
    if at and at > tonumber(ARGV[arg + 2]) then
      replies[call] = mark
    elseif redis.call('get', lock) == owner then
      redis.call('del', lock)
    end
    key = key + 2
    arg = arg + 3
  end
end
return replies`;

/** The script as a command of the connection: ioredis sends it by its SHA1, and its text when the server lacks it. */
interface LockCommands {
  docmillContentLocks(numberOfKeys: number, ...keysThenArgs: string[]): Promise<unknown[]>;
}

interface Waiting {
  call: LockCall;
  resolve: (reply: LockReply) => void;
  reject: (error: unknown) => void;
}

export class LockRoundTrips {
  #waiting: Waiting[] = [];
  #sending = false;
  readonly #redis: RedisClient & LockCommands;

  constructor(redis: RedisClient) {
    // The number of keys varies with the calls of a batch: given first at each call.
    redis.defineCommand('docmillContentLocks', { lua: SCRIPT });
    this.#redis = redis as RedisClient & LockCommands;
  }

  call(call: LockCall): Promise<LockReply> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ call, resolve, reject });
      if (!this.#sending && this.#waiting.length === 1) queueMicrotask(() => this.#sendNext());
    });
  }

  #sendNext(): void {
    if (this.#sending || this.#waiting.length === 0) return;
    const batch = this.#waiting.splice(0, MAX_BATCH);
    this.#sending = true;
    this.#send(batch.map((waiting) => waiting.call)).then(
      (replies) => batch.forEach((waiting, index) => waiting.resolve(replies[index] ?? 0)),
      (error: unknown) => batch.forEach((waiting) => waiting.reject(error)),
    ).finally(() => {
      this.#sending = false;
      this.#sendNext();
    });
  }

  async #send(calls: readonly LockCall[]): Promise<LockReply[]> {
    const keys: string[] = [];
    const args: string[] = [String(calls.length)];
    for (const call of calls) {
      keys.push(call.lockKey);
      if (call.kind === 'take') args.push('t', call.owner, String(call.ttlMs));
      else if (call.kind === 'release') args.push('r', call.owner);
      else {
        keys.push(call.markKey);
        args.push('u', call.owner, String(call.since));
      }
    }
    const replies = await this.#redis.docmillContentLocks(keys.length, ...keys, ...args);
    return replies.map((reply) => (typeof reply === 'string' || typeof reply === 'number' ? reply : 0));
  }
}
