/**
 * The queue dashboard (bull-board at /queues) on a worker's metrics port, over a real queue on the shared Redis
 * with jobs in known states: its page, its JSON API, its static files, its refusals (a path out of the static
 * folder; changes to the queue unless --dashboard-write), and the page as a browser renders it.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import { delimiter, join } from 'node:path';
import { Writable } from 'node:stream';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisDashboard } from '../../src/app/queue-dashboard.js';
import { startWorker, type WorkerHandle } from '../../src/index.js';
import { createLogger } from '../../src/logging/logger.js';
import { DashboardAccess } from '../../src/server/dashboard-access.js';
import { startParseServer } from '../../src/server/parse-server.js';
import { deleteQueueKeys, docmillEnv, QUEUE_PREFIX, runDocmill, SHARED_REDIS_URL, startDocmill, waitFor } from '../helpers/docmill-cli.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

interface Running {
  handle: WorkerHandle;
  base: string;
}

interface QueueCounts {
  completed: number;
  failed: number;
  delayed: number;
  waiting: number;
}

const queueName = `dash-${randomUUID()}`;
let dir: string;
let connection: Redis;
let readOnly: Running;
let completedIds: string[] = [];

function capturedLog(): { destination: Writable; text: () => string } {
  let log = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log += chunk.toString();
      done();
    },
  });
  return { destination, text: () => log };
}

/** A worker with a metrics port, its address read from its own log line. */
async function startWithDashboard(dashboard: boolean | { write: boolean }): Promise<Running> {
  const { destination, text } = capturedLog();
  const handle = startWorker({
    out: join(dir, 'out'),
    redisUrl: SHARED_REDIS_URL,
    queue: queueName,
    metricsPort: 0,
    dashboard,
    concurrency: 1,
    logger: createLogger({ level: 'info', destination, pretty: false }),
  });
  const port = await waitFor('the metrics port in the log', () => /"port":(\d+)[^\n]*metrics on \/metrics/.exec(text())?.[1]);
  return { handle, base: `http://127.0.0.1:${port}` };
}

