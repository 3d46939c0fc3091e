/**
 * RemoteParseApi: POST /v2/parse over HTTP with undici, the file streamed from its source, and the contract's
 * retry rules applied in one loop (no undici RetryHandler stacked on top).
 *
 * Once the API refuses the key (401, or 403), no request leaves with it again: every later attempt, of any file,
 * fails at once with the same error, marked `sentNothing`. The check sits where every request passes just before it
 * is sent, after whatever the caller awaited first (an API gate's slot): a caller that started before the refusal
 * and was waiting for a slot when it came sends nothing either (measured before: a run at `--concurrency 8` sent 10
 * requests with a wrong key, one per open job, each let through as the previous 401 freed its slot).
 */
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { Logger } from 'pino';
import type { ParseOptions, ParseOptionsInput } from '../contract/options.js';
import { errorBodySchema, parseResponseSchema, type ParseData } from '../contract/response.js';
import { isRetryableStatus } from '../contract/errors.js';
import { detailsFromZodError } from '../contract/validation.js';
import { checkFile, checkOptions } from '../backend/upload-checks.js';
import { systemClock, type Clock } from './clock.js';
import { parseEndpoint } from './endpoint.js';
import {
  apiErrorFor,
  FileReadError,
  InvalidResponseError,
  isKeyRefusal,
  isRetryCandidate,
  ParseAbortedError,
  ParseDeadlineError,
  ParseNetworkError,
  type ParseApiError,
  type RetryCandidate,
} from '../backend/errors.js';
import { buildMultipartBody, type MultipartBody } from './multipart.js';
import type { ParseBackend, ParseCall, ParseResult } from '../backend/parse-backend.js';
import { DEFAULT_RETRY_SETTINGS, parseRetryAfter, rateLimitHint, retryDelayMs, retryHintFromMessage, type RetrySettings } from './retry-policy.js';
import { localFileSource, type UploadSource } from '../backend/upload-source.js';

export interface RemoteParseApiOptions {
  /** Base URL of the API (`https://api.example.com`), or the full /v2/parse URL. */
  apiUrl: string;
  /** Bearer key. Optional: a local `docmill serve` without keys needs none. */
  apiKey?: string | undefined;
  /** An undici dispatcher to send through; by default the client owns a keep-alive Agent. */
  dispatcher?: Dispatcher;
  /** @default systemClock */
  clock?: Clock;
  retry?: Partial<RetrySettings>;
  /** Time allowed beyond the options' `timeout` for upload, queueing and the response. @default 30000 */
  deadlineMarginMs?: number;
  logger?: Logger;
}

const USER_AGENT = 'docmill/0.1 (+undici)';

/** Time a request has beyond the options' `timeout` for upload, queueing and the response. */
export const DEFAULT_DEADLINE_MARGIN_MS = 30_000;

export class RemoteParseApi implements ParseBackend {
  readonly endpoint: URL;
  readonly #apiKey: string | undefined;
  /** The caller's, or the client's own keep-alive Agent, made with its first request (undici loads then). */
  #dispatcher: Dispatcher | undefined;
  readonly #ownsDispatcher: boolean;
  readonly #clock: Clock;
  readonly #retry: RetrySettings;
  readonly #deadlineMarginMs: number;
  readonly #logger: Logger | undefined;
  #toldOcrLanguages = false;
  /** The API's first refusal of the key: nothing is sent after it (see the header). */
  #keyRefusal: ParseApiError | undefined;

  constructor(options: RemoteParseApiOptions) {
    this.endpoint = parseEndpoint(options.apiUrl);
    this.#apiKey = options.apiKey || undefined;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher;
    this.#clock = options.clock ?? systemClock;
    this.#retry = { ...DEFAULT_RETRY_SETTINGS, ...options.retry };
    this.#deadlineMarginMs = options.deadlineMarginMs ?? DEFAULT_DEADLINE_MARGIN_MS;
    this.#logger = options.logger;
  }

  /**
   * Parses one file. Refuses bad options, unsupported extensions and files over 50 MB before sending anything;
   * retries as the contract says; throws a typed error (see ./errors.ts) when it gives up.
   */
  async parse(source: UploadSource, optionsInput: ParseOptionsInput | undefined, call: ParseCall = {}): Promise<ParseResult> {
    const options = checkOptions(optionsInput);
    const contentType = checkFile(source);
    if (call.ocrLanguages && !this.#toldOcrLanguages) {
      // The contract has no such field: the API reads scans in languages of its own choosing. Said once, not per file.
      this.#toldOcrLanguages = true;
      this.#logger?.warn(
        { ocrLanguages: call.ocrLanguages.join('+') },
        'ocrLanguages applies only to the local engine: the parse API has no such option, so it is not sent',
      );
    }
    const startedAt = this.#clock.now();
    for (let attempt = 1; ; attempt++) {
      if (call.signal?.aborted) throw new ParseAbortedError(call.signal.reason);
      try {
        await call.beforeAttempt?.(call.signal);
        let data: ParseData;
        try {
          data = await this.#attempt(source, contentType, options, call.signal);
        } catch (error) {
          call.afterAttempt?.({ ok: false, error });
          throw error;
        }
        call.afterAttempt?.({ ok: true, data });
        return { data, attempts: attempt, durationMs: this.#clock.now() - startedAt };
      } catch (error) {
        if (!isRetryCandidate(error)) throw error;
        error.attempts = attempt;
        const delayMs = retryDelayMs(error, attempt, this.#retry);
        if (delayMs === undefined || (call.shouldRetry && !call.shouldRetry(error, attempt))) throw error;
        this.#logger?.warn(
          { file: source.fileName, attempt, delayMs, code: error.code, status: statusOf(error) },
          'parse attempt failed; retrying',
        );
        call.onRetry?.({ attempt, delayMs, error });
        try {
          await this.#clock.sleep(delayMs, call.signal);
        } catch (sleepError) {
          throw new ParseAbortedError(sleepError);
        }
      }
    }
  }

