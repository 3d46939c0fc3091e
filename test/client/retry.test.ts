/**
 * The contract's retry rules (spec: "Retry rules") against a real loopback server, with a fake clock so whole
 * backoff schedules run without sleeping.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  CreditsExhaustedError,
  ForbiddenError,
  NotFoundError,
  ParseAbortedError,
  ParseApiError,
  ParseDeadlineError,
  ParseNetworkError,
  PayloadTooLargeError,
  RateLimitedError,
  RequestTimeoutError,
  ServerError,
  UnauthorizedError,
  UnprocessableError,
  type RetryCandidate,
} from '../../src/backend/errors.js';
import { RemoteParseApi, type RemoteParseApiOptions } from '../../src/client/remote-parse-api.js';
import { backoffMs, DEFAULT_RETRY_SETTINGS, retryDelayMs } from '../../src/client/retry-policy.js';
import { systemClock } from '../../src/client/clock.js';
import type { RetryEvent } from '../../src/backend/parse-backend.js';
import { FakeClock } from '../helpers/fake-clock.js';
import {
  errorReply,
  freePort,
  okReply,
  startRecordingServer,
  type Handler,
  type RecordingServer,
  type ReplySpec,
} from '../helpers/recording-server.js';
import { makeTempDir, rejectionOf, removeTempDir, writeRandomFile } from '../helpers/temp-files.js';

let dir: string;
let filePath: string;
let fileSha: string;
let clock: FakeClock;
const servers: RecordingServer[] = [];
const clients: RemoteParseApi[] = [];

async function serve(handler: Handler | readonly ReplySpec[]): Promise<RecordingServer> {
  const server = await startRecordingServer(handler);
  servers.push(server);
  return server;
}

function client(server: RecordingServer | string, options: Partial<RemoteParseApiOptions> = {}): RemoteParseApi {
  const apiUrl = typeof server === 'string' ? server : server.url;
  const api = new RemoteParseApi({ apiUrl, apiKey: 'test-key', clock, ...options });
  clients.push(api);
  return api;
}

/** Asserts `value` is in [low, high). */
function expectInRange(value: number | undefined, low: number, high: number): void {
  expect(value).toBeDefined();
  expect(value).toBeGreaterThanOrEqual(low);
  expect(value).toBeLessThan(high);
}

beforeEach(async () => {
  dir = await makeTempDir();
  const file = await writeRandomFile(dir, 'report.pdf', 64 * 1024);
  filePath = file.path;
  fileSha = file.sha256;
  clock = new FakeClock();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((api) => api.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await removeTempDir(dir);
});

describe('retryable statuses', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries %i and then succeeds', async (status) => {
    const server = await serve([errorReply(status), 200]);
    const result = await client(server).parseFile(filePath, undefined);

    expect(result.attempts).toBe(2);
    expect(result.data.markdown).toBe('# ok');
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toHaveLength(1);
    expectInRange(clock.sleeps[0], 2000, 3000);
    expect(result.durationMs).toBe(clock.totalSleptMs);
    // The body is re-sent whole on the retry.
    for (const request of server.requests) {
      expect(request.parts.find((part) => part.name === 'file')?.sha256).toBe(fileSha);
      expect(Number(request.headers['content-length'])).toBe(request.bodyBytes);
    }
  });

  it('retries several times in a row ([429, 429, 200])', async () => {
    const server = await serve([429, 429, 200]);
    const result = await client(server).parseFile(filePath, undefined);
    expect(result.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
  });
});

