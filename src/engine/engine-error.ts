/**
 * The local engine's failures, and the one place that says what each answers over the /v2/parse contract.
 *
 * - EngineError: the document cannot be converted, its code says why. What the file is (corrupt, encrypted, empty,
 *   unsupported, too complex...) answers 400; what the engine could not do with it answers 422 Unprocessable
 *   Entity: CONVERSION_FAILED (a converter threw on these bytes, or its thread died on them twice, the second time
 *   alone) and PARSE_TIMEOUT (it overran its time twice, the second time alone on a fresh thread). Both are final:
 *   the same bytes fail the same way, and the contract's reference client retries neither 400 nor 422.
 * - EngineTimeoutError: one try overran the request's `timeout` (its thread was stopped): 408, which the contract
 *   retries. The engine retries it itself, once, alone (local-engine.ts); it is what `docmill serve` answers to a
 *   first timeout.
 * - EngineCrashError: the engine failed: a thread died under a document (retried like a timeout), or the engine
 *   was shut down; 500 UNKNOWN_ERROR, retried.
 * - EngineStartError: its parser threads cannot start at all (a broken installation); no document is at fault and
 *   none can be parsed until it is repaired. The engine's own process gets it as it is (a run stops on it, leaving
 *   its documents waiting); `docmill serve` answers it as a crash, its cause kept to its log.
 *
 * `engineFailureAnswer` turns any of them into the status, `code`, message and retryable that both sides of the
 * contract give: `docmill serve` writes it as the error body, the local engine throws it as a ParseApiError. A new
 * kind of engine failure gets its answer here, and both sides follow. Why 422 and not 500 for a converter's
 * failure: docs/limits-and-retries.md, "The local engine".
 */
import { ERROR_MESSAGES, isRetryableStatus } from '../contract/errors.js';
import type { DocumentErrorCode } from '../errors/codes.js';
import { RunBlockedError } from '../errors/run-blocked.js';
import { DocmillError } from '../errors/docmill-error.js';

export type EngineErrorCode = DocumentErrorCode;

const STATUS: Record<EngineErrorCode, number> = {
  UNSUPPORTED_FILE: 400,
  ENCRYPTED_DOCUMENT: 400,
  CORRUPT_DOCUMENT: 400,
  EMPTY_DOCUMENT: 400,
  OCR_REQUIRED: 400,
  // Like FORMAT_NOT_AVAILABLE, a want of this installation rather than a fault of the file, and retrying cannot help.
  OCR_LANGUAGE_MISSING: 400,
  DOCUMENT_TOO_COMPLEX: 400,
  FORMAT_NOT_AVAILABLE: 400,
  CONVERSION_FAILED: 422,
  PARSE_TIMEOUT: 422,
};
const TIMEOUT_STATUS = 408;
const CRASH_STATUS = 500;
const CRASH_CODE = 'UNKNOWN_ERROR';

/** A document the engine cannot convert; the message names the cause (the answer adds the file name). */
export class EngineError extends DocmillError {
  readonly status: number;
  /**
   * What only the engine's own process is told (a converter's exception): `docmill serve` keeps it to its log and
   * answers the message alone, as it does for a crash.
   */
  readonly detail: string | undefined;

  constructor(
    readonly apiCode: EngineErrorCode,
    message: string,
    options?: { cause?: unknown; detail?: string | undefined },
  ) {
    super(`ENGINE_${apiCode}`, message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = STATUS[apiCode];
    this.detail = options?.detail;
  }
}

/** One try overran the request's `timeout`: its thread was stopped. `stage`: what it was doing (stage.ts). */
export class EngineTimeoutError extends DocmillError {
  constructor(
    readonly timeoutMs: number,
    readonly stage?: string | undefined,
  ) {
    super('ENGINE_TIMEOUT', `parsing took longer than the request timeout of ${timeoutMs} ms${stage === undefined ? '' : ` while ${stage}`}`);
  }
}

/**
 * The engine itself failed: a parser thread died under a document (`threadDied`, with the `stage` it was in), or the
 * engine was shut down.
 */
export class EngineCrashError extends DocmillError {
  readonly threadDied: boolean;
  readonly stage: string | undefined;

  constructor(message: string, options: { threadDied?: boolean; stage?: string | undefined } = {}) {
    super('ENGINE_CRASH', message);
    this.threadDied = options.threadDied ?? false;
    this.stage = options.stage;
  }
}

/**
 * The engine's parser threads cannot start: as many as `BROKEN_AFTER_START_FAILURES` (thread-pool.ts) failed to,
 * and none ever did. `cause`: the last start's error.
 */
export class EngineStartError extends RunBlockedError {
  constructor(cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('ENGINE_START_FAILED', `the local engine could not start its parser threads: ${reason}`, 'repair the installation (npm ci, or install docmill again)', { cause });
  }
}

/** What an engine failure answers over the contract, on either side of it. */
export interface EngineFailureAnswer {
  status: number;
  /** The error body's `code`, when the contract gives one. */
  apiCode: string | undefined;
  /** The error body's `error`: what a caller of `docmill serve` reads. */
  message: string;
  /**
   * What a caller of the engine in its own process reads. The same, except for a crash and a converter's failure:
   * their cause is internal (an exception's message), so the server answers without it and keeps it to its own
   * log, while the process that runs the engine names it.
   */
  localMessage: string;
  /** The contract's rule for the status (retry rule 1): what a client of the server decides from the status. */
  retryable: boolean;
}

/** The answer to an engine failure while parsing `fileName`; undefined for an error that is not the engine's. */
export function engineFailureAnswer(error: unknown, fileName: string): EngineFailureAnswer | undefined {
  if (error instanceof EngineError) {
    const message = `${fileName}: ${error.message}`;
    return answer(STATUS[error.apiCode], error.apiCode, message, error.detail === undefined ? message : `${message} (${error.detail})`);
  }
  if (error instanceof EngineTimeoutError) {
    const message = `${ERROR_MESSAGES.requestTimeout}: ${fileName}: ${error.message}`;
    return answer(TIMEOUT_STATUS, undefined, message, message);
  }
  if (error instanceof EngineCrashError || error instanceof EngineStartError) return answer(CRASH_STATUS, CRASH_CODE, ERROR_MESSAGES.unknown, `${fileName}: ${error.message}`);
  return undefined;
}

function answer(status: number, apiCode: string | undefined, message: string, localMessage: string): EngineFailureAnswer {
  return { status, apiCode, message, localMessage, retryable: isRetryableStatus(status) };
}
