/**
 * The /v2/parse contract as `docmill serve` implements it, exercised over real HTTP with docmill's own client
 * and with hand-made requests for what a well-behaved client never sends.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { RemoteParseApi } from '../../src/client/remote-parse-api.js';
import { BadRequestError, PayloadTooLargeError, RateLimitedError, UnauthorizedError } from '../../src/backend/errors.js';
import type { UploadSource } from '../../src/backend/upload-source.js';
import { MAX_FILE_BYTES } from '../../src/contract/limits.js';
import type { ParseOptionsInput } from '../../src/contract/options.js';
import { LocalParseEngine } from '../../src/engine/local-engine.js';
import { startParseServer, type ParseFunction, type RunningServer } from '../../src/server/parse-server.js';

const logger = pino({ level: 'silent' });
const KEY = 'serve-test-key-1';

function memorySource(fileName: string, content: string | Buffer): UploadSource {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
  return { fileName, size: bytes.byteLength, open: async function* () { yield bytes; } };
}

/** A source of `size` zero bytes produced on the fly, never held in memory. */
function zeroSource(fileName: string, size: number): UploadSource {
  return {
    fileName,
    size,
    open: async function* () {
      const chunk = Buffer.alloc(1024 * 1024);
      for (let sent = 0; sent < size; sent += chunk.byteLength) yield chunk.subarray(0, Math.min(chunk.byteLength, size - sent));
    },
  };
}

let engine: LocalParseEngine;
let server: RunningServer;

beforeAll(async () => {
  engine = new LocalParseEngine({ size: 2 });
  server = await startParseServer({
    host: '127.0.0.1',
    port: 0,
    apiKeys: [KEY, 'second-key'],
    maxConcurrency: 2,
    logger,
    // As `docmill serve` wires it.
    parse: (bytes, fileName, options) => engine.parseBytes(bytes, fileName, options),
  });
});

afterAll(async () => {
  await server.close();
  await engine.close();
});

function client(apiKey: string | null = KEY) {
  return new RemoteParseApi({ apiUrl: server.url, apiKey: apiKey ?? undefined, logger, retry: { maxAttempts: 1 } });
}

