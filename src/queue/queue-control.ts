/**
 * Shared state of a queue beyond BullMQ's own: the options each fingerprint stands for, and why the queue is
 * paused. Kept in Redis so `enqueue` on one machine and `worker` on ten agree, and `status` can say why.
 */
import { jobsThatExist, noteRecordedInGroup, recordedInGroup } from './bullmq-keys.js';
import type { RedisClient } from './redis-connection.js';
import type { Queue } from 'bullmq';
import { processingSettingsSchema, type ProcessingSettings } from '../common/processing-settings.js';
import { parseOptionsSchema, type ParseOptions } from '../contract/options.js';
import { DocmillError } from '../errors/docmill-error.js';
import { CreditBudget } from './credit-budget.js';
import { markSince, RemovalMarks, type RemovalMark } from './removal-marks.js';
import { docmillKey } from './queue-names.js';
import { BatchedWrites } from './batched-writes.js';
import { SharedReading, type SendingConditions } from './sending-conditions.js';
import { LockRoundTrips } from './lock-round-trips.js';

/** credits: the API answered 402; budget: the next document would pass `--max-credits`; auth: the key was refused. */
export type PauseKind = 'credits' | 'budget' | 'auth' | 'manual';

/** How long per-second counts of finished documents are kept (the longest rate `status` can report on). */
const RATE_WINDOW_SECONDS = 900;
/** How long finished documents' figures gather in a process before they go to Redis together. */
const STATS_FLUSH_MS = 500;

export interface PauseReason {
  kind: PauseKind;
  message: string;
  at: string;
}

const RENEW_IF_OWNER = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

/** A content lock held (QueueControl.lockContent). */
export interface ContentLock {
  /** Releases the lock if it is still ours; once released, later calls do nothing. */
  release(): Promise<void>;
  /**
   * The removal of the file at `uri` seen after `since`, read in the round trip that releases the lock when there is
   * none (a document's check after writing its outputs). With a removal the lock stays held until release().
   */
  releaseUnlessRemoved(uri: string, since: number): Promise<RemovalMark | undefined>;
}

export class UnknownOptionsError extends DocmillError {
  constructor(fingerprint: string) {
    super('QUEUE_UNKNOWN_OPTIONS', `No options are registered for fingerprint ${fingerprint}; re-enqueue the files`);
  }
}

export class QueueControl {
  readonly #cache = new Map<string, ParseOptions>();
  readonly #settingsCache = new Map<string, ProcessingSettings>();
  /** The queue's credit budget (`--max-credits`), shared by its workers. */
  readonly budget: CreditBudget;
  /** Source files removed, so parse jobs queued before cancel themselves. */
  readonly removals: RemovalMarks;
  /** Running totals and finished counts (by second) not yet in Redis: see addStats. */
  readonly #pendingTotals = new Map<string, number>();
  readonly #pendingFinished = new Map<number, number>();
  #statsTimer: NodeJS.Timeout | undefined;
  readonly #conditions = new SharedReading(() => this.#readSendingConditions());
  readonly #groupNotes = new BatchedWrites<string>((groupId, documentIds) => noteRecordedInGroup(this.queue, this.redis, groupId, documentIds));
  readonly #locks: LockRoundTrips;