describe('non-retryable statuses', () => {
  it.each([
    [400, BadRequestError, 'PARSE_BAD_REQUEST'],
    [401, UnauthorizedError, 'PARSE_UNAUTHORIZED'],
    [402, CreditsExhaustedError, 'PARSE_CREDITS_EXHAUSTED'],
    [403, ForbiddenError, 'PARSE_FORBIDDEN'],
    [404, NotFoundError, 'PARSE_NOT_FOUND'],
    [409, ParseApiError, 'PARSE_HTTP_ERROR'],
    [413, PayloadTooLargeError, 'PARSE_PAYLOAD_TOO_LARGE'],
    [422, UnprocessableError, 'PARSE_UNPROCESSABLE'],
  ] as const)('returns %i at once as %o (%s)', async (status, ErrorClass, code) => {
    const details = [{ path: 'formats.0.type', message: `detail for ${status}` }];
    const server = await serve([
      errorReply(status, { error: `message for ${status}`, code: `API_CODE_${status}`, details }),
      200,
    ]);
    const error = await rejectionOf(client(server).parseFile(filePath, undefined));

    expect(error).toBeInstanceOf(ErrorClass);
    expect((error as object).constructor).toBe(ErrorClass);
    const apiError = error as ParseApiError;
    expect(apiError.code).toBe(code);
    expect(apiError.status).toBe(status);
    expect(apiError.apiCode).toBe(`API_CODE_${status}`);
    expect(apiError.apiMessage).toBe(`message for ${status}`);
    expect(apiError.details).toEqual(details);
    expect(apiError.retryable).toBe(false);
    expect(apiError.attempts).toBe(1);
    expect(apiError.message).toContain(`HTTP ${status}`);
    expect(apiError.message).toContain(`message for ${status}`);
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('decodes the spec’s 402 body, which has only `error`', async () => {
    const server = await serve([{ status: 402, json: { error: 'Payment required to access this resource.' } }]);
    const error = await rejectionOf(client(server).parseFile(filePath, undefined));
    expect(error).toBeInstanceOf(CreditsExhaustedError);
    expect((error as ParseApiError).apiMessage).toBe('Payment required to access this resource.');
    expect((error as ParseApiError).apiCode).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a non-retryable status even when it carries Retry-After', async () => {
    const server = await serve([errorReply(400, { headers: { 'retry-after': '1' } }), 200]);
    const error = await rejectionOf(client(server).parseFile(filePath, undefined));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('wait before retrying', () => {
  it('honours Retry-After in seconds on a 429 ("7" → 7 s plus jitter)', async () => {
    const server = await serve([errorReply(429, { headers: { 'retry-after': '7' } }), 200]);
    const result = await client(server).parseFile(filePath, undefined);
    expect(result.attempts).toBe(2);
    expect(clock.sleeps).toHaveLength(1);
    expectInRange(clock.sleeps[0], 7000, 8000);
  });

  it('honours Retry-After in seconds on a 503 too', async () => {
    const server = await serve([errorReply(503, { headers: { 'retry-after': '7' } }), 200]);
    await client(server).parseFile(filePath, undefined);
    expectInRange(clock.sleeps[0], 7000, 8000);
  });

  it('honours Retry-After as an HTTP date 12 s after now', async () => {
    let first = true;
    const server = await serve(() => {
      if (!first) return 200;
      first = false;
      return errorReply(429, { headers: { 'retry-after': new Date(clock.now() + 12_000).toUTCString() } });
    });
    const result = await client(server).parseFile(filePath, undefined);
    expect(result.attempts).toBe(2);
    expect(clock.sleeps).toHaveLength(1);
    expectInRange(clock.sleeps[0], 12_000, 13_000);
  });

  it('uses a "retry after 32s" hint in a 429 message when there is no header', async () => {
    const server = await serve([
      errorReply(429, { error: 'Rate limit exceeded for this team, please retry after 32s, resets at 2030-01-01T00:01:00.000Z' }),
      200,
    ]);
    const result = await client(server).parseFile(filePath, undefined);
    expect(result.attempts).toBe(2);
    expectInRange(clock.sleeps[0], 32_000, 33_000);
  });

  it('without Retry-After waits min(2^attempt, 30) s plus jitter below 1 s, for 5 attempts at most', async () => {
    const server = await serve([503]);
    const error = await rejectionOf(client(server).parseFile(filePath, undefined));

    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).code).toBe('PARSE_SERVER_ERROR');
    expect((error as ServerError).status).toBe(503);
    expect((error as ServerError).attempts).toBe(5);
    expect(server.requests).toHaveLength(5);
    expect(clock.sleeps).toHaveLength(4);
    expectInRange(clock.sleeps[0], 2000, 3000);
    expectInRange(clock.sleeps[1], 4000, 5000);
    expectInRange(clock.sleeps[2], 8000, 9000);
    expectInRange(clock.sleeps[3], 16_000, 17_000);
  });

  it('adds jitter from the random source: 0 → none, 0.999 → 999 ms', async () => {
    const low = await serve([503]);
    await rejectionOf(client(low, { retry: { random: () => 0 } }).parseFile(filePath, undefined));
    expect(clock.sleeps).toEqual([2000, 4000, 8000, 16_000]);

    clock = new FakeClock();
    const high = await serve([503]);
    await rejectionOf(client(high, { retry: { random: () => 0.999 } }).parseFile(filePath, undefined));
    expect(clock.sleeps).toEqual([2999, 4999, 8999, 16_999]);
  });

  it('never makes more than 5 attempts, even when maxAttempts asks for more', async () => {
    const server = await serve([503]);
    const error = await rejectionOf(client(server, { retry: { maxAttempts: 50 } }).parseFile(filePath, undefined));
    expect((error as ServerError).attempts).toBe(5);
    expect(server.requests).toHaveLength(5);
  });

  it('makes only maxAttempts attempts when it is below 5', async () => {
    const server = await serve([503]);
    const error = await rejectionOf(client(server, { retry: { maxAttempts: 2 } }).parseFile(filePath, undefined));
    expect((error as ServerError).attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('does not wait out a Retry-After longer than retry.maxWaitMs; the error carries retryAfterMs', async () => {
    const server = await serve([errorReply(429, { headers: { 'retry-after': '600' } }), 200]);
    const error = await rejectionOf(client(server).parseFile(filePath, undefined));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(600_000);
    expect((error as RateLimitedError).retryable).toBe(true);
    expect((error as RateLimitedError).attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('respects a custom retry.maxWaitMs', async () => {
    const server = await serve([errorReply(503, { headers: { 'retry-after': '7' } }), 200]);
    const error = await rejectionOf(client(server, { retry: { maxWaitMs: 5000 } }).parseFile(filePath, undefined));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).retryAfterMs).toBe(7000);
    expect(server.requests).toHaveLength(1);
  });
});

describe('retry-policy functions', () => {
  const retryable = new ServerError({ status: 503, apiMessage: 'Service Unavailable', retryable: true });

  it('backoffMs is 2^attempt seconds, capped at 30 s', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([2000, 4000, 8000, 16_000]);
    expect(backoffMs(5)).toBe(30_000);
    expect(backoffMs(10)).toBe(30_000);
    expect(backoffMs(64)).toBe(30_000);
  });

  it('retryDelayMs follows backoffMs plus jitter below 1 s', () => {
    const settings = { ...DEFAULT_RETRY_SETTINGS, maxAttempts: 1000, random: () => 0.9999 };
    expect(retryDelayMs(retryable, 1, settings)).toBe(2999);
    expect(retryDelayMs(retryable, 4, settings)).toBe(16_999);
  });

  it('retryDelayMs stops at the contract’s 5 attempts whatever maxAttempts says', () => {
    const settings = { ...DEFAULT_RETRY_SETTINGS, maxAttempts: 1000, random: () => 0 };
    expect(retryDelayMs(retryable, 5, settings)).toBeUndefined();
    expect(retryDelayMs(retryable, 10, settings)).toBeUndefined();
  });

  it('retryDelayMs uses retryAfterMs as the base and refuses what is over maxWaitMs', () => {
    const settings = { ...DEFAULT_RETRY_SETTINGS, random: () => 0 };
    const withWait = new RateLimitedError({ status: 429, apiMessage: 'x', retryable: true, retryAfterMs: 45_000 });
    expect(retryDelayMs(withWait, 1, settings)).toBe(45_000);
    expect(retryDelayMs(withWait, 1, { ...settings, maxWaitMs: 44_999 })).toBeUndefined();
  });

  it('retryDelayMs never retries a non-retryable error', () => {
    const notRetryable = new BadRequestError({ status: 400, apiMessage: 'Bad Request', retryable: false });
    expect(retryDelayMs(notRetryable, 1, DEFAULT_RETRY_SETTINGS)).toBeUndefined();
  });
});

describe('error decoding on retryable failures', () => {
  it.each([
    ['Concurrency limit reached', 'concurrency'],
    ['Rate limit exceeded', 'rate'],
    ['Request rate limit exceeded. Please wait and try again later.', 'rate'],
  ] as const)('RateLimitedError.kind for %j is %s', async (message, kind) => {
    const server = await serve([errorReply(429, { error: message })]);
    const error = await rejectionOf(client(server, { retry: { maxAttempts: 1 } }).parseFile(filePath, undefined));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).code).toBe('PARSE_RATE_LIMITED');
    expect((error as RateLimitedError).kind).toBe(kind);
    expect((error as RateLimitedError).apiMessage).toBe(message);
    expect(server.requests).toHaveLength(1);
  });

  it('a non-JSON 502 HTML page still gives PARSE_SERVER_ERROR with a readable one-line message', async () => {
    const html =
      '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n' +
      '<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
    const server = await serve([{ status: 502, headers: { 'content-type': 'text/html' }, body: html }]);
    const error = await rejectionOf(client(server).parseFile(filePath, undefined));

    expect(error).toBeInstanceOf(ServerError);
    const serverError = error as ServerError;
    expect(serverError.code).toBe('PARSE_SERVER_ERROR');
    expect(serverError.status).toBe(502);
    expect(serverError.apiCode).toBeUndefined();
    expect(serverError.attempts).toBe(5);
    expect(server.requests).toHaveLength(5);
    expect(serverError.message).toMatch(/^HTTP 502: /);
    expect(serverError.message).toContain('502 Bad Gateway');
    expect(serverError.message).not.toMatch(/[\r\n]/);
    expect(serverError.message.length).toBeLessThan(300);
  });

  it('a failure with an empty body names the status', async () => {
    const server = await serve([{ status: 503, body: '' }]);
    const error = await rejectionOf(client(server, { retry: { maxAttempts: 1 } }).parseFile(filePath, undefined));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).apiMessage).toBe('HTTP 503');
  });

  it('a network failure (nothing listening) gives PARSE_NETWORK_ERROR after 5 attempts', async () => {
    const port = await freePort();
    const error = await rejectionOf(client(`http://127.0.0.1:${port}`).parseFile(filePath, undefined));
    expect(error).toBeInstanceOf(ParseNetworkError);
    expect((error as ParseNetworkError).code).toBe('PARSE_NETWORK_ERROR');
    expect((error as ParseNetworkError).attempts).toBe(5);
    expect((error as ParseNetworkError).message).toContain(`127.0.0.1:${port}`);
    expect(clock.sleeps).toHaveLength(4);
    expectInRange(clock.sleeps[0], 2000, 3000);
  });
});

describe('deadline and abort (real timers)', () => {
  it('a server that never answers gives PARSE_DEADLINE_EXCEEDED at timeout + margin', async () => {
    const server = await serve(() => ({ hang: true }));
    const api = client(server, { clock: systemClock, deadlineMarginMs: 200, retry: { maxAttempts: 1 } });
    const started = Date.now();
    const error = await rejectionOf(api.parseFile(filePath, { timeout: 1000 }));
    const elapsed = Date.now() - started;

    expect(error).toBeInstanceOf(ParseDeadlineError);
    expect((error as ParseDeadlineError).code).toBe('PARSE_DEADLINE_EXCEEDED');
    expect((error as ParseDeadlineError).deadlineMs).toBe(1200);
    expect((error as ParseDeadlineError).attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
    // The deadline is the client's own exact timer (undici's coarse ones only back it up, 5 s later), so the
    // request is never given up before timeout + margin.
    expect(elapsed).toBeGreaterThanOrEqual(1190);
    expect(elapsed).toBeLessThan(5000);
  });

  it('retries after a missed deadline like a 408', async () => {
    const server = await serve([{ hang: true }, 200]);
    const api = client(server, { deadlineMarginMs: 200 });
    const result = await api.parseFile(filePath, { timeout: 1000 });
    expect(result.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
    expectInRange(clock.sleeps[0], 2000, 3000);
  });

  it('an AbortSignal aborted during a wait gives PARSE_ABORTED (fake clock)', async () => {
    const server = await serve([503]);
    const controller = new AbortController();
    clock.onSleep = () => controller.abort();
    const error = await rejectionOf(client(server).parseFile(filePath, undefined, { signal: controller.signal }));
    expect(error).toBeInstanceOf(ParseAbortedError);
    expect((error as ParseAbortedError).code).toBe('PARSE_ABORTED');
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('an AbortSignal aborted during a real 60 s Retry-After wait gives PARSE_ABORTED promptly', async () => {
    const server = await serve([errorReply(429, { headers: { 'retry-after': '60' } }), 200]);
    const controller = new AbortController();
    const api = client(server, { clock: systemClock });
    const started = Date.now();
    const error = await rejectionOf(
      api.parseFile(filePath, undefined, {
        signal: controller.signal,
        onRetry: () => setTimeout(() => controller.abort(), 50),
      }),
    );
    expect(error).toBeInstanceOf(ParseAbortedError);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(server.requests).toHaveLength(1);
  });

  it('an AbortSignal aborted while the request is in flight gives PARSE_ABORTED, not a deadline error', async () => {
    const controller = new AbortController();
    const server = await serve(() => {
      setTimeout(() => controller.abort(), 20);
      return { hang: true };
    });
    const error = await rejectionOf(
      client(server, { clock: systemClock }).parseFile(filePath, undefined, { signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(ParseAbortedError);
    expect(server.requests).toHaveLength(1);
  });

  it('an already-aborted signal sends nothing', async () => {
    const server = await serve([200]);
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(client(server).parseFile(filePath, undefined, { signal: controller.signal }));
    expect(error).toBeInstanceOf(ParseAbortedError);
    expect(server.arrivals).toBe(0);
  });
});

describe('caller hooks', () => {
  it('onRetry is called once per wait with the failed attempt, the delay and the error', async () => {
    const server = await serve([503, errorReply(429, { headers: { 'retry-after': '3' } }), 200]);
    const events: RetryEvent[] = [];
    const result = await client(server).parseFile(filePath, undefined, { onRetry: (event) => events.push(event) });

    expect(result.attempts).toBe(3);
    expect(events.map((event) => event.attempt)).toEqual([1, 2]);
    expect(events.map((event) => event.delayMs)).toEqual(clock.sleeps);
    expectInRange(events[0]?.delayMs, 2000, 3000);
    expectInRange(events[1]?.delayMs, 3000, 4000);
    expect(events[0]?.error).toBeInstanceOf(ServerError);
    expect(events[1]?.error).toBeInstanceOf(RateLimitedError);
  });

  it('shouldRetry returning false stops at once', async () => {
    const server = await serve([429, 200]);
    const calls: [RetryCandidate, number][] = [];
    const events: RetryEvent[] = [];
    const error = await rejectionOf(
      client(server).parseFile(filePath, undefined, {
        shouldRetry: (candidate, attempt) => {
          calls.push([candidate, attempt]);
          return false;
        },
        onRetry: (event) => events.push(event),
      }),
    );
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).attempts).toBe(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[1]).toBe(1);
    expect(calls[0]?.[0]).toBe(error);
    expect(events).toEqual([]);
    expect(clock.sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('shouldRetry can take over some errors and let others retry', async () => {
    const server = await serve([503, 429, 200]);
    const error = await rejectionOf(
      client(server).parseFile(filePath, undefined, {
        shouldRetry: (candidate) => !(candidate instanceof RateLimitedError),
      }),
    );
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('a success after retries reports its attempts and the waited time', async () => {
    const server = await serve([500, 502, okReply({ numPages: 2 })]);
    const result = await client(server).parseFile(filePath, undefined);
    expect(result.attempts).toBe(3);
    expect(result.data.metadata?.numPages).toBe(2);
    expect(result.durationMs).toBe(clock.totalSleptMs);
  });

  it('408 decodes as RequestTimeoutError when it is finally returned', async () => {
    const server = await serve([408]);
    const error = await rejectionOf(client(server, { retry: { maxAttempts: 1 } }).parseFile(filePath, undefined));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect((error as RequestTimeoutError).code).toBe('PARSE_TIMEOUT');
    expect((error as RequestTimeoutError).retryable).toBe(true);
  });
});
