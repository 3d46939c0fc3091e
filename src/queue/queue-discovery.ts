/**
 * Every docmill queue in one Redis (bullmq-keys.ts finds them): what a dashboard that belongs to no single queue
 * (`docmill serve --dashboard`) shows. Queues created later appear on the next look.
 */
import { Queue } from './commonjs-packages.js';
import type { RedisClient } from './redis-connection.js';
import { queueNamesIn } from './bullmq-keys.js';
import { QUEUE_PREFIX } from './queue-names.js';

const NAME = /^[A-Za-z0-9._-]{1,100}$/;

export class QueueDiscovery {
  readonly #queues = new Map<string, Queue>();
  #listing: Promise<readonly Queue[]> | undefined;
  #listedAt = 0;
  #closed = false;

  /** `maxAgeMs`: how long one listing is reused, so a dashboard polling every few seconds scans Redis at most that often. */
  constructor(
    private readonly redis: RedisClient,
    private readonly maxAgeMs = 5000,
  ) {}

  queues(): Promise<readonly Queue[]> {
    if (this.#listing && Date.now() - this.#listedAt < this.maxAgeMs) return this.#listing;
    this.#listedAt = Date.now();
    const listing = this.#list();
    this.#listing = listing;
    listing.catch(() => {
      if (this.#listing === listing) this.#listing = undefined;
    });
    return listing;
  }

  async #list(): Promise<readonly Queue[]> {
    const names = new Set((await queueNamesIn(this.redis)).filter((name) => NAME.test(name)));
    if (this.#closed) return [];
    for (const [name, queue] of this.#queues) {
      if (names.has(name)) continue;
      this.#queues.delete(name);
      await queue.close();
    }
    for (const name of names) {
      if (this.#queues.has(name)) continue;
      const queue = new Queue(name, { connection: this.redis, prefix: QUEUE_PREFIX });
      // Connection errors surface where the dashboard asks the queue for something.
      queue.on('error', () => undefined);
      this.#queues.set(name, queue);
    }
    return [...this.#queues.keys()].sort().map((name) => this.#queues.get(name) as Queue);
  }

  /** Closes the queues it opened; the Redis connection is the caller's. */
  async close(): Promise<void> {
    this.#closed = true;
    const queues = [...this.#queues.values()];
    this.#queues.clear();
    await Promise.all(queues.map((queue) => queue.close()));
  }
}