  constructor(
    private readonly redis: RedisClient,
    private readonly queue: Queue,
  ) {
    this.budget = new CreditBudget(redis, queue.name, () => this.#conditions.forget());
    this.removals = new RemovalMarks(redis, queue.name);
    this.#locks = new LockRoundTrips(redis);
  }

  get name(): string {
    return this.queue.name;
  }

  /** The ids among `ids` that name a job of the queue, in any state. */
  jobsThatExist(ids: readonly string[]): Promise<Set<string>> {
    return jobsThatExist(this.queue, this.redis, ids);
  }

  /**
   * Notes that a group job's document has its manifest line, so that the group, started again after its worker died,
   * records it no second time. Documents of a group recorded while a note is under way are noted together next.
   */
  noteRecordedInGroup(groupId: string, documentId: string): Promise<void> {
    return this.#groupNotes.add(groupId, documentId);
  }

  /** The documents among `documentIds` that an earlier start of the group job recorded. */
  recordedInGroup(groupId: string, documentIds: readonly string[]): Promise<Set<string>> {
    return recordedInGroup(this.queue, this.redis, groupId, documentIds);
  }

  /** Records what jobs queued under `fingerprint` are parsed with, for every worker of the queue. */
  async saveOptions(fingerprint: string, options: ParseOptions, settings: ProcessingSettings = {}): Promise<void> {
    await this.redis.set(docmillKey(this.queue.name, 'options', fingerprint), JSON.stringify(options));
    this.#cache.set(fingerprint, options);
    await this.redis.set(docmillKey(this.queue.name, 'settings', fingerprint), JSON.stringify(settings));
    this.#settingsCache.set(fingerprint, settings);
  }

  /** The processing settings saved with the options; none for options saved by a version without them. */
  async loadSettings(fingerprint: string): Promise<ProcessingSettings> {
    const cached = this.#settingsCache.get(fingerprint);
    if (cached) return cached;
    const text = await this.redis.get(docmillKey(this.queue.name, 'settings', fingerprint));
    const settings = text ? processingSettingsSchema.parse(JSON.parse(text)) : {};
    this.#settingsCache.set(fingerprint, settings);
    return settings;
  }

  async loadOptions(fingerprint: string): Promise<ParseOptions> {
    const cached = this.#cache.get(fingerprint);
    if (cached) return cached;
    const text = await this.redis.get(docmillKey(this.queue.name, 'options', fingerprint));
    if (!text) throw new UnknownOptionsError(fingerprint);
    const options = parseOptionsSchema.parse(JSON.parse(text));
    this.#cache.set(fingerprint, options);
    return options;
  }

  /** Pauses the whole queue (every worker on it) and records why. Jobs stay waiting. */
  async pause(kind: PauseKind, message: string): Promise<void> {
    const reason: PauseReason = { kind, message, at: new Date().toISOString() };
    await this.redis.set(docmillKey(this.queue.name, 'paused'), JSON.stringify(reason));
    try {
      await this.queue.pause();
    } finally {
      this.#conditions.forget();
    }
  }

  async resume(): Promise<void> {
    await this.redis.del(docmillKey(this.queue.name, 'paused'));
    try {
      await this.queue.resume();
    } finally {
      this.#conditions.forget();
    }
  }

  /** Whether the queue is paused, and its credit budget: what a document checks before it is sent (./sending-conditions.ts). */
  sendingConditions(): Promise<SendingConditions> {
    return this.#conditions.current();
  }

  async #readSendingConditions(): Promise<SendingConditions> {
    // BullMQ marks a paused queue with a `paused` field in its meta hash (Queue.isPaused).
    const replies = await this.redis.pipeline().hexists(this.queue.toKey('meta'), 'paused').hget(this.budget.key, 'limit').exec();
    const [paused, limit] = (replies ?? []).map(([error, value]) => {
      if (error) throw error;
      return value;
    });
    return { paused: paused === 1, budgetLimit: limit === null || limit === undefined ? undefined : Number(limit) };
  }

  async pauseReason(): Promise<PauseReason | undefined> {
    if (!(await this.queue.isPaused())) return undefined;
    const text = await this.redis.get(docmillKey(this.queue.name, 'paused'));
    if (!text) return { kind: 'manual', message: 'paused', at: '' };
    return JSON.parse(text) as PauseReason;
  }