describe('docmill serve: POST /v2/parse', () => {
  it('parses a CSV into a GFM table with the contract metadata', async () => {
    const api = client();
    const result = await api.parse(memorySource('people.csv', 'name,age\nAda,36\nAlan,41\n'), {});
    await api.close();
    expect(result.data.markdown).toContain('| name | age |');
    expect(result.data.markdown).toContain('| Ada | 36 |');
    expect(result.data.metadata?.contentType).toBe('text/csv');
  });

  it('accepts every configured key and refuses a missing or wrong one with 401 Unauthorized: Invalid token', async () => {
    for (const key of [KEY, 'second-key']) {
      const api = client(key);
      await expect(api.parse(memorySource('a.csv', 'a\n1\n'), {})).resolves.toBeTruthy();
      await api.close();
    }
    for (const key of [null, 'wrong-key']) {
      const api = client(key);
      const error = await api.parse(memorySource('a.csv', 'a\n1\n'), {}).catch((caught: unknown) => caught);
      await api.close();
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as UnauthorizedError).apiMessage).toBe('Unauthorized: Invalid token');
    }
  });

  it('refuses invalid options with 400 BAD_REQUEST and details naming each field', async () => {
    const boundary = 'x-boundary';
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="options"\r\nContent-Type: application/json\r\n\r\n` +
      `${JSON.stringify({ timeout: 0, parsers: [{ type: 'pdf', maxPages: 0 }], proxy: 'stealth' })}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\na\n1\n\r\n--${boundary}--\r\n`;
    const response = await request(`${server.url}/v2/parse`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const json = (await response.body.json()) as { success: boolean; code: string; error: string; details: { path: string }[] };
    expect(response.statusCode).toBe(400);
    expect(json).toMatchObject({ success: false, code: 'BAD_REQUEST' });
    expect(json.details.map((detail) => detail.path).sort()).toEqual(['parsers.0.maxPages', 'proxy', 'timeout']);
  });

  it("takes the hosted SDK's format names as the objects they stand for, and refuses a bare json naming what it needs", async () => {
    const send = async (options: unknown) => {
      const boundary = 'x-boundary';
      const body =
        `--${boundary}\r\nContent-Disposition: form-data; name="options"\r\n\r\n${JSON.stringify(options)}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.html"\r\nContent-Type: text/html\r\n\r\n` +
        `<html><body><h1>Title</h1><p>See <a href="https://example.com/x">x</a>.</p></body></html>\r\n--${boundary}--\r\n`;
      const response = await request(`${server.url}/v2/parse`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      return { status: response.statusCode, json: (await response.body.json()) as { data?: Record<string, unknown>; code?: string; details?: { path: string; message: string }[] } };
    };
    const byName = await send({ formats: ['markdown', 'html', 'links'], origin: 'js-sdk@4.42.0' });
    const byObject = await send({ formats: [{ type: 'markdown' }, { type: 'html' }, { type: 'links' }] });
    expect(byName.status).toBe(200);
    expect(byName.json.data).toMatchObject({ markdown: expect.stringContaining('# Title'), html: expect.stringContaining('Title'), links: ['https://example.com/x'] });
    expect(byName.json.data?.html).toEqual(byObject.json.data?.html);
    expect(byName.json.data?.markdown).toEqual(byObject.json.data?.markdown);
    const bareJson = await send({ formats: ['json'] });
    expect(bareJson.status).toBe(400);
    expect(bareJson.json.code).toBe('BAD_REQUEST');
    expect(bareJson.json.details?.[0]?.message).toMatch(/needs a "schema" or a "prompt"/);
  });

  it('answers 400 Invalid multipart form-data request. to a body that is not multipart', async () => {
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'multipart/form-data; boundary=zz' }]) {
      const response = await request(`${server.url}/v2/parse`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, ...headers },
        body: '{"not":"multipart"}',
      });
      expect(response.statusCode).toBe(400);
      expect(await response.body.json()).toEqual({ success: false, code: 'BAD_REQUEST', error: 'Invalid multipart form-data request.' });
    }
  });

  it('refuses an unsupported extension with 400 naming the supported ones', async () => {
    const boundary = 'b1';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const response = await request(`${server.url}/v2/parse`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const json = (await response.body.json()) as { code: string; error: string };
    expect(response.statusCode).toBe(400);
    expect(json.code).toBe('BAD_REQUEST');
    expect(json.error).toContain('.txt');
    expect(json.error).toContain('.pdf');
  });

  it('enforces 50 MiB while reading: 413 without buffering the rest, and the server stays healthy', async () => {
    const api = client();
    // The client refuses oversize files itself, so lie about the size to make it send one.
    const oversized = zeroSource('big.csv', MAX_FILE_BYTES + 5 * 1024 * 1024);
    const error = await api
      .parse({ ...oversized, size: MAX_FILE_BYTES }, {})
      .catch((caught: unknown) => caught);
    await api.close();
    // Either the 413 arrives, or the server cut the upload off before the client finished sending.
    if (error instanceof PayloadTooLargeError) expect(error.apiMessage).toContain('Payload Too Large');
    else expect((error as { code?: string }).code).toMatch(/PARSE_NETWORK_ERROR|FILE_UNREADABLE/);
    const health = await request(`${server.url}/healthz`);
    expect(health.statusCode).toBe(200);
    await health.body.dump();
    const after = client();
    await expect(after.parse(memorySource('ok.csv', 'a\n1\n'), {})).resolves.toBeTruthy();
    await after.close();
  });

  it('names the file and the cause when the document itself is bad (400, non-retryable)', async () => {
    const api = client();
    const error = await api.parse(memorySource('empty.pdf', ''), {}).catch((caught: unknown) => caught);
    await api.close();
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).apiMessage).toMatch(/^empty\.pdf: /);
    expect((error as BadRequestError).retryable).toBe(false);
  });

  it('redacts personal data when the request asks for redactPII, in the style asked for', async () => {
    const api = client();
    const options: ParseOptionsInput = { redactPII: { mode: 'fast', entities: ['EMAIL'], replaceStyle: 'mask' } };
    const result = await api.parse(memorySource('a.csv', 'email\nann@example.com\n'), options);
    await api.close();
    expect(result.data.markdown).toContain('| *************** |');
    expect(result.data.markdown).not.toContain('ann@example.com');
  });

  it('honours the options timeout: a parse that overruns it is stopped and answered 408', async () => {
    const api = client();
    const row = 'alpha,beta,gamma,delta,epsilon,zeta,eta,theta\n';
    const error = await api
      .parse(memorySource('huge.csv', `h1,h2,h3,h4,h5,h6,h7,h8\n${row.repeat(300_000)}`), { timeout: 50 })
      .catch((caught: unknown) => caught);
    await api.close();
    expect((error as { status?: number }).status).toBe(408);
    expect((error as { apiMessage?: string }).apiMessage).toMatch(/^Request Timeout/);
    const after = client();
    await expect(after.parse(memorySource('small.csv', 'a\n1\n'), {})).resolves.toBeTruthy();
    await after.close();
  });

  it('404 for other paths, 405 for other methods, healthz answers', async () => {
    const missing = await request(`${server.url}/v1/parse`, { method: 'POST', body: 'x' });
    expect(missing.statusCode).toBe(404);
    expect(await missing.body.json()).toEqual({ success: false, error: 'Not Found' });
    const wrongMethod = await request(`${server.url}/v2/parse`);
    expect(wrongMethod.statusCode).toBe(405);
    await wrongMethod.body.dump();
  });
});

