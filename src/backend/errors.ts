/**
 * Errors of the remote parse API client: one class per kind, each with a stable `code`.
 * Errors raised before any request (bad options, file too large, unsupported type) say so in `sentNothing`.
 */
import type { DocmillErrorCode } from '../errors/codes.js';
import { DocmillError } from '../errors/docmill-error.js';
import type { ValidationDetail } from '../contract/validation.js';

export interface ApiErrorFields {
  /** HTTP status of the response. */
  status: number;
  /** The API's own `code` field (e.g. BAD_REQUEST, UNKNOWN_ERROR), when it sent one. */
  apiCode?: string | undefined;
  /** The API's `error` message. */
  apiMessage: string;
  /** The API's `details` (per-field validation errors for 400). */
  details?: unknown;
  /** Whether the contract's rules allow a retry. */
  retryable: boolean;
  /** How long the API asked us to wait (Retry-After header, or a hint in the message), in milliseconds. */
  retryAfterMs?: number | undefined;
  /** Not an answer to this request: an earlier refusal of the key, raised instead of sending (see RemoteParseApi). */
  sentNothing?: boolean | undefined;
  /** What a 429 said of the API's rate window (see RateLimitHint). */
  rateLimit?: RateLimitHint | undefined;
}

/**
 * What a 429 says of the API's request window, from its headers and its text (the hosted API often puts the wait
 * only in the text). Each field is absent when the answer did not say it. The gate learns its pace from these.
 */
export interface RateLimitHint {
  /** How long until a request may go again: Retry-After, else the text's "retry after N s", else the reset. */
  waitMs?: number | undefined;
  /** How long until the window resets: `X-RateLimit-Reset`/`RateLimit-Reset`, or the text's "resets at <date>". */
  resetMs?: number | undefined;
  /** The window's length, when the API names it (`RateLimit-Policy: 20;w=1`). */
  windowMs?: number | undefined;
  /** Requests allowed per window, when a header says it (`X-RateLimit-Limit`, `RateLimit-Limit`). */
  limit?: number | undefined;
}

/** The codes of API error responses: PARSE_HTTP_ERROR, or the kind a subclass names. */
export type ParseApiErrorCode = Extract<DocmillErrorCode, `PARSE_${string}`>;

/** An HTTP error response from /v2/parse. Subclasses name the common kinds; others use PARSE_HTTP_ERROR. */
export class ParseApiError extends DocmillError {
  readonly status: number;
  readonly apiCode: string | undefined;
  readonly apiMessage: string;
  readonly details: unknown;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  /** True when no request was sent: the key had already been refused, and this repeats that refusal. */
  readonly sentNothing: boolean;
  /** Attempts made in all, set when the client gives up. */
  attempts = 1;

  constructor(fields: ApiErrorFields, code: ParseApiErrorCode = 'PARSE_HTTP_ERROR') {
    const apiCode = fields.apiCode ? ` ${fields.apiCode}` : '';
    super(code, `HTTP ${fields.status}${apiCode}: ${fields.apiMessage}`);
    this.status = fields.status;
    this.apiCode = fields.apiCode;
    this.apiMessage = fields.apiMessage;
    this.details = fields.details;
    this.retryable = fields.retryable;
    this.retryAfterMs = fields.retryAfterMs;
    this.sentNothing = fields.sentNothing ?? false;
  }
}

export class BadRequestError extends ParseApiError {
  constructor(fields: ApiErrorFields) {
    super(fields, 'PARSE_BAD_REQUEST');
  }
}
export class UnauthorizedError extends ParseApiError {
  constructor(fields: ApiErrorFields) {
    super(fields, 'PARSE_UNAUTHORIZED');
  }
}
export class CreditsExhaustedError extends ParseApiError {
  constructor(fields: ApiErrorFields) {
    super(fields, 'PARSE_CREDITS_EXHAUSTED');
  }
}
export class ForbiddenError extends ParseApiError {
  constructor(fields: ApiErrorFields) {
    super(fields, 'PARSE_FORBIDDEN');
  }
}
export class NotFoundError extends ParseApiError {
  constructor(fields: ApiErrorFields) {
    super(fields, 'PARSE_NOT_FOUND');
  }
}
export class RequestTimeoutError extends ParseApiError {
  constructor(fields: ApiErrorFields) {
    super(fields, 'PARSE_TIMEOUT');
  }
}
export class PayloadTooLargeError extends ParseApiError {
  constructor(fields: ApiErrorFields) {
    super(fields, 'PARSE_PAYLOAD_TOO_LARGE');
  }
}
export class UnprocessableError extends ParseApiError {
  constructor(fields: ApiErrorFields) {
    super(fields, 'PARSE_UNPROCESSABLE');
  }
}

/** Which of the contract's two 429 kinds this is. */
export type RateLimitKind = 'concurrency' | 'rate';

export class RateLimitedError extends ParseApiError {
  /** `concurrency`: too many requests in flight; `rate`: the per-minute budget is spent. */
  readonly kind: RateLimitKind;
  /** What the answer said of the rate window (empty when it said nothing). */
  readonly rateLimit: RateLimitHint;

