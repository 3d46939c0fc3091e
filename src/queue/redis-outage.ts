/**
 * Knows when docmill has lost its Redis, and says so once: what it waits for and for how long (not once per
 * failed command: callers silence their per-error logs while `down` is true), then every minute while it lasts,
 * and when Redis is back. ioredis reconnects by itself and BullMQ carries on; a `run` gives up after its wait
 * (`lost` is aborted with REDIS_UNAVAILABLE), while a worker waits on.
 */
import type { RedisClient } from './redis-connection.js';
import type { Logger } from 'pino';
import { RedisUnavailableError } from './redis-connection.js';

export interface RedisOutageOptions {
  /** Where Redis is, for messages (no credentials). */
  target: string;
  logger: Logger;
  /** Give up after an outage this long (run). @default wait for as long as it takes */
  giveUpAfterMs?: number | undefined;
  /** How often a long outage is reported again. @default 60000 */
  remindEveryMs?: number | undefined;
  /** A blip shorter than this (a restarted embedded server) is not reported. @default 1000 */
  reportAfterMs?: number | undefined;
}

export const DEFAULT_REDIS_WAIT_MS = 180_000;

export class RedisOutage {
  readonly #lost = new AbortController();
  #downSince: number | undefined;
  #reported = false;
  #reportTimer: NodeJS.Timeout | undefined;
  #remindTimer: NodeJS.Timeout | undefined;
  #giveUpTimer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #detach: () => void;
  readonly #recoveredListeners: Array<() => void> = [];

  constructor(
    connection: RedisClient,
    private readonly options: RedisOutageOptions,
  ) {
    const onDown = (): void => this.#markDown();
    const onUp = (): void => this.#markUp();
    connection.on('close', onDown);
    connection.on('end', onDown);
    connection.on('ready', onUp);
    this.#detach = () => {
      connection.off('close', onDown);
      connection.off('end', onDown);
      connection.off('ready', onUp);
    };
  }

  /** True from the moment the connection drops until it is ready again. */
  get down(): boolean {
    return this.#downSince !== undefined;
  }

  /** Aborted, with a RedisUnavailableError as its reason, when an outage outlasts `giveUpAfterMs`. */
  get lost(): AbortSignal {
    return this.#lost.signal;
  }

  /** Called each time the connection is ready again after an outage. */
  onRecovered(listener: () => void): void {
    this.#recoveredListeners.push(listener);
  }

  /** Stops watching (before docmill closes the connection itself). */
  close(): void {
    this.#closed = true;
    this.#detach();
    this.#clearTimers();
  }

  #markDown(): void {
    if (this.#closed || this.#downSince !== undefined) return;
    this.#downSince = Date.now();
    this.#reportTimer = setTimeout(() => this.#reportDown(), this.options.reportAfterMs ?? 1000);
    this.#reportTimer.unref();
    const giveUpAfterMs = this.options.giveUpAfterMs;
    if (giveUpAfterMs !== undefined) {
      this.#giveUpTimer = setTimeout(() => this.#giveUp(giveUpAfterMs), giveUpAfterMs);
      this.#giveUpTimer.unref();
    }
  }

  #markUp(): void {
    if (this.#closed || this.#downSince === undefined) return;
    const seconds = this.#secondsDown();
    this.#downSince = undefined;
    this.#clearTimers();
    if (this.#reported) this.options.logger.info({ redis: this.options.target, downSeconds: seconds }, `Redis is back after ${seconds} s; carrying on`);
    this.#reported = false;
    for (const listener of this.#recoveredListeners) listener();
  }

  #reportDown(): void {
    if (this.#downSince === undefined) return;
    this.#reported = true;
    const { target, giveUpAfterMs, logger } = this.options;
    const waiting =
      giveUpAfterMs !== undefined
        ? `waiting up to ${Math.round(giveUpAfterMs / 1000)} s for it to return (--redis-wait), then stopping with REDIS_UNAVAILABLE`
        : 'waiting for it to return';
    logger.warn(
      { redis: target },
      `lost the connection to Redis at ${target}; ${waiting}. Queued documents stay queued; documents in progress are recorded once it is back`,
    );
    const every = this.options.remindEveryMs ?? 60_000;
    this.#remindTimer = setInterval(() => {
      logger.warn({ redis: target, downSeconds: this.#secondsDown() }, `still waiting for Redis at ${target} (unreachable for ${this.#secondsDown()} s)`);
    }, every);
    this.#remindTimer.unref();
  }

  #giveUp(giveUpAfterMs: number): void {
    if (this.#downSince === undefined) return;
    this.#lost.abort(
      new RedisUnavailableError(
        `Redis at ${this.options.target} has been unreachable for ${Math.round(giveUpAfterMs / 1000)} s (--redis-wait); stopped waiting for it. ` +
          'Documents still queued stay in Redis: run the same command again once it is back to resume',
      ),
    );
  }

  #secondsDown(): number {
    return this.#downSince === undefined ? 0 : Math.round((Date.now() - this.#downSince) / 100) / 10;
  }

  #clearTimers(): void {
    clearTimeout(this.#reportTimer);
    clearInterval(this.#remindTimer);
    clearTimeout(this.#giveUpTimer);
  }
}

/** The promise's result, or undefined once `signal` aborts first (the promise is left to settle unobserved). */
export async function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return undefined;
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<undefined>((resolveAbort) => {
    onAbort = () => resolveAbort(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    promise.catch(() => undefined);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** Waits for `promise` at most `ms`; true when it settled in time (its failure counts as settled). */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolveTimeout) => {
    timer = setTimeout(() => resolveTimeout(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ENOENT']);

/**
 * An error that only says the connection to Redis is gone (refused, reset, closed): an outage, which the outage
 * watch reports once, rather than a failure of its own.
 */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && CONNECTION_ERROR_CODES.has(code)) return true;
  return /Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET/.test(error.message);
}
