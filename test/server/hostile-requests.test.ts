/**
 * `docmill serve` stays up under any request. Each hostile request is sent on a raw socket to the real command (the
 * CLI's own wiring, with keys, its metrics port and a writable queue dashboard); each is answered with its status,
 * or has its connection closed; after each, /healthz answers with no parse slot held; and a normal parse sent at the
 * same time succeeds. The metrics endpoint, and the dashboard on it, get the same requests.
 * Regression tests for "a truncated multipart body kills docmill serve" (an 'error' event nobody listened to).
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DocmillMetrics } from '../../src/metrics/metrics.js';
import { startMetricsServer, type MetricsServer } from '../../src/metrics/metrics-server.js';
import { createQueueDashboard } from '../../src/metrics/queue-dashboard.js';
import { HEADERS_TIMEOUT_MS, CONNECTION_CHECK_INTERVAL_MS } from '../../src/server/http-limits.js';
import { startParseServer, type RunningServer } from '../../src/server/parse-server.js';
import { UPLOAD_LIMITS } from '../../src/server/upload-reader.js';
import { builtCliExists, deleteQueueKeys, docmillEnv, QUEUE_PREFIX, SHARED_REDIS_URL, startDocmill, waitFor, type DocmillProcess } from '../helpers/docmill-cli.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { BOUNDARY, CLOSING, exchange, part, post, requestHead, trickle, write, type Outcome } from './raw-http.js';

const KEY = `hostile-key-${randomUUID()}`;
const INVALID = { success: false, code: 'BAD_REQUEST', error: 'Invalid multipart form-data request.' };
const MiB = 1024 * 1024;
/** A slow client is cut between its deadline and one check later; this allows for a loaded machine on top. */
const SLOW_CLIENT_DEADLINE_MS = HEADERS_TIMEOUT_MS + 2 * CONNECTION_CHECK_INTERVAL_MS + 8_000;

let home: string;
let serve: DocmillProcess;
let port: number;
let metricsPort: number;
let base: string;

beforeAll(async () => {
  if (!builtCliExists()) throw new Error('run `npm run build` first: this test starts the built `docmill serve`');
  home = await makeTempDir();
  serve = startDocmill(
    ['serve', '--port', '0', '--max-concurrency', '2', '--metrics-port', '0', '--dashboard-write', '--redis', SHARED_REDIS_URL],
    docmillEnv({ home, extra: { DOCMILL_SERVER_API_KEYS: KEY } }),
  );
  port = Number(await waitFor('docmill serve listening', () => /"url":"http:\/\/127\.0\.0\.1:(\d+)\/v2\/parse"/.exec(serve.stderr)?.[1]));
  metricsPort = Number(await waitFor('its metrics port', () => /"port":(\d+)[^\n]*metrics on \/metrics/.exec(serve.stderr)?.[1]));
  base = `http://127.0.0.1:${port}`;
});

afterEach(() => {
  expect(serve.running, `docmill serve exited:\n${serve.stderr.slice(-3000)}`).toBe(true);
});

afterAll(async () => {
  serve?.kill('SIGTERM');
  const result = await serve?.exited;
  await removeTempDir(home);
  // It was still serving, and stops as it should: nothing crashed it, and nothing was caught and hidden either.
  expect(result?.code, result?.stderr.slice(-3000)).toBe(0);
  expect(result?.stderr).not.toMatch(/uncaught|unhandled/i);
});

/** A parse any client would send: it must succeed whatever else the server is going through. */
async function normalParse(): Promise<void> {
  const form = new FormData();
  form.append('options', JSON.stringify({ formats: [{ type: 'markdown' }] }));
  form.append('file', new Blob(['city,people\nLyon,522000\n'], { type: 'text/csv' }), 'cities.csv');
  const response = await fetch(`${base}/v2/parse`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
  const body = (await response.json()) as { success: boolean; data?: { markdown?: string } };
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.data?.markdown).toContain('| Lyon | 522000 |');
}

/** /healthz answers, and no parse slot or queue place is left held by what went before. */
async function healthy(serverBase = base): Promise<void> {
  await waitFor('/healthz with no parse in flight', async () => {
    const response = await fetch(`${serverBase}/healthz`);
    const body = (await response.json()) as { ok: boolean; active: number; queued: number };
    return response.status === 200 && body.ok && body.active === 0 && body.queued === 0;
  }, { timeoutMs: 15_000 });
}

