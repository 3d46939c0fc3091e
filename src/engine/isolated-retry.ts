/**
 * The local engine's one retry. Everything else that fails a document on the local engine is deterministic (the
 * same bytes fail the same way) and is final at once. Two failures are not plainly the document's:
 *
 * - a try that overran its time: other documents parsing beside it share the cores;
 * - a thread that died under it (an uncaught error, an exit): work an earlier document left running in that thread
 *   can throw later, under another.
 *
 * Each is tried once more, alone, on a fresh thread (thread-pool.ts `alone`): then neither load nor a neighbour's
 * leftovers can be the cause, and a second failure is the document's, final: PARSE_TIMEOUT naming the stage that ran
 * out of time, or CONVERSION_FAILED. In-process (LocalParseEngine.parse) the second try follows the first at once.
 * `docmill serve` cannot hold a request for two tries (its caller's deadline is one `timeout` and a margin), so it
 * answers the first failure as the contract says (408, 500: retried by its client) and remembers the document
 * (SuspectDocuments): the client's next request for the same bytes runs alone and gets the final answer.
 */
import { createHash } from 'node:crypto';
import type { ParseOptions } from '../contract/options.js';
import { EngineCrashError, EngineError, EngineTimeoutError } from './engine-error.js';

/** A failure to try once more, alone. */
export function needsIsolatedRetry(error: unknown): error is EngineTimeoutError | EngineCrashError {
  return error instanceof EngineTimeoutError || (error instanceof EngineCrashError && error.threadDied);
}

/** The final failure after the try alone failed too; other errors (a document error the second try found) as they are. */
export function confirmedFailure(error: unknown): unknown {
  if (error instanceof EngineTimeoutError) {
    return new EngineError(
      'PARSE_TIMEOUT',
      `parsing took longer than the request timeout of ${error.timeoutMs} ms${error.stage === undefined ? '' : ` while ${error.stage}`}, ` +
        'twice: the second time alone on a fresh thread',
    );
  }
  if (error instanceof EngineCrashError && error.threadDied) {
    return new EngineError(
      'CONVERSION_FAILED',
      `the parser thread died on this document${error.stage === undefined ? '' : ` while ${error.stage}`}, twice: the second time alone on a fresh thread`,
      { detail: error.message },
    );
  }
  return error;
}

/** Suspects are forgotten after this long: a client's retry comes within seconds (the contract's backoff). */
const SUSPECT_TTL_MS = 15 * 60_000;
/** And beyond this many, the oldest first. */
const MAX_SUSPECTS = 1024;

/**
 * Documents whose last try overran its time or lost its thread, by content and options: the next request for one
 * is run alone. Bounded in number and in time.
 */
export class SuspectDocuments {
  readonly #expiry = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The key of a document: its bytes and its options (the time left, which `serve` passes as `timeout`, aside). */
  static key(bytes: Uint8Array, options: ParseOptions): string {
    const { timeout: _timeout, ...rest } = options;
    return createHash('sha256').update(bytes).update('\n').update(JSON.stringify(rest)).digest('hex');
  }

  has(key: string): boolean {
    const expires = this.#expiry.get(key);
    if (expires === undefined) return false;
    if (expires > this.now()) return true;
    this.#expiry.delete(key);
    return false;
  }

  remember(key: string): void {
    this.#expiry.delete(key);
    this.#expiry.set(key, this.now() + SUSPECT_TTL_MS);
    for (const oldest of this.#expiry.keys()) {
      if (this.#expiry.size <= MAX_SUSPECTS) break;
      this.#expiry.delete(oldest);
    }
  }

  forget(key: string): void {
    this.#expiry.delete(key);
  }
}