/** A GET or other request sent with the path exactly as written (fetch would normalise `..` segments). */
function raw(url: string, method = 'GET', body?: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const path = url.slice(target.origin.length);
    const req = httpRequest({ host: target.hostname, port: target.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function countsOf(base: string): Promise<QueueCounts & { readOnlyMode: boolean }> {
  const response = await fetch(`${base}/queues/api/queues`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { queues: { name: string; counts: QueueCounts; readOnlyMode: boolean }[] };
  const queue = body.queues.find(({ name }) => name === queueName);
  expect(queue, JSON.stringify(body.queues.map(({ name }) => name))).toBeDefined();
  return { ...(queue as { counts: QueueCounts }).counts, readOnlyMode: (queue as { readOnlyMode: boolean }).readOnlyMode };
}

beforeAll(async () => {
  dir = await makeTempDir();
  connection = new Redis(SHARED_REDIS_URL, { maxRetriesPerRequest: null });
  // Known states, made by a plain BullMQ worker before docmill's starts: 2 completed, 3 failed, then 1 delayed by an
  // hour (docmill's worker leaves all three sets alone).
  const queue = new Queue(queueName, { connection, prefix: QUEUE_PREFIX });
  const settle = new Worker(
    queueName,
    async (job) => {
      if ((job.data as { fail?: boolean }).fail) throw new Error('unreadable on purpose');
      return 'done';
    },
    { connection: connection.duplicate(), prefix: QUEUE_PREFIX },
  );
  const added = await queue.addBulk([
    { name: 'parse', data: { relativePath: 'reports/annual-report.pdf', fail: false } },
    { name: 'parse', data: { relativePath: 'reports/minutes.docx', fail: false } },
    { name: 'parse', data: { relativePath: 'scans/1.pdf', fail: true }, opts: { attempts: 1 } },
    { name: 'parse', data: { relativePath: 'scans/2.pdf', fail: true }, opts: { attempts: 1 } },
    { name: 'parse', data: { relativePath: 'scans/3.pdf', fail: true }, opts: { attempts: 1 } },
  ]);
  await waitFor('2 completed and 3 failed jobs', async () => {
    const counts = await queue.getJobCounts('completed', 'failed');
    return counts.completed === 2 && counts.failed === 3;
  });
  completedIds = added.slice(0, 2).map((job) => String(job.id));
  await settle.close();
  await settle.disconnect();
  await queue.add('parse', { relativePath: 'later.pdf', fail: false }, { delay: 3_600_000 });
  await queue.close();
  readOnly = await startWithDashboard(true);
});

afterAll(async () => {
  await readOnly?.handle.close();
  connection?.disconnect();
  await deleteQueueKeys(queueName);
  await removeTempDir(dir);
});

describe('queue dashboard on the metrics port', () => {
  it('serves the page at /queues, beside /metrics', async () => {
    for (const path of ['/queues', '/queues/', `/queues/queue/${queueName}`]) {
      const page = await raw(`${readOnly.base}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.type).toMatch(/^text\/html/);
      expect(page.text).toContain('<base href="/queues/" />');
      expect(page.text).toContain('<title>docmill</title>');
      expect(page.text).not.toContain('<%');
      // An offline tool's page loads nothing from elsewhere (bull-board's template links web fonts).
      expect(page.text).not.toMatch(/(?:href|src)="(?:https?:)?\/\//);
    }
    const metrics = await fetch(`${readOnly.base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('docmill_documents_total');
  });

  it("gives the queue's name and counts in its JSON API, read-only", async () => {
    const counts = await countsOf(readOnly.base);
    expect(counts).toMatchObject({ completed: 2, failed: 3, delayed: 1, waiting: 0, readOnlyMode: true });
    // A queue's jobs by state, named by the file they convert (every docmill job is called `parse`).
    const failed = await fetch(`${readOnly.base}/queues/api/queues?activeQueue=${queueName}&status=failed&page=1&jobsPerPage=10`);
    const body = (await failed.json()) as { queues: { name: string; jobs: { name: string; failedReason?: string }[] }[] };
    const jobs = body.queues.find(({ name }) => name === queueName)?.jobs ?? [];
    expect(jobs.map(({ name }) => name).sort()).toEqual(['scans/1.pdf', 'scans/2.pdf', 'scans/3.pdf']);
    expect(jobs[0]?.failedReason).toBe('unreadable on purpose');
  });

  it('serves the UI’s static files with their content types', async () => {
    const page = await raw(`${readOnly.base}/queues`);
    const script = /src="(static\/js\/main\.[^"]+\.js)"/.exec(page.text)?.[1];
    const style = /href="(static\/css\/main\.[^"]+\.css)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();
    const js = await raw(`${readOnly.base}/queues/${script}`);
    expect(js.status).toBe(200);
    expect(js.type).toBe('text/javascript; charset=utf-8');
    expect(js.text.length).toBeGreaterThan(1000);
    const css = await raw(`${readOnly.base}/queues/${style}`);
    expect(css.status).toBe(200);
    expect(css.type).toBe('text/css; charset=utf-8');
    const icon = await raw(`${readOnly.base}/queues/static/images/logo.svg`);
    expect(icon.status).toBe(200);
    expect(icon.type).toBe('image/svg+xml');
  });

  it('refuses paths that leave the static folder', async () => {
    const attempts = [
      '/queues/static/..%2f..%2fpackage.json',
      '/queues/static/%2e%2e%2f%2e%2e%2fpackage.json',
      '/queues/static/%2e%2e/%2e%2e/package.json',
      '/queues/static/../../package.json',
      '/queues/static/js/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/queues/static/%2fetc%2fpasswd',
      '/queues/static/..%5c..%5cpackage.json',
      '/queues/static/images%00.svg',
      '/queues/static/js',
    ];
    for (const path of attempts) {
      const answer = await raw(`${readOnly.base}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.text, path).not.toContain('"name"');
      expect(answer.text, path).not.toContain('root:');
    }
  });

  it('refuses every change to the queue when read-only, and the queue is untouched', async () => {
    const changes: [string, string, string?][] = [
      ['PUT', `/queues/api/queues/${queueName}/clean/completed`],
      ['PUT', `/queues/api/queues/${queueName}/retry/failed`],
      ['PUT', `/queues/api/queues/${queueName}/promote`],
      ['PUT', `/queues/api/queues/${queueName}/pause`],
      ['PUT', `/queues/api/queues/${queueName}/empty`],
      ['POST', `/queues/api/queues/${queueName}/add`, JSON.stringify({ name: 'x', data: {} })],
      ['PATCH', `/queues/api/queues/${queueName}/1/update-data`, JSON.stringify({ data: {} })],
      ['DELETE', `/queues/api/queues/${queueName}`],
    ];
    for (const [method, path, body] of changes) {
      const answer = await raw(`${readOnly.base}${path}`, method, body, body ? { 'content-type': 'application/json' } : {});
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.text).toContain('--dashboard-write');
    }
    expect(await countsOf(readOnly.base)).toMatchObject({ completed: 2, failed: 3, delayed: 1, waiting: 0 });
  });

  it('renders the queue’s name and counts in a headless browser', async (context) => {
    const browser = findBrowser();
    if (!browser) {
      console.log('skipped: no Chromium found (apt-get install chromium, or set DOCMILL_TEST_CHROMIUM)');
      context.skip();
      return;
    }
    const dom = await dumpDom(browser, `${readOnly.base}/queues/`);
    expect(dom).toContain(queueName);
    const text = visibleText(dom);
    expect(text).toMatch(/Completed\s*2\b/i);
    expect(text).toMatch(/Failed\s*3\b/i);
    expect(text).toMatch(/Delayed\s*1\b/i);
  }, 60_000);

  it('with write enabled, its buttons change the queue (removing a completed job)', async () => {
    const writable = await startWithDashboard({ write: true });
    try {
      expect((await countsOf(writable.base)).readOnlyMode).toBe(false);
      const cleaned = await raw(`${writable.base}/queues/api/queues/${queueName}/${completedIds[0]}/clean`, 'PUT');
      expect(cleaned.status).toBe(204);
      expect(await countsOf(writable.base)).toMatchObject({ completed: 1, failed: 3, delayed: 1 });
      // Bodies are JSON only (a form can be sent across sites without asking), and another site's Origin is refused.
      const form = await raw(`${writable.base}/queues/api/queues/${queueName}/concurrency`, 'PUT', 'concurrency=1', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(form.status).toBe(415);
      // Jobs name the files a worker reads: none can be added or edited from the board, writable or not.
      const added = await raw(`${writable.base}/queues/api/queues/${queueName}/add`, 'POST', JSON.stringify({ name: 'parse', data: { uri: '/etc/passwd' } }), {
        'content-type': 'application/json',
      });
      expect(added.status).toBe(403);
      const edited = await raw(`${writable.base}/queues/api/queues/${queueName}/${completedIds[1]}/update-data`, 'PATCH', JSON.stringify({ data: { uri: '/etc/passwd' } }), {
        'content-type': 'application/json',
      });
      expect(edited.status).toBe(403);
      const crossSite = await raw(`${writable.base}/queues/api/queues/${queueName}/retry/failed`, 'PUT', undefined, {
        origin: 'http://elsewhere.example',
      });
      expect(crossSite.status).toBe(403);
      // The board's own page, straight or behind a proxy that passes the host it was reached at, gets through to the
      // queue (which has no job 999999).
      const port = new URL(writable.base).port;
      const sameSite = await raw(`${writable.base}/queues/api/queues/${queueName}/999999/clean`, 'PUT', undefined, {
        origin: `http://localhost:${port}`,
        host: `localhost:${port}`,
      });
      expect(sameSite.status).toBe(404);
      expect(sameSite.text).toContain('JOB_NOT_FOUND');
      const proxied = await raw(`${writable.base}/queues/api/queues/${queueName}/999999/clean`, 'PUT', undefined, {
        origin: 'https://ops.example',
        'x-forwarded-host': 'ops.example',
      });
      expect(proxied.status).toBe(404);
      expect(await countsOf(writable.base)).toMatchObject({ completed: 1, failed: 3, delayed: 1, waiting: 0 });
    } finally {
      await writable.handle.close();
    }
  });

  it('docmill worker --dashboard-write serves a writable board; the flag needs --metrics-port', async () => {
    const home = await makeTempDir();
    try {
      const out = join(home, 'out');
      const env = docmillEnv({ home });
      const refused = await runDocmill(['worker', '--out', out, '--redis', SHARED_REDIS_URL, '--queue', queueName, '--dashboard-write'], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--metrics-port');
      const worker = startDocmill(['worker', '--out', out, '--redis', SHARED_REDIS_URL, '--queue', queueName, '--metrics-port', '0', '--dashboard-write'], env);
      const port = await waitFor('the metrics port in the log', () => /"port":(\d+)[^\n]*metrics on \/metrics/.exec(worker.stderr)?.[1]);
      expect((await countsOf(`http://127.0.0.1:${port}`)).readOnlyMode).toBe(false);
      worker.kill('SIGTERM');
      expect((await worker.exited).code).toBe(0);
    } finally {
      await removeTempDir(home);
    }
  });

  it('is absent with dashboard: false', async () => {
    const without = await startWithDashboard(false);
    try {
      expect((await raw(`${without.base}/queues`)).status).toBe(404);
      expect((await fetch(`${without.base}/metrics`)).status).toBe(200);
    } finally {
      await without.handle.close();
    }
  });
});

describe('queue dashboard on docmill serve', () => {
  const KEY = `dash-key-${randomUUID()}`;

  async function startServe() {
    const log = capturedLog();
    const logger = createLogger({ level: 'debug', destination: log.destination, pretty: false });
    const board = await openRedisDashboard({ redisUrl: SHARED_REDIS_URL, logger });
    const server = await startParseServer({
      host: '127.0.0.1',
      port: 0,
      apiKeys: ['another-key', KEY],
      maxConcurrency: 1,
      logger,
      parse: () => Promise.reject(new Error('not used')),
      dashboard: board.dashboard,
    });
    return {
      base: server.url,
      log: log.text,
      close: async () => {
        await server.close();
        await board.close();
      },
    };
  }

  it('answers holders of a key (bearer header, or a ?key= visit traded for a cookie) and no one else', async () => {
    const serve = await startServe();
    try {
      const bare = await raw(`${serve.base}/queues`);
      expect(bare.status).toBe(401);
      expect(bare.text).toContain('?key=');
      expect((await raw(`${serve.base}/queues/api/queues`)).status).toBe(401);
      expect((await raw(`${serve.base}/queues/api/queues`, 'GET', undefined, { authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await raw(`${serve.base}/queues?key=wrong`)).status).toBe(401);

      const page = await raw(`${serve.base}/queues`, 'GET', undefined, { authorization: `Bearer ${KEY}` });
      expect(page.status).toBe(200);
      expect(page.text).toContain('<base href="/queues/" />');
      // Every docmill queue of the Redis is shown: this one, with its counts.
      const api = await fetch(`${serve.base}/queues/api/queues`, { headers: { authorization: `Bearer ${KEY}` } });
      const listed = (await api.json()) as { queues: { name: string; counts: QueueCounts; readOnlyMode: boolean }[] };
      expect(listed.queues.find(({ name }) => name === queueName)).toMatchObject({ readOnlyMode: true, counts: { failed: 3, delayed: 1 } });

      const visit = await fetch(`${serve.base}/queues/queue/${queueName}?key=${encodeURIComponent(KEY)}&page=1`, { redirect: 'manual' });
      expect(visit.status).toBe(303);
      expect(visit.headers.get('location')).toBe(`/queues/queue/${queueName}?page=1`);
      const cookie = visit.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^docmill_dashboard=[A-Za-z0-9_-]{40,}; Path=\/queues; HttpOnly; SameSite=Lax/);
      expect(cookie).not.toContain(KEY);
      const session = cookie.split(';')[0] as string;
      expect((await raw(`${serve.base}/queues/api/queues`, 'GET', undefined, { cookie: session })).status).toBe(200);
      expect((await raw(`${serve.base}/queues/api/queues`, 'GET', undefined, { cookie: 'docmill_dashboard=made-up' })).status).toBe(401);

      // Read-only: a key opens the board, not the queue.
      const change = await raw(`${serve.base}/queues/api/queues/${queueName}/retry/failed`, 'PUT', undefined, { authorization: `Bearer ${KEY}` });
      expect(change.status).toBe(403);
      // /v2/parse still wants its bearer key, not the dashboard's cookie.
      expect((await raw(`${serve.base}/v2/parse`, 'POST', '', { cookie: session })).status).toBe(401);
      expect(serve.log()).not.toContain(KEY);
    } finally {
      await serve.close();
    }
  });

  it('forgets a session after 12 hours; with no keys the board is open', async () => {
    let now = Date.parse('2026-11-22T08:00:00Z');
    const board = { basePath: '/queues', handle: async (_request: unknown, response: ServerResponse) => void response.end('board') };
    const serveWith = async (access: DashboardAccess): Promise<{ base: string; server: Server }> => {
      const server = createServer((request, response) => void access.handle(request, response));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return { base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
    };
    const gated = await serveWith(new DashboardAccess(board, (key) => key === KEY, () => now));
    const open = await serveWith(new DashboardAccess(board, undefined));
    try {
      const visit = await fetch(`${gated.base}/queues?key=${encodeURIComponent(KEY)}`, { redirect: 'manual' });
      const session = (visit.headers.get('set-cookie') ?? '').split(';')[0] as string;
      expect((await raw(`${gated.base}/queues`, 'GET', undefined, { cookie: session })).text).toBe('board');
      now += 11 * 3600_000;
      expect((await raw(`${gated.base}/queues`, 'GET', undefined, { cookie: session })).status).toBe(200);
      now += 3600_000 + 1;
      expect((await raw(`${gated.base}/queues`, 'GET', undefined, { cookie: session })).status).toBe(401);
      expect((await raw(`${open.base}/queues/api/queues`)).text).toBe('board');
    } finally {
      gated.server.close();
      open.server.close();
    }
  });

  it('renders in a headless browser opened once with ?key=', async (context) => {
    const browser = findBrowser();
    if (!browser) {
      console.log('skipped: no Chromium found (apt-get install chromium, or set DOCMILL_TEST_CHROMIUM)');
      context.skip();
      return;
    }
    const serve = await startServe();
    try {
      const text = visibleText(await dumpDom(browser, `${serve.base}/queues/queue/${queueName}?key=${encodeURIComponent(KEY)}`));
      expect(text).toContain(queueName);
      expect(text).toMatch(/Failed\s*3\b/i);
      expect(text).toMatch(/Delayed\s*1\b/i);
      // The queue's page lists its latest jobs by name.
      expect(text).toContain('reports/minutes.docx');
      expect(serve.log()).not.toContain(KEY);
    } finally {
      await serve.close();
    }
  }, 60_000);

  it('docmill serve --dashboard needs a Redis, and says where the dashboard is', async () => {
    const home = await makeTempDir();
    try {
      const refused = await runDocmill(['serve', '--port', '0', '--dashboard'], docmillEnv({ home }));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--redis');
      const serve = startDocmill(['serve', '--port', '0', '--dashboard', '--redis', SHARED_REDIS_URL], docmillEnv({ home, extra: { DOCMILL_SERVER_API_KEYS: KEY } }));
      const url = await waitFor('the dashboard line', () => /"url":"(http:\/\/[^"]+\/queues)"/.exec(serve.stderr)?.[1]);
      expect((await raw(url)).status).toBe(401);
      expect((await raw(url, 'GET', undefined, { authorization: `Bearer ${KEY}` })).status).toBe(200);
      serve.kill('SIGTERM');
      expect((await serve.exited).code).toBe(0);
      expect(serve.stderr).not.toContain(KEY);
    } finally {
      await removeTempDir(home);
    }
  });
});

/** DOCMILL_TEST_CHROMIUM, or a Chromium on PATH. */
function findBrowser(): string | undefined {
  const named = process.env.DOCMILL_TEST_CHROMIUM;
  if (named) {
    if (existsSync(named)) return named;
    console.log(`DOCMILL_TEST_CHROMIUM=${named} does not exist`);
    return undefined;
  }
  const folders = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const found = folders.map((folder) => join(folder, name)).find((path) => existsSync(path));
    if (found) return found;
  }
  return undefined;
}

/** The page's DOM after its scripts ran, from Chromium's --dump-dom (virtual time lets the SPA fetch and render). */
async function dumpDom(browser: string, url: string): Promise<string> {
  const profile = await makeTempDir();
  try {
    return await new Promise<string>((resolve, reject) => {
      execFile(
        browser,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          // Nothing but the loopback board: the UI's web-font link and anything else outside stays unresolved.
          '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
          `--user-data-dir=${profile}`,
          '--virtual-time-budget=8000',
          '--dump-dom',
          url,
        ],
        { timeout: 45_000, maxBuffer: 32 * 1024 * 1024 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr.slice(-2000)}`)) : resolve(stdout)),
      );
    });
  } finally {
    await removeTempDir(profile);
  }
}

function visibleText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ');
}