/** Runs a hostile exchange beside a normal parse; both must come out as expected, and the server stay healthy. */
async function beside(hostile: () => Promise<Outcome>): Promise<Outcome> {
  const [outcome] = await Promise.all([hostile(), normalParse()]);
  await healthy();
  return outcome;
}

function json(outcome: Outcome): unknown {
  expect(outcome.answer, 'an answer').toBeDefined();
  return JSON.parse(outcome.answer?.body ?? '');
}

const auth = { Authorization: `Bearer ${KEY}` };
const sendAll = (bytes: Buffer) => (socket: Socket) => void write(socket, bytes);
/** Sends `bytes`, then half-closes: the client says it has sent everything, and still reads. */
const sendThenEnd = (bytes: Buffer) => async (socket: Socket) => {
  await write(socket, bytes);
  socket.end();
};
const fileHead = (name = 'file', filename = 'a.pdf') =>
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`);

describe('docmill serve: keys are checked before the body is read', () => {
  it.each([
    ['no key', {}],
    ['a wrong key', { Authorization: 'Bearer not-a-key' }],
  ])('%s: 401 at once, though the declared 1 MiB body never comes', async (_name, headers) => {
    const head = requestHead('POST', '/v2/parse', { ...headers, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': MiB });
    const outcome = await beside(() => exchange(port, sendAll(Buffer.from(head))));
    expect(outcome.answer?.status).toBe(401);
    expect(json(outcome)).toEqual({ success: false, error: 'Unauthorized: Invalid token' });
  });
});

describe('docmill serve: multipart bodies that are not valid are 400', () => {
  const cases: [string, Buffer, Record<string, string>?][] = [
    ['the issue\'s curl: a file part, then bytes and no closing boundary', Buffer.concat([fileHead(), Buffer.from('%PDF-1.4 trunc')])],
    ['a file part cut inside a boundary', Buffer.concat([fileHead(), Buffer.from(`%PDF-1.4\r\n--${BOUNDARY.slice(0, 5)}`)])],
    ['a body cut inside a part\'s headers', Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-da`)],
    ['only the opening boundary', Buffer.from(`--${BOUNDARY}\r\n`)],
    ['an options part and no end', part('options', '{"formats":["markdown"]}').subarray(0, -2)],
    ['a wrong boundary', Buffer.concat([part('file', 'a,b\n1,2\n', 'a.csv'), CLOSING]), { 'Content-Type': 'multipart/form-data; boundary=not-the-one' }],
    ['no boundary at all', Buffer.from('{"not":"multipart"}'), { 'Content-Type': 'multipart/form-data' }],
    ['not multipart', Buffer.from('{"not":"multipart"}'), { 'Content-Type': 'application/json' }],
    ['a malformed part header', Buffer.from(`--${BOUNDARY}\r\nthis is no header\r\n\r\nx\r\n--${BOUNDARY}--\r\n`)],
    ['a part header over 16 KiB', Buffer.from(`--${BOUNDARY}\r\nX-Padding: ${'p'.repeat(20_000)}\r\n\r\nx\r\n--${BOUNDARY}--\r\n`)],
    ['a part with no headers', Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n\r\n%PDF-1.4\r\n`), part('file', 'a,b\n1,2\n', 'a.csv'), CLOSING])],
    ['5,000 empty parts', Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n\r\n\r\n`.repeat(5_000)), CLOSING])],
  ];
  it.each(cases)('%s', async (_name, body, headers = {}) => {
    const outcome = await beside(() => exchange(port, sendAll(post('/v2/parse', body, { ...auth, ...headers }))));
    expect(outcome.answer?.status).toBe(400);
    expect(json(outcome)).toEqual(INVALID);
  });

});