  constructor(fields: ApiErrorFields) {
    super(fields, 'PARSE_RATE_LIMITED');
    this.kind = /concurren/i.test(fields.apiMessage) ? 'concurrency' : 'rate';
    this.rateLimit = fields.rateLimit ?? (fields.retryAfterMs === undefined ? {} : { waitMs: fields.retryAfterMs });
  }
}
export class ServerError extends ParseApiError {
  constructor(fields: ApiErrorFields) {
    super(fields, 'PARSE_SERVER_ERROR');
  }
}

const CLASS_BY_STATUS: Record<number, new (fields: ApiErrorFields) => ParseApiError> = {
  400: BadRequestError,
  401: UnauthorizedError,
  402: CreditsExhaustedError,
  403: ForbiddenError,
  404: NotFoundError,
  408: RequestTimeoutError,
  413: PayloadTooLargeError,
  422: UnprocessableError,
  429: RateLimitedError,
};

export function apiErrorFor(fields: ApiErrorFields): ParseApiError {
  const ErrorClass = CLASS_BY_STATUS[fields.status] ?? (fields.status >= 500 ? ServerError : undefined);
  return ErrorClass ? new ErrorClass(fields) : new ParseApiError(fields);
}

/** A refusal of the key itself (401, or 403: the key lacks permission): every later request would be refused too. */
export function isKeyRefusal(error: unknown): error is UnauthorizedError | ForbiddenError {
  return error instanceof UnauthorizedError || error instanceof ForbiddenError;
}

/** The API could not be reached, or the connection broke before a response arrived. Retried like a 503. */
export class ParseNetworkError extends DocmillError {
  readonly retryable = true;
  readonly retryAfterMs = undefined;
  attempts = 1;

  constructor(message: string, cause: unknown) {
    super('PARSE_NETWORK_ERROR', message, { cause });
  }
}

/** No complete response within the request deadline (the options' `timeout` plus a margin). Retried like a 408. */
export class ParseDeadlineError extends DocmillError {
  readonly retryable = true;
  readonly retryAfterMs = undefined;
  attempts = 1;

  constructor(readonly deadlineMs: number) {
    super('PARSE_DEADLINE_EXCEEDED', `No response from the parse API within ${deadlineMs} ms`);
  }
}

/** A 2xx response whose body does not follow the contract. */
export class InvalidResponseError extends DocmillError {
  constructor(message: string, readonly details: ValidationDetail[] = []) {
    super('PARSE_INVALID_RESPONSE', message);
  }
}

/** The caller's AbortSignal fired. */
export class ParseAbortedError extends DocmillError {
  constructor(cause?: unknown) {
    super('PARSE_ABORTED', 'The parse was aborted', { cause });
  }
}

/** Options that break the contract's rules; nothing was sent. */
export class OptionsValidationError extends DocmillError {
  readonly sentNothing = true;

  constructor(readonly details: ValidationDetail[], source = 'options') {
    const lines = details.map((detail) => `  ${detail.path || '(options)'}: ${detail.message}`).join('\n');
    super('PARSE_INVALID_OPTIONS', `Invalid ${source}:\n${lines}`);
  }
}

/** The file is over the contract's per-request limit; nothing was sent. */
export class FileTooLargeError extends DocmillError {
  readonly sentNothing = true;

  constructor(readonly fileName: string, readonly size: number, readonly limit: number) {
    super(
      'FILE_TOO_LARGE',
      `${fileName}: ${formatBytes(size)} is over the parse API's limit of ${formatBytes(limit)} per file`,
    );
  }
}

/** The file's extension is not one the contract accepts; nothing was sent. */
export class UnsupportedFileError extends DocmillError {
  readonly sentNothing = true;

  constructor(readonly fileName: string, readonly extension: string, supported: readonly string[]) {
    const what = extension ? `extension "${extension}" is not supported` : 'the file has no extension';
    super('FILE_UNSUPPORTED', `${fileName}: ${what}; supported: ${supported.join(' ')}`);
  }
}

/** The file could not be read (missing, a directory, no permission). */
export class FileReadError extends DocmillError {
  readonly sentNothing = true;

  constructor(readonly fileName: string, reason: string, cause?: unknown) {
    super('FILE_UNREADABLE', `${fileName}: ${reason}`, { cause });
  }
}

/**
 * What a library caller passed as the file is neither an upload source (`{ fileName, size, open }`) nor a path: a
 * JavaScript caller's promise of `localFileSource(path)` without its `await`, a path that is not a string. Nothing
 * was sent.
 */
export class InvalidSourceError extends DocmillError {
  readonly sentNothing = true;

  constructor(message: string) {
    super('FILE_SOURCE_INVALID', message);
  }
}

/** What a value is, as a message names it: `null`, `undefined`, `an object`, `a number`. */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  const type = typeof value;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function formatBytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB (${bytes} bytes)`;
}

/** Errors the retry loop may retry: they carry `retryable` and an optional server-requested wait. */
export type RetryCandidate = ParseApiError | ParseNetworkError | ParseDeadlineError;

export function isRetryCandidate(error: unknown): error is RetryCandidate {
  return error instanceof ParseApiError || error instanceof ParseNetworkError || error instanceof ParseDeadlineError;
}
