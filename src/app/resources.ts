/**
 * What an entry point opened, closed in one order for every entry point. Opening is a sequence of steps that can
 * each fail (Redis down, a bad S3 endpoint, a port in use): whatever was opened before the failure is closed before
 * the error goes on, so a failed start leaves no server, connection or thread behind.
 */
import type { Logger } from 'pino';

/**
 * The shutdown order, defined here once: what uses a resource closes before it. The parse worker stops fetching and
 * finishes (or hands back) its documents while the queue, the sources, the store and the backend still answer; the
 * servers stop taking requests before what answers them closes; the queue's connection (and an embedded
 * redis-server) goes after everything that talks to it; the backend (the engine's threads) goes last.
 */
export const SHUTDOWN_ORDER = [
  'parse worker',
  'parse server',
  'credit-usage poller',
  'metrics server',
  'queue dashboard',
  'queue',
  'sources',
  'store',
  'S3 client',
  'parse backend',
] as const;

export type ResourceKind = (typeof SHUTDOWN_ORDER)[number];

/**
 * A close step still running after this long is logged, naming the resource, and waited for still: some take long by
 * right (the parse worker finishing a long PDF), but one that never ends keeps a finished command from exiting, and
 * the warning says which.
 */
const SLOW_CLOSE_MS = 30_000;

export class Resources {
  readonly #open: { kind: ResourceKind; close: () => Promise<void> | void }[] = [];
  #closed = false;

  constructor(
    private readonly logger?: Logger,
    private readonly slowCloseMs = SLOW_CLOSE_MS,
  ) {}

  /** Registers `value` to be closed with `close`, and returns it. */
  add<T>(kind: ResourceKind, value: T, close: (value: T) => Promise<void> | void): T {
    this.#open.push({ kind, close: () => close(value) });
    return value;
  }

  /**
   * Closes everything in SHUTDOWN_ORDER (two of a kind: the newest first); one failure does not keep the others
   * open. Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const rank = (kind: ResourceKind) => SHUTDOWN_ORDER.indexOf(kind);
    // Array.prototype.sort is stable: newest first within a kind.
    const order = [...this.#open].reverse().sort((a, b) => rank(a.kind) - rank(b.kind));
    for (const { kind, close } of order) {
      const started = Date.now();
      const slow = setInterval(() => this.logger?.warn({ resource: kind, waitedMs: Date.now() - started }, 'still closing'), this.slowCloseMs);
      slow.unref();
      try {
        await close();
      } catch (error) {
        this.logger?.warn({ err: error, resource: kind }, 'closing failed');
      } finally {
        clearInterval(slow);
      }
    }
  }
}