describe('docmill serve: bodies that end with their connection', () => {
  it('a body shorter than its Content-Length, then a half-close: 400, the client still reads it', async () => {
    const whole = post('/v2/parse', Buffer.concat([part('file', 'a,b\n1,2\n', 'a.csv'), CLOSING]), auth);
    const outcome = await beside(() => exchange(port, sendThenEnd(whole.subarray(0, whole.byteLength - 20))));
    expect(outcome.answer?.status).toBe(400);
    expect(json(outcome)).toEqual(INVALID);
  });

  it('a chunked body without its last chunk, then a half-close: 400', async () => {
    const head = requestHead('POST', '/v2/parse', { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Transfer-Encoding': 'chunked' });
    const content = fileHead('file', 'a.csv');
    const bytes = Buffer.concat([Buffer.from(head), Buffer.from(`${content.byteLength.toString(16)}\r\n`), content, Buffer.from('\r\n')]);
    const outcome = await beside(() => exchange(port, sendThenEnd(bytes)));
    expect(outcome.answer?.status).toBe(400);
    expect(json(outcome)).toEqual(INVALID);
  });

  it('chunked framing that is not valid: 400', async () => {
    const head = requestHead('POST', '/v2/parse', { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Transfer-Encoding': 'chunked' });
    const outcome = await beside(() => exchange(port, sendAll(Buffer.from(`${head}zz\r\nnot a chunk\r\n`))));
    expect(outcome.answer?.status).toBe(400);
    expect(json(outcome)).toEqual(INVALID);
  });

  it('a client that resets mid-upload: the refusal is logged, its slot is freed, and a parse meanwhile succeeds', async () => {
    const refusals = () => serve.stderr.split('\n').filter((line) => line.includes('"status":400') && line.includes('parse refused')).length;
    const before = refusals();
    const head = requestHead('POST', '/v2/parse', { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': MiB });
    const outcome = await exchange(port, async (socket) => {
      await write(socket, Buffer.concat([Buffer.from(head), fileHead(), Buffer.alloc(256 * 1024, 'x')]));
      // The upload holds a parse slot while it stalls; a normal parse goes through beside it.
      await waitFor('the upload admitted', async () => ((await (await fetch(`${base}/healthz`)).json()) as { active: number }).active === 1, { intervalMs: 20 });
      await normalParse();
      socket.resetAndDestroy();
    });
    expect(outcome.answer).toBeUndefined();
    await waitFor('the refusal in the log', () => refusals() > before);
    await healthy();
  });

  it('a client that resets while its answer is being written: the answer is dropped, nothing else notices', async () => {
    // About 5 MB of Markdown: more than the connection's buffers hold, so the reset lands mid-answer.
    const csv = `h1,h2\n${'alpha,beta\n'.repeat(300_000)}`;
    const request = post('/v2/parse', Buffer.concat([part('file', csv, 'big.csv', 'text/csv'), CLOSING]), auth);
    const outcome = await beside(() =>
      exchange(port, async (socket) => {
        socket.once('data', () => socket.resetAndDestroy());
        await write(socket, request);
      }),
    );
    expect(outcome.closed).toBe(true);
    expect(outcome.answer?.status).toBe(200);
  });
});

describe('docmill serve: parts', () => {
  it('two file parts: 400, the second is not silently ignored', async () => {
    const body = Buffer.concat([part('file', 'a,b\n1,2\n', 'a.csv'), part('file', 'c,d\n3,4\n', 'b.csv'), CLOSING]);
    const outcome = await beside(() => exchange(port, sendAll(post('/v2/parse', body, auth))));
    expect(outcome.answer?.status).toBe(400);
    expect(json(outcome)).toMatchObject({ code: 'BAD_REQUEST', details: [{ path: 'file', message: 'more than one file part' }] });
  });

  it('a file in a part not named "file": 400', async () => {
    const body = Buffer.concat([part('attachment', 'x', 'x.csv'), part('file', 'a,b\n1,2\n', 'a.csv'), CLOSING]);
    const outcome = await beside(() => exchange(port, sendAll(post('/v2/parse', body, auth))));
    expect(outcome.answer?.status).toBe(400);
    expect(json(outcome)).toMatchObject({ code: 'BAD_REQUEST', details: [{ path: 'attachment', message: 'unexpected file part' }] });
  });

  it(`a field flood (200 fields): 400 past ${UPLOAD_LIMITS.fields}`, async () => {
    const fields = Array.from({ length: 200 }, (_, index) => part(`field${index}`, 'v'));
    const body = Buffer.concat([...fields, part('file', 'a,b\n1,2\n', 'a.csv'), CLOSING]);
    const outcome = await beside(() => exchange(port, sendAll(post('/v2/parse', body, auth))));
    expect(outcome.answer?.status).toBe(400);
    expect((json(outcome) as { error: string }).error).toContain(`more than ${UPLOAD_LIMITS.fields} fields`);
  });

  it(`5,000 parts that are neither file nor field: 400 past ${UPLOAD_LIMITS.parts}`, async () => {
    const body = Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nX-Nothing: 1\r\n\r\n\r\n`.repeat(5_000)), part('file', 'a,b\n1,2\n', 'a.csv'), CLOSING]);
    const outcome = await beside(() => exchange(port, sendAll(post('/v2/parse', body, auth))));
    expect(outcome.answer?.status).toBe(400);
    expect((json(outcome) as { error: string }).error).toContain(`more than ${UPLOAD_LIMITS.parts} parts`);
  });

  it(`at the limits (${UPLOAD_LIMITS.fields} fields, ${UPLOAD_LIMITS.parts} parts): parsed`, async () => {
    const fields = Array.from({ length: UPLOAD_LIMITS.fields - 1 }, (_, index) => part(`field${index}`, 'v'));
    const spare = Buffer.from(`--${BOUNDARY}\r\nX-Nothing: 1\r\n\r\n\r\n`);
    const body = Buffer.concat([part('options', '{}'), ...fields, spare, part('file', 'a,b\n1,2\n', 'a.csv'), CLOSING]);
    const outcome = await beside(() => exchange(port, sendAll(post('/v2/parse', body, auth))));
    expect(outcome.answer?.status, outcome.answer?.body).toBe(200);
  });

  it('5 MB of broken options JSON: 400 (a field is at most 1 MiB)', async () => {
    const body = Buffer.concat([part('options', '{'.repeat(5_000_000), undefined, 'application/json'), part('file', 'a,b\n1,2\n', 'a.csv'), CLOSING]);
    const outcome = await beside(() => exchange(port, sendAll(post('/v2/parse', body, auth))));
    expect(outcome.answer?.status).toBe(400);
    expect(json(outcome)).toMatchObject({ code: 'BAD_REQUEST', details: [{ path: 'options' }] });
  });

  it('options sent as a file (a Blob in a FormData) are read as options', async () => {
    const form = new FormData();
    form.append('options', new Blob([JSON.stringify({ timeout: 0 })], { type: 'application/json' }));
    form.append('file', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'a.csv');
    const response = await fetch(`${base}/v2/parse`, { method: 'POST', headers: auth, body: form });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ details: [{ path: 'timeout' }] });
  });
});

describe('docmill serve: sizes', () => {
  it('a 200 KB header: 431', async () => {
    const head = requestHead('GET', '/healthz', { 'X-Padding': 'p'.repeat(200_000) });
    const outcome = await beside(() => exchange(port, sendAll(Buffer.from(head))));
    expect(outcome.answer?.status).toBe(431);
    expect(json(outcome)).toEqual({ success: false, error: 'Request Header Fields Too Large' });
  });

  it('an 80 MB Content-Length: 413 at once, before a byte of the body is sent', async () => {
    const head = requestHead('POST', '/v2/parse', { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': 80 * MiB });
    const outcome = await beside(() => exchange(port, sendAll(Buffer.from(head))));
    expect(outcome.answer?.status).toBe(413);
    expect(json(outcome)).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('an 80 MB chunked upload: 413 once it passes the limit, and the client reads it', async () => {
    const head = requestHead('POST', '/v2/parse', { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Transfer-Encoding': 'chunked' });
    const chunk = Buffer.alloc(MiB, 'x');
    const framed = Buffer.concat([Buffer.from(`${chunk.byteLength.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    let sent = 0;
    const outcome = await beside(() =>
      exchange(port, async (socket) => {
        const first = fileHead('file', 'big.html');
        await write(socket, Buffer.concat([Buffer.from(head), Buffer.from(`${first.byteLength.toString(16)}\r\n`), first, Buffer.from('\r\n')]));
        for (sent = 0; sent < 80; sent++) if (!(await write(socket, framed))) return;
        await write(socket, '0\r\n\r\n');
      }),
    );
    expect(outcome.answer?.status).toBe(413);
    expect(json(outcome)).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('a 50 MiB file, the largest the contract allows, sent in full: parsed', async () => {
    // An HTML page whose bulk is a comment: the engine parses it in about a second.
    const file = Buffer.alloc(UPLOAD_LIMITS.fileBytes, 'x');
    file.write('<html><body><p>the largest upload</p><!--', 0);
    file.write('--></body></html>', file.byteLength - 17);
    const request = post('/v2/parse', Buffer.concat([part('options', JSON.stringify({ timeout: 300_000 })), part('file', file, 'big.html', 'text/html'), CLOSING]), auth);
    const outcome = await beside(() => exchange(port, sendAll(request), { deadlineMs: 60_000 }));
    expect(outcome.answer?.status, outcome.answer?.body.slice(0, 300)).toBe(200);
    expect((json(outcome) as { data: { markdown: string } }).data.markdown).toContain('the largest upload');
  }, 90_000);

  it('Expect: 100-continue: "100 Continue" only for an upload that will be read', async () => {
    const headers = { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, Expect: '100-continue' };
    const refused = await exchange(port, sendAll(Buffer.from(requestHead('POST', '/v2/parse', { ...headers, 'Content-Length': 80 * MiB }))));
    expect(refused.interim).toEqual([]);
    expect(refused.answer?.status).toBe(413);
    const body = Buffer.concat([part('file', 'a,b\n1,2\n', 'a.csv'), CLOSING]);
    const accepted = await exchange(port, async (socket) => {
      await write(socket, requestHead('POST', '/v2/parse', { ...headers, 'Content-Length': body.byteLength }));
      // The body follows the "100 Continue"; sent with the head, it would prove nothing.
      await new Promise<void>((resolve) => socket.once('data', () => resolve()));
      await write(socket, body);
    });
    expect(accepted.interim).toEqual([100]);
    expect(accepted.answer?.status).toBe(200);
    await healthy();
  });
});

describe('docmill serve: slow clients', () => {
  it(
    'a client sending one header byte a second is answered 408 and cut off, while a normal parse goes through',
    async () => {
      const head = requestHead('POST', '/v2/parse', { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': 10 });
      const outcome = await beside(() => exchange(port, (socket) => trickle(socket, head, 1_000), { untilClose: true, deadlineMs: SLOW_CLIENT_DEADLINE_MS }));
      expect(outcome.closed).toBe(true);
      expect(outcome.answer?.status).toBe(408);
      expect(json(outcome)).toEqual({ success: false, error: 'Request Timeout' });
    },
    SLOW_CLIENT_DEADLINE_MS + 20_000,
  );
});

describe('docmill serve: the queue dashboard mounted on it', () => {
  const concurrencyPath = `/queues/api/queues/no-such-queue-${randomUUID()}/concurrency`;
  it('takes hostile bodies like every other route', async () => {
    await dashboardBodyCases(port, concurrencyPath, auth);
    await healthy();
  });
});

/**
 * The dashboard's JSON API reads request bodies: an honest one is read, a body over 1 MiB is a 413 the client gets
 * to read, a cut one is a 400 or a closed connection, and the server is none the worse.
 */
async function dashboardBodyCases(serverPort: number, path: string, headers: Record<string, string>): Promise<void> {
  const put = (body: Buffer, extra: Record<string, string | number> = {}) =>
    Buffer.concat([Buffer.from(requestHead('PUT', path, { ...headers, 'Content-Type': 'application/json', 'Content-Length': body.byteLength, ...extra })), body]);
  const honest = await exchange(serverPort, sendAll(put(Buffer.from('{"concurrency":1}'))));
  expect(honest.answer?.status).toBeLessThan(500);
  const tooLarge = await exchange(serverPort, sendAll(put(Buffer.from(`{"concurrency":"${'9'.repeat(2 * MiB)}"}`))));
  expect(tooLarge.answer?.status).toBe(413);
  const whole = put(Buffer.from('{"concurrency":1}'));
  const cut = await exchange(serverPort, sendThenEnd(whole.subarray(0, whole.byteLength - 5)));
  expect(cut.answer?.status).toBe(400);
  const reset = await exchange(serverPort, async (socket) => {
    await write(socket, whole.subarray(0, whole.byteLength - 5));
    socket.resetAndDestroy();
  });
  expect(reset.answer).toBeUndefined();
}

/** What every docmill HTTP server must take without going down: cut bodies, resets, huge headers, slow headers. */
async function crashCases(serverPort: number, serverBase: string): Promise<void> {
  const truncated = Buffer.concat([
    Buffer.from(requestHead('POST', '/metrics', { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': MiB })),
    fileHead(),
    Buffer.from('%PDF-1.4 trunc'),
  ]);
  // /metrics answers without reading a body: whether its 200 or the HTTP layer's 400 for the cut body goes out first
  // is a race; either way the answer is no 5xx and the server is unharmed.
  const cut = await exchange(serverPort, sendThenEnd(truncated));
  expect([200, 400]).toContain(cut.answer?.status);
  const reset = await exchange(serverPort, async (socket) => {
    await write(socket, truncated);
    socket.resetAndDestroy();
  });
  expect(reset.answer).toBeUndefined();
  const garbage = await exchange(serverPort, sendAll(Buffer.from('NOT HTTP AT ALL\r\n\r\n')));
  expect(garbage.answer?.status).toBe(400);
  const header = await exchange(serverPort, sendAll(Buffer.from(requestHead('GET', '/healthz', { 'X-Padding': 'p'.repeat(200_000) }))));
  expect(header.answer?.status).toBe(431);
  const slow = await exchange(serverPort, (socket) => trickle(socket, requestHead('GET', '/healthz', {}), 1_000), {
    untilClose: true,
    deadlineMs: SLOW_CLIENT_DEADLINE_MS,
  });
  expect(slow.closed).toBe(true);
  expect(slow.answer?.status).toBe(408);
  const health = await fetch(`${serverBase}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.text()).toBe('ok\n');
  expect((await fetch(`${serverBase}/metrics`)).status).toBe(200);
}

describe('the metrics endpoint', () => {
  it(
    "of docmill serve takes the same requests and keeps answering, as does the parse server beside it",
    async () => {
      await Promise.all([crashCases(metricsPort, `http://127.0.0.1:${metricsPort}`), normalParse()]);
      await healthy();
    },
    SLOW_CLIENT_DEADLINE_MS + 30_000,
  );

  describe('with a writable queue dashboard mounted on it', () => {
    const queueName = `hostile-${randomUUID()}`;
    let connection: Redis;
    let queue: Queue;
    let server: MetricsServer;

    beforeAll(async () => {
      connection = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null });
      queue = new Queue(queueName, { connection, prefix: QUEUE_PREFIX });
      await queue.waitUntilReady();
      server = await startMetricsServer(new DocmillMetrics(), 0, pino({ level: 'silent' }), [createQueueDashboard({ queues: [queue], write: true })]);
    });

    afterAll(async () => {
      await server?.close();
      await queue?.close();
      connection?.disconnect();
      await deleteQueueKeys(queueName);
    });

    it(
      'takes hostile bodies on its API and the crash cases, and keeps answering',
      async () => {
        await dashboardBodyCases(server.port, `/queues/api/queues/${queueName}/concurrency`, {});
        await crashCases(server.port, `http://127.0.0.1:${server.port}`);
      },
      SLOW_CLIENT_DEADLINE_MS + 30_000,
    );
  });
});

describe('docmill serve: the whole request has a deadline (scaled down here from 310 s)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startParseServer({
      host: '127.0.0.1',
      port: 0,
      apiKeys: [],
      maxConcurrency: 1,
      logger: pino({ level: 'silent' }),
      parse: async (bytes) => ({ markdown: `${bytes.byteLength} bytes`, metadata: {} }),
      deadlines: { headersMs: 1_000, requestMs: 6_000 },
    });
  });
  afterAll(() => server?.close());
  const serverPort = () => Number(new URL(server.url).port);

  it('a body sent a byte at a time is cut at the deadline (408), and its slot is freed', async () => {
    const head = requestHead('POST', '/v2/parse', { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': MiB });
    const outcome = await exchange(
      serverPort(),
      async (socket) => {
        await write(socket, Buffer.concat([Buffer.from(head), fileHead()]));
        await trickle(socket, 'x'.repeat(MiB), 250);
      },
      { untilClose: true },
    );
    expect(outcome.closed).toBe(true);
    expect(outcome.answer?.status).toBe(408);
    await healthy(server.url);
  });

  it('an honest upload that ends within it succeeds, however it is paced', async () => {
    const file = Buffer.alloc(10 * MiB, 'y');
    const request = post('/v2/parse', Buffer.concat([part('file', file, 'paced.csv'), CLOSING]));
    const outcome = await exchange(serverPort(), async (socket) => {
      for (let offset = 0; offset < request.byteLength; offset += MiB) {
        await write(socket, request.subarray(offset, offset + MiB));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    expect(outcome.answer?.status).toBe(200);
    expect(json(outcome)).toMatchObject({ success: true, data: { markdown: `${10 * MiB} bytes` } });
  });
});