describe('docmill serve: unexpected failures', () => {
  it('answer 500 UNKNOWN_ERROR with the contract message and no stack trace or internal detail', async () => {
    const failing: ParseFunction = () => Promise.reject(new Error('secret internal detail at /srv/app/engine.js:12'));
    const broken = await startParseServer({ host: '127.0.0.1', port: 0, apiKeys: [], maxConcurrency: 1, logger, parse: failing });
    try {
      const boundary = 'b2';
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\na\n1\n\r\n--${boundary}--\r\n`;
      const response = await request(`${broken.url}/v2/parse`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      const text = await response.body.text();
      expect(response.statusCode).toBe(500);
      expect(JSON.parse(text)).toEqual({ success: false, code: 'UNKNOWN_ERROR', error: 'An unexpected error occurred on the server.' });
      expect(text).not.toContain('secret internal detail');
    } finally {
      await broken.close();
    }
  });
});

describe('docmill serve: concurrency', () => {
  it('queues beyond max-concurrency with concurrencyLimited metadata, and answers 429 beyond the queue', async () => {
    const gates: (() => void)[] = [];
    const slowParse: ParseFunction = () =>
      new Promise((resolve) => gates.push(() => resolve({ markdown: 'done', metadata: {} })));
    const limited = await startParseServer({ host: '127.0.0.1', port: 0, apiKeys: [], maxConcurrency: 1, maxQueued: 1, logger, parse: slowParse });
    const api = new RemoteParseApi({ apiUrl: limited.url, logger, retry: { maxAttempts: 1 } });
    try {
      const first = api.parse(memorySource('a.csv', 'a\n1\n'), {});
      await waitFor(() => gates.length === 1);
      const second = api.parse(memorySource('b.csv', 'a\n1\n'), {});
      await waitFor(() => limited.admission.queued === 1);
      const third = await api.parse(memorySource('c.csv', 'a\n1\n'), {}).catch((caught: unknown) => caught);
      expect(third).toBeInstanceOf(RateLimitedError);
      expect((third as RateLimitedError).kind).toBe('concurrency');
      expect((third as RateLimitedError).retryAfterMs).toBe(1000);
      await new Promise((resolve) => setTimeout(resolve, 50));
      gates.shift()?.();
      const firstResult = await first;
      expect(firstResult.data.metadata?.concurrencyLimited).toBeUndefined();
      await waitFor(() => gates.length === 1);
      gates.shift()?.();
      const secondResult = await second;
      expect(secondResult.data.metadata?.concurrencyLimited).toBe(true);
      expect(secondResult.data.metadata?.concurrencyQueueDurationMs).toBeGreaterThanOrEqual(40);
    } finally {
      await api.close();
      await limited.close();
    }
  });
});

describe('docmill serve: closing', () => {
  /** A server whose parses wait until released, with one parse in flight. */
  async function serverWithParseInFlight(drainMs: number | undefined) {
    const gates: (() => void)[] = [];
    const heldParse: ParseFunction = () => new Promise((resolve) => gates.push(() => resolve({ markdown: 'done', metadata: {} })));
    const held = await startParseServer({ host: '127.0.0.1', port: 0, apiKeys: [], maxConcurrency: 1, logger, parse: heldParse, drainMs });
    const api = new RemoteParseApi({ apiUrl: held.url, logger, retry: { maxAttempts: 1 } });
    const inFlight = api.parse(memorySource('a.csv', 'a\n1\n'), {}).catch((caught: unknown) => caught);
    await waitFor(() => gates.length === 1);
    return { held, api, inFlight, release: () => gates.shift()?.() };
  }

  it('with a drain, refuses new connections at once and still answers the parse under way', async () => {
    const { held, api, inFlight, release } = await serverWithParseInFlight(10_000);
    try {
      const closing = held.close();
      await expect(fetch(`${held.url}/healthz`)).rejects.toThrow();
      release();
      const answered = await inFlight;
      expect((answered as { data: { markdown: string } }).data.markdown).toBe('done');
      await closing;
    } finally {
      await api.close();
    }
  });

  it('without one, cuts the parse under way', async () => {
    const { held, api, inFlight, release } = await serverWithParseInFlight(undefined);
    try {
      await held.close();
      expect(await inFlight).toBeInstanceOf(Error);
    } finally {
      release();
      await api.close();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