  /**
   * A lock so identical content queued under two paths is parsed once: the second job waits for the first and
   * then copies its outputs. The owner is the job id, and the lock is re-entrant for it: when a worker dies, BullMQ
   * hands its job to another, which must not wait for the dead one's lock. The lock lives `ttlMs` and is renewed
   * while held, so a crashed holder frees it within `ttlMs`. Resolves with the release function.
   */
  async lockContent(key: string, ownerId: string, ttlMs: number, signal?: AbortSignal): Promise<ContentLock> {
    const lockKey = docmillKey(this.queue.name, 'content-lock', key);
    for (;;) {
      signal?.throwIfAborted();
      const taken = await this.#locks.call({ kind: 'take', lockKey, owner: ownerId, ttlMs });
      if (taken === 1) return this.#heldLock(lockKey, ownerId, ttlMs);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  #heldLock(lockKey: string, ownerId: string, ttlMs: number): ContentLock {
    const renewal = setInterval(() => {
      this.redis.eval(RENEW_IF_OWNER, 1, lockKey, ownerId, String(ttlMs)).catch(() => undefined);
    }, Math.max(250, Math.floor(ttlMs / 3)));
    renewal.unref();
    let released = false;
    const markReleased = () => {
      released = true;
      clearInterval(renewal);
    };
    return {
      release: async () => {
        if (released) return;
        markReleased();
        // Release only our own lock: one that expired and was taken by another job is theirs.
        await this.#locks.call({ kind: 'release', lockKey, owner: ownerId });
      },
      releaseUnlessRemoved: async (uri, since) => {
        if (released) return this.removals.removedSince(uri, since);
        const mark = await this.#locks.call({ kind: 'releaseUnlessRemoved', lockKey, markKey: this.removals.keyOf(uri), owner: ownerId, since });
        const removal = markSince(typeof mark === 'string' ? mark : null, since);
        if (removal === undefined) markReleased();
        return removal;
      },
    };
  }

  /**
   * Adds to the queue's running totals, and counts finished documents in per-second buckets (kept 15 minutes), so
   * `status` can give the real rate of the recent past, for runs shorter than a minute too. The figures gather in
   * this process and go to Redis together every STATS_FLUSH_MS (one round trip for many documents, not one each):
   * they are `status`'s figures, not a record (the manifest is), so a killed process loses at most that much of them.
   */
  addStats(fields: Record<string, number>, finished = 0): Promise<void> {
    for (const [field, value] of Object.entries(fields)) {
      if (value) this.#pendingTotals.set(field, (this.#pendingTotals.get(field) ?? 0) + value);
    }
    if (finished > 0) {
      const second = Math.floor(Date.now() / 1000);
      this.#pendingFinished.set(second, (this.#pendingFinished.get(second) ?? 0) + finished);
    }
    this.#statsTimer ??= setTimeout(() => {
      this.flushStats().catch(() => undefined);
    }, STATS_FLUSH_MS).unref();
    return Promise.resolve();
  }

  /** Sends the figures gathered since the last flush; ones Redis did not take stay for the next. */
  async flushStats(): Promise<void> {
    clearTimeout(this.#statsTimer);
    this.#statsTimer = undefined;
    if (this.#pendingTotals.size === 0 && this.#pendingFinished.size === 0) return;
    const totals = new Map(this.#pendingTotals);
    const finished = new Map(this.#pendingFinished);
    this.#pendingTotals.clear();
    this.#pendingFinished.clear();
    const key = docmillKey(this.queue.name, 'stats');
    const pipeline = this.redis.pipeline();
    for (const [field, value] of totals) pipeline.hincrbyfloat(key, field, value);
    for (const [second, count] of finished) {
      const bucket = docmillKey(this.queue.name, 'finished', String(second));
      pipeline.incrby(bucket, count);
      pipeline.expire(bucket, RATE_WINDOW_SECONDS);
    }
    try {
      const results = await pipeline.exec();
      if (results?.some(([error]) => error)) throw new Error('a running total was not added');
    } catch (error) {
      // Not sent: kept for the next flush (a partly applied pipeline may count some twice: these are display figures).
      for (const [field, value] of totals) this.#pendingTotals.set(field, (this.#pendingTotals.get(field) ?? 0) + value);
      for (const [second, count] of finished) this.#pendingFinished.set(second, (this.#pendingFinished.get(second) ?? 0) + count);
      this.#statsTimer ??= setTimeout(() => {
        this.flushStats().catch(() => undefined);
      }, STATS_FLUSH_MS).unref();
      throw error;
    }
  }

  /**
   * Documents finished per minute over the last `seconds` (at most 15 minutes), measured from the first second
   * with a finished document in that window: 600 documents in the last 17 s read as about 2,100/min, not 600/min.
   * Also the number of documents counted.
   */
  async recentRate(seconds = 60, now = Date.now()): Promise<{ perMinute: number; finished: number; overSeconds: number }> {
    await this.flushStats();
    const window = Math.max(1, Math.min(seconds, RATE_WINDOW_SECONDS));
    const last = Math.floor(now / 1000);
    const keys = Array.from({ length: window }, (_, age) => docmillKey(this.queue.name, 'finished', String(last - age)));
    const values = (await this.redis.mget(...keys)).map((value) => Number(value ?? 0));
    const finished = values.reduce((sum, value) => sum + value, 0);
    if (finished === 0) return { perMinute: 0, finished: 0, overSeconds: window };
    const oldest = values.reduce((found, value, age) => (value > 0 ? age : found), 0);
    const overSeconds = oldest + 1;
    return { perMinute: (finished * 60) / overSeconds, finished, overSeconds };
  }

  async stats(): Promise<Record<string, number>> {
    await this.flushStats();
    const raw = await this.redis.hgetall(docmillKey(this.queue.name, 'stats'));
    return Object.fromEntries(Object.entries(raw).map(([field, value]) => [field, Number(value)]));
  }
}