  /** Convenience for a local path. */
  async parseFile(path: string, optionsInput: ParseOptionsInput | undefined, call?: ParseCall): Promise<ParseResult> {
    return this.parse(await localFileSource(path), optionsInput, call);
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher?.close();
  }

  async #attempt(source: UploadSource, contentType: string, options: ParseOptions, callerSignal?: AbortSignal): Promise<ParseData> {
    if (this.#keyRefusal) throw refusedAgain(this.#keyRefusal);
    const body = buildMultipartBody(source, contentType, options);
    const deadlineMs = options.timeout + this.#deadlineMarginMs;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), deadlineMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, deadline.signal]) : deadline.signal;
    try {
      // Loaded with the first request, not with the module: a command that parses locally never needs undici.
      const { Agent, request } = await import('undici');
      this.#dispatcher ??= new Agent({ keepAliveTimeout: 10_000, connect: { timeout: 15_000 } });
      const response = await request(this.endpoint, {
        method: 'POST',
        dispatcher: this.#dispatcher,
        headers: this.#headers(body),
        body: Readable.from(body.stream(), { objectMode: false }),
        signal,
        // undici's own timers are coarse (about 1 s); ours is exact, so theirs only back it up.
        headersTimeout: deadlineMs + 5_000,
        bodyTimeout: deadlineMs + 5_000,
      });
      const text = await response.body.text();
      this.#logger?.debug({ file: source.fileName, status: response.statusCode }, 'parse response');
      if (response.statusCode >= 200 && response.statusCode < 300) return decodeSuccess(text);
      const failure = decodeFailure(response.statusCode, response.headers, text, this.#clock.now());
      // Before the caller hears of it (and frees the slot another request waits for).
      if (isKeyRefusal(failure)) this.#keyRefusal ??= failure;
      throw failure;
    } catch (error) {
      if (callerSignal?.aborted) throw new ParseAbortedError(callerSignal.reason);
      if (deadline.signal.aborted || isUndiciTimeout(error)) throw new ParseDeadlineError(deadlineMs);
      if (isRetryCandidate(error) || error instanceof InvalidResponseError || error instanceof FileReadError) throw error;
      throw new ParseNetworkError(`Cannot reach the parse API at ${this.endpoint.origin}: ${describe(error)}`, error);
    } finally {
      clearTimeout(timer);
    }
  }

  #headers(body: MultipartBody): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': body.contentType,
      'content-length': String(body.contentLength),
      accept: 'application/json',
      'user-agent': USER_AGENT,
    };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    return headers;
  }
}

function decodeSuccess(text: string): ParseData {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidResponseError(`The parse API answered 2xx with a body that is not JSON: ${snippet(text)}`);
  }
  const result = parseResponseSchema.safeParse(json);
  if (!result.success) {
    const details = detailsFromZodError(result.error);
    const first = details[0];
    throw new InvalidResponseError(
      `The parse API's response does not follow the contract${first ? ` (${first.path}: ${first.message})` : ''}`,
      details,
    );
  }
  return result.data.data;
}

type ResponseHeaders = Record<string, string | string[] | undefined>;

function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The typed error for a non-2xx response, with the API's code, message, details and requested wait. */
export function decodeFailure(status: number, headers: ResponseHeaders, text: string, nowMs: number) {
  let apiMessage = text.trim() ? snippet(text) : `HTTP ${status}`;
  let apiCode: string | undefined;
  let details: unknown;
  try {
    const body = errorBodySchema.safeParse(JSON.parse(text));
    if (body.success) {
      apiMessage = body.data.error;
      apiCode = body.data.code;
      details = body.data.details;
    }
  } catch {
    // Not JSON (a proxy's HTML error page, say): the status and a snippet of the text are all we have.
  }
  let retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'), nowMs);
  if (retryAfterMs === undefined && status === 429) retryAfterMs = retryHintFromMessage(apiMessage);
  const rateLimit = status === 429 ? rateLimitHint((name) => headerValue(headers, name), apiMessage, nowMs) : undefined;
  return apiErrorFor({ status, apiCode, apiMessage, details, retryable: isRetryableStatus(status), retryAfterMs, rateLimit });
}

/** The key's refusal, raised again for a request that is not sent. */
function refusedAgain(refusal: ParseApiError): ParseApiError {
  const { status, apiCode, apiMessage, details } = refusal;
  return apiErrorFor({ status, apiCode, apiMessage, details, retryable: false, sentNothing: true });
}

/** undici's HeadersTimeoutError and BodyTimeoutError, by their stable codes. */
function isUndiciTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

function statusOf(error: RetryCandidate): number | undefined {
  return 'status' in error ? error.status : undefined;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${code ? ` [${code}]` : ''}${cause}`;
  }
  return String(error);
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
