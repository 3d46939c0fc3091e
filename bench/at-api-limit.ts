/**
 * Benchmark "at the API's limit" (issues 3 and 21). Run by hand, never by the tests:
 *
 *   npm run build && npx tsx bench/at-api-limit.ts                # 2,000 files (about 6 minutes)
 *   npx tsx bench/at-api-limit.ts --files 200 --skip-embedded     # a quick look
 *   npx tsx bench/at-api-limit.ts --files 1000 --shapes window-1s,concurrency --skip-sdk   # issue 21's two rows
 *
 * Shapes of limit (`--shapes`, comma-separated, each against its own servers, one table each):
 * - `concurrency` (the default): described below;
 * - `window-1s`, `window-15s`: at most `--rate` N requests (20) per 1-s or 15-s window (`--window-kind` fixed, the
 *   hosted API's, or sliding), no concurrency cap; beyond it an immediate `429 Rate limit exceeded` whose wait is
 *   only in its text ("please retry after 1s, resets at <date>"), unless `--hint retry-after|x-ratelimit` adds the
 *   headers. The best schedule is N/W docs/s; the oracle is a client told N and W that sends one request every W/N
 *   (429s, if any, wait their text's wait). Contenders: the oracle, docmill (REDIS_URL, then embedded) and the
 *   diagnosis row.
 *
 * A capped parse server on 127.0.0.1 (latency L = 100 ms, at most C = 4 requests in flight; beyond that an
 * immediate `429 Concurrency limit reached` with `Retry-After: 1`) serves, one after the other and each against a
 * fresh server with the same settings:
 *
 * - oracle: a bare client (docmill's RemoteParseApi, the contract's retry rules, 5 attempts) at exactly C;
 * - 2C client: the same at 2C;
 * - docmill: `node bin/docmill.js run <dir> --out <tmp> --api-url <server> --concurrency 16 --queue bench-<uuid>`
 *   with REDIS_URL (it is not told C), then the same with the embedded Redis (no REDIS_URL);
 * - the hosted API's JS SDK (`@mendable/firecrawl-js`, its `parse` method) batched with p-limit, when installed
 *   outside the repo (`--sdk-dir`, default /tmp/sdk: `mkdir -p /tmp/sdk && cd /tmp/sdk && npm init -y &&
 *   npm i @mendable/firecrawl-js@4.42.0`; never a docmill dependency);
 * - a diagnosis row (`--skip-diagnosis` leaves it out): docmill's ApiGate from src driven the way DocumentProcessor
 *   drives it, without BullMQ, Redis or the store. It is not docmill; it separates the cost of the gate's policy
 *   from the cost of the pipeline around it.
 *
 * Each contender runs in its own process; the server runs in this one. Throughput is counted on the server, from
 * the first request it receives to the last answer it sends (process start-up and Redis start are not counted);
 * the wall time of the whole child process is reported beside it.
 *
 * Flags: --shapes LIST (concurrency) · --rate N (20, per window) · --window-kind fixed|sliding · --hint text|retry-after|x-ratelimit
 *        --files N (2000) · --latency MS (100) · --capacity C (4) · --concurrency N (docmill's, 16)
 *        --sdk-concurrency N (16) · --sdk-dir DIR (/tmp/sdk) · --redis-url URL (redis://127.0.0.1:6379)
 *        --skip-embedded · --skip-sdk · --skip-diagnosis · --keep (keep the temp folder with files and outputs)
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { RateLimitedError } from '../src/backend/errors.js';
import { RemoteParseApi } from '../src/client/remote-parse-api.js';
import { backoffMs } from '../src/client/retry-policy.js';
import { ApiGate } from '../src/pipeline/api-gate.js';
import { countOutputs, listHtmlFiles, makeHtmlFiles } from './lib/bench-files.js';
import { startCappedServer, type CappedServerOptions, type WindowOptions } from './lib/capped-parse-server.js';
import { commandLine, runChild, shellQuote } from './lib/child.js';
import { deleteQueueKeys } from './lib/redis-cleanup.js';
import { analyseLog, describeBursts, describeOccupancy, saveLog, type LogAnalysis } from './lib/request-log.js';
import { exitWithHelpIfAsked } from './lib/help.js';

exitWithHelpIfAsked(import.meta.url);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const THIS_FILE = fileURLToPath(import.meta.url);

const { values: flags } = parseArgs({
  options: {
    role: { type: 'string' },
    url: { type: 'string' },
    dir: { type: 'string' },
    files: { type: 'string', default: '2000' },
    latency: { type: 'string', default: '100' },
    capacity: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '16' },
    'sdk-concurrency': { type: 'string', default: '16' },
    'sdk-dir': { type: 'string', default: '/tmp/sdk' },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    shapes: { type: 'string', default: 'concurrency' },
    rate: { type: 'string', default: '20' },
    'window-ms': { type: 'string' },
    'window-kind': { type: 'string', default: 'fixed' },
    hint: { type: 'string', default: 'text' },
    'skip-embedded': { type: 'boolean', default: false },
    'skip-sdk': { type: 'boolean', default: false },
    'skip-diagnosis': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
  strict: true,
});

function int(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, not ${text}`);
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// Client roles (run in a child process): parse every file in --dir, print one JSON line.

interface ClientResult {
  converted: number;
  failed: number;
  failureCodes: Record<string, number>;
  /** Attempts the client says it made, when it can tell. */
  attempts?: number;
}

function codeOf(error: unknown): string {
  if (error && typeof error === 'object') {
    const e = error as { code?: unknown; status?: unknown; statusCode?: unknown; name?: unknown };
    const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
    const code = typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'error';
    return status !== undefined ? `${code} (${status})` : code;
  }
  return String(error);
}

async function runClientRole(role: string): Promise<void> {
  const url = flags.url ?? '';
  const files = await listHtmlFiles(flags.dir ?? '');
  const limit = pLimit(int('concurrency', flags.concurrency));
  const result: ClientResult = { converted: 0, failed: 0, failureCodes: {} };
  const fail = (error: unknown) => {
    result.failed++;
    const code = codeOf(error);
    result.failureCodes[code] = (result.failureCodes[code] ?? 0) + 1;
  };
  if (role === 'oracle') {
    const api = new RemoteParseApi({ apiUrl: url, retry: { maxAttempts: 5 } });
    let attempts = 0;
    await Promise.all(
      files.map((path) =>
        limit(async () => {
          try {
            const parsed = await api.parseFile(path, undefined);
            attempts += parsed.attempts;
            result.converted++;
          } catch (error) {
            attempts += (error as { attempts?: number }).attempts ?? 1;
            fail(error);
          }
        }),
      ),
    );
    result.attempts = attempts;
    await api.close();
  } else if (role === 'paced') {
    // Told the window: one request every W/N, whatever is in flight; a 429 (a window's edge) waits its text's wait.
    const intervalMs = Number(flags['window-ms']) / int('rate', flags.rate);
    const api = new RemoteParseApi({ apiUrl: url, retry: { maxAttempts: 1 } });
    let attempts = 0;
    let nextAt = performance.now();
    const turn = async () => {
      const at = Math.max(nextAt, performance.now());
      nextAt = at + intervalMs;
      const wait = at - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    };
    await Promise.all(
      files.map(async (path) => {
        for (;;) {
          await turn();
          attempts++;
          try {
            await api.parseFile(path, undefined);
            result.converted++;
            return;
          } catch (error) {
            if (error instanceof RateLimitedError) {
              await new Promise((r) => setTimeout(r, error.retryAfterMs ?? 1000));
              continue;
            }
            fail(error);
            return;
          }
        }
      }),
    );
    result.attempts = attempts;
    await api.close();
  } else if (role === 'gate') {
    // Diagnosis: docmill's way of calling the API without BullMQ, Redis or the store. As DocumentProcessor does:
    // open jobs = concurrency + max(2, ceil(concurrency / 4)); each goes through the gate; a 429 costs no attempt,
    // lowers the gate and waits its Retry-After plus jitter below 250 ms; other errors use the client's retries.
    const max = int('concurrency', flags.concurrency);
    const gate = new ApiGate({ max });
    const open = pLimit(max + Math.max(2, Math.ceil(max / 4)));
    const api = new RemoteParseApi({ apiUrl: url, retry: { maxAttempts: 5 } });
    let attempts = 0;
    await Promise.all(
      files.map((path) =>
        open(async () => {
          for (let throttles = 0; ; ) {
            const ticket = await gate.acquire();
            try {
              const parsed = await api.parseFile(path, undefined, { shouldRetry: (e) => !(e instanceof RateLimitedError) });
              attempts += parsed.attempts;
              gate.succeeded(ticket);
              result.converted++;
              return;
            } catch (error) {
              attempts += (error as { attempts?: number }).attempts ?? 1;
              if (error instanceof RateLimitedError) {
                throttles++;
                if (error.kind === 'concurrency') gate.concurrencyLimited(ticket);
                else gate.rateLimited(ticket, error.rateLimit);
                const waitMs = (error.retryAfterMs ?? backoffMs(Math.min(throttles, 5))) + Math.floor(Math.random() * 250);
                await new Promise((r) => setTimeout(r, waitMs));
                continue;
              }
              gate.released(ticket);
              fail(error);
              return;
            }
          }
        }),
      ),
    );
    result.attempts = attempts;
    await api.close();
  } else if (role === 'sdk') {
    const entry = join(flags['sdk-dir'] ?? '', 'node_modules/@mendable/firecrawl-js/dist/index.js');
    const sdk = (await import(pathToFileURL(entry).href)) as {
      FirecrawlClient: new (options: { apiUrl: string; apiKey: string }) => {
        parse(file: { data: Buffer; filename: string; contentType?: string }): Promise<unknown>;
      };
    };
    const client = new sdk.FirecrawlClient({ apiUrl: url, apiKey: 'bench' });
    await Promise.all(
      files.map((path) =>
        limit(async () => {
          try {
            await client.parse({ data: await readFile(path), filename: basename(path), contentType: 'text/html' });
            result.converted++;
          } catch (error) {
            fail(error);
          }
        }),
      ),
    );
  } else {
    throw new Error(`unknown role ${role}`);
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

// ---------------------------------------------------------------------------------------------------------------
// The benchmark.

type Shape = 'concurrency' | 'window-1s' | 'window-15s';

function shapesOf(text: string): Shape[] {
  const known: Shape[] = ['concurrency', 'window-1s', 'window-15s'];
  return text.split(',').map((name) => {
    const shape = known.find((k) => k === name.trim());
    if (!shape) throw new Error(`--shapes: unknown shape ${name} (known: ${known.join(', ')})`);
    return shape;
  });
}

function windowOf(shape: Shape): WindowOptions | undefined {
  if (shape === 'concurrency') return undefined;
  const kind = flags['window-kind'];
  const hint = flags.hint;
  if (kind !== 'fixed' && kind !== 'sliding') throw new Error(`--window-kind must be fixed or sliding, not ${kind}`);
  if (hint !== 'text' && hint !== 'retry-after' && hint !== 'x-ratelimit') throw new Error(`--hint must be text, retry-after or x-ratelimit, not ${hint}`);
  return { limit: int('rate', flags.rate), ms: shape === 'window-1s' ? 1000 : 15_000, kind, headers: hint === 'text' ? 'none' : hint };
}

interface Row {
  name: string;
  concurrency: string;
  converted: number;
  lost: number;
  analysis: LogAnalysis;
  wallMs: number;
  exit: string;
  command: string;
  notes: string[];
}

async function main(): Promise<void> {
  const files = int('files', flags.files);
  const shapes = shapesOf(flags.shapes ?? 'concurrency');
  const docmillBin = join(REPO, 'bin/docmill.js');
  if (!existsSync(join(REPO, 'dist/src/cli/main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first');
  }
  const work = await mkdtemp(join(tmpdir(), 'docmill-bench-limit-'));
  const docs = join(work, 'docs');
  await makeHtmlFiles(docs, files);

  console.log(`docmill benchmark: at the API's limit`);
  console.log(`  command: npx tsx bench/at-api-limit.ts ${process.argv.slice(2).map(shellQuote).join(' ')}`.trimEnd());
  console.log(
    `  machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), node ${process.version}, ${process.platform}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`  ${files} files of 200 bytes in ${docs}; shapes: ${shapes.join(', ')}`);
  console.log(`  each contender: its own process, a fresh server; timed from first request in to last answer out`);
  for (const shape of shapes) await runShape(shape, work, docs, files, docmillBin);
  console.log('');
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min; ${cpus().length} CPUs)`);
  if (flags.keep) console.log(`kept: ${work}`);
  else await rm(docs, { recursive: true, force: true });
}

async function runShape(shape: Shape, work: string, docs: string, files: number, docmillBin: string): Promise<void> {
  const window = windowOf(shape);
  const server: CappedServerOptions = {
    latencyMs: int('latency', flags.latency),
    // A window has no concurrency cap of its own: a cap no client here reaches.
    capacity: window ? 1000 : int('capacity', flags.capacity),
    retryAfterSeconds: 1,
    ...(window ? { window } : {}),
  };
  const C = server.capacity;
  // The best schedule: C/L at a concurrency cap, N/W at a window.
  const idealPerSecond = window ? (window.limit * 1000) / window.ms : (C * 1000) / server.latencyMs;
  const occupancyLevels = window ? 8 : C;
  const idealName = window ? 'N/W' : 'C/L';
  const docmillConcurrency = int('concurrency', flags.concurrency);
  const sdkConcurrency = int('sdk-concurrency', flags['sdk-concurrency']);
  const redisUrl = flags['redis-url'] ?? 'redis://127.0.0.1:6379';
  const logs = join(work, `logs-${shape}`);
  await mkdir(logs, { recursive: true });
  const perChildTimeoutMs = Math.max(120_000, (files / idealPerSecond) * 6_000);

  console.log('');
  console.log(`shape ${shape}`);
  if (window) {
    console.log(
      `  server: L = ${server.latencyMs} ms, N = ${window.limit} requests per ${window.ms} ms ${window.kind} window, then an immediate ` +
        `429 Rate limit exceeded (wait ${window.headers === 'none' ? 'only in the text' : `in the text and ${window.headers} headers`})`,
    );
  } else {
    console.log(`  server: L = ${server.latencyMs} ms, C = ${C} in flight, 429 + Retry-After: ${server.retryAfterSeconds} beyond`);
  }
  console.log(`  ${idealName} = ${idealPerSecond} docs/s`);

  const rows: Row[] = [];

  async function measure(
    name: string,
    concurrency: string,
    launch: (url: string, tag: string) => Promise<{ converted: number; wallMs: number; exit: string; command: string; notes: string[] }>,
  ): Promise<Row> {
    const capped = await startCappedServer(server);
    const tag = `${shape}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
    process.stdout.write(`  running ${name} … `);
    const startedAt = performance.now();
    try {
      const outcome = await launch(capped.url, tag);
      const analysis = analyseLog(capped.records, occupancyLevels);
      await saveLog(join(logs, `${tag}.requests.jsonl`), capped.records);
      if (capped.maxInFlight > C) outcome.notes.push(`server saw ${capped.maxInFlight} in flight (> C): bug in the server`);
      const row: Row = {
        name,
        concurrency,
        converted: outcome.converted,
        lost: files - outcome.converted,
        analysis,
        wallMs: outcome.wallMs,
        exit: outcome.exit,
        command: outcome.command,
        notes: outcome.notes,
      };
      rows.push(row);
      console.log(`${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
      return row;
    } finally {
      await capped.close();
    }
  }

  async function clientRole(role: 'oracle' | 'sdk' | 'gate' | 'paced', concurrency: number, url: string, tag: string) {
    const args = [...process.execArgv, THIS_FILE, '--role', role, '--url', url, '--dir', docs, '--concurrency', String(concurrency)];
    if (window) args.push('--rate', String(window.limit), '--window-ms', String(window.ms));
    if (role === 'sdk') args.push('--sdk-dir', flags['sdk-dir'] ?? '');
    const run = await runChild(process.execPath, args, {
      cwd: REPO,
      timeoutMs: perChildTimeoutMs,
      stdoutPath: join(logs, `${tag}.stdout`),
      stderrPath: join(logs, `${tag}.stderr`),
    });
    const line = run.stdout.trim().split('\n').pop() ?? '';
    let result: ClientResult = { converted: 0, failed: files, failureCodes: { 'no result': files } };
    try {
      result = JSON.parse(line) as ClientResult;
    } catch {
      // keep the default: everything lost
    }
    const notes: string[] = [];
    const codes = Object.entries(result.failureCodes).map(([code, n]) => `${n}× ${code}`);
    if (codes.length) notes.push(`failures: ${codes.join(', ')}`);
    if (run.timedOut) notes.push('TIMED OUT');
    if (run.stderr.trim()) notes.push(`stderr: ${run.stderr.trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`);
    return {
      converted: result.converted,
      wallMs: run.wallMs,
      exit: run.timedOut ? 'timeout' : String(run.code ?? run.signal),
      command: {
        sdk: `child process: @mendable/firecrawl-js FirecrawlClient.parse(), defaults (maxRetries 3, 502 only), p-limit(${concurrency})`,
        oracle: `child process: RemoteParseApi.parseFile(), the contract's retry rules, 5 attempts, p-limit(${concurrency})`,
        gate: `child process: src ApiGate({max: ${concurrency}}) + RemoteParseApi, 429 handling as DocumentProcessor; no BullMQ/Redis/store`,
        paced: `child process: RemoteParseApi.parseFile(), one request every W/N = ${window ? window.ms / window.limit : '?'} ms, a 429 waits its wait`,
      }[role],
      notes,
    };
  }

  async function docmill(url: string, tag: string, embedded: boolean) {
    const out = join(work, `out-${tag}`);
    const queue = `bench-${randomUUID()}`;
    const args = [docmillBin, 'run', docs, '--out', out, '--api-url', url, '--concurrency', String(docmillConcurrency), '--queue', queue];
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.REDIS_URL;
    delete env.DOCMILL_API_KEY;
    delete env.FIRECRAWL_API_KEY;
    const shownEnv: Record<string, string> = {};
    if (!embedded) {
      env.REDIS_URL = redisUrl;
      shownEnv.REDIS_URL = redisUrl;
    }
    const run = await runChild(process.execPath, args, {
      cwd: REPO,
      env,
      timeoutMs: perChildTimeoutMs,
      stdoutPath: join(logs, `${tag}.stdout`),
      stderrPath: join(logs, `${tag}.stderr`),
    });
    const converted = await countOutputs(out);
    const notes: string[] = [];
    const summary = run.stderr.split('\n').find((l) => l.startsWith('docmill: '));
    if (summary) notes.push(`docmill said: ${summary.trim()}`);
    if (run.timedOut) notes.push('TIMED OUT');
    const errors = run.stderr.split('\n').filter((l) => /"level":(50|60)/.test(l)).length;
    if (errors) notes.push(`${errors} error log lines (see ${join(logs, `${tag}.stderr`)})`);
    if (!embedded) {
      const deleted = await deleteQueueKeys(redisUrl, queue).catch(() => 0);
      notes.push(`queue ${queue}: ${deleted} Redis keys removed afterwards`);
    }
    return {
      converted,
      wallMs: run.wallMs,
      exit: run.timedOut ? 'timeout' : String(run.code ?? run.signal),
      command: commandLine(shownEnv, 'node', ['bin/docmill.js', ...args.slice(1)]),
      notes,
    };
  }

  if (window) await measure('oracle (told N/W)', `every ${window.ms / window.limit} ms`, (url, tag) => clientRole('paced', 1, url, tag));
  else {
    await measure('oracle (C)', String(C), (url, tag) => clientRole('oracle', C, url, tag));
    await measure('2C client', String(2 * C), (url, tag) => clientRole('oracle', 2 * C, url, tag));
  }
  await measure('docmill (REDIS_URL)', `--concurrency ${docmillConcurrency}`, (url, tag) => docmill(url, tag, false));
  if (!flags['skip-embedded']) {
    await measure('docmill (embedded Redis)', `--concurrency ${docmillConcurrency}`, (url, tag) => docmill(url, tag, true));
  }
  const sdkEntry = join(flags['sdk-dir'] ?? '', 'node_modules/@mendable/firecrawl-js/dist/index.js');
  let sdkNote = '';
  if (flags['skip-sdk'] || window) sdkNote = 'SDK row skipped (--skip-sdk, or a window shape)';
  else if (!existsSync(sdkEntry)) sdkNote = `SDK row skipped: ${sdkEntry} not found (see BENCHMARKS.md to install it)`;
  else {
    const pkg = JSON.parse(await readFile(join(dirname(dirname(sdkEntry)), 'package.json'), 'utf8')) as { version: string };
    await measure(`JS SDK ${pkg.version}`, `p-limit(${sdkConcurrency})`, (url, tag) => clientRole('sdk', sdkConcurrency, url, tag));
  }

  if (!flags['skip-diagnosis']) {
    await measure('diag: src ApiGate, no BullMQ', `gate max ${docmillConcurrency}`, (url, tag) =>
      clientRole('gate', docmillConcurrency, url, tag),
    );
  }

  // The table.
  const oracle = rows[0];
  const oracleRate = oracle && oracle.analysis.windowMs > 0 ? oracle.converted / (oracle.analysis.windowMs / 1000) : 0;
  const header = ['contender', 'in flight asked', 'docs/s', `×${idealName}`, '×oracle', 'lost', 'requests', '429 %', 'server window s', 'wall s', 'exit'];
  const table = rows.map((row) => {
    const seconds = row.analysis.windowMs / 1000;
    const rate = seconds > 0 ? row.converted / seconds : 0;
    return [
      row.name,
      row.concurrency,
      rate.toFixed(2),
      (rate / idealPerSecond).toFixed(3),
      oracleRate > 0 ? (rate / oracleRate).toFixed(3) : '-',
      `${row.lost} (${((row.lost / files) * 100).toFixed(1)} %)`,
      String(row.analysis.requests),
      row.analysis.requests ? ((row.analysis.throttled / row.analysis.requests) * 100).toFixed(2) : '-',
      seconds.toFixed(2),
      (row.wallMs / 1000).toFixed(2),
      row.exit,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log('');
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of table) console.log(line(r));
  console.log('');
  console.log(`${idealName} = ${idealPerSecond} docs/s · ${files} files · docs/s = converted files / server window`);
  if (sdkNote) console.log(sdkNote);

  console.log('');
  console.log('Details (server side). occupancy = share of the window with k accepted requests in flight;');
  console.log('refill = ms from an answer freeing a slot to the next accepted request; 429 bursts = time×count');
  for (const row of rows) {
    const a = row.analysis;
    console.log(`- ${row.name}: ${row.command}`);
    console.log(`    occupancy ${describeOccupancy(a)} · mean in flight ${a.meanInFlight.toFixed(2)}${window ? '' : ` of ${C}`}`);
    console.log(
      `    refill p50 ${a.refill.p50.toFixed(1)} ms, p95 ${a.refill.p95.toFixed(1)} ms, mean ${a.refill.mean.toFixed(1)} ms, max ${a.refill.max.toFixed(0)} ms`,
    );
    console.log(`    429: ${a.throttled} in ${a.bursts.length} bursts: ${describeBursts(a)}`);
    for (const note of row.notes) console.log(`    ${note}`);
  }

  const docmillRow = rows.find((r) => r.name.startsWith('docmill'));
  if (docmillRow && window) {
    const rate = docmillRow.converted / (docmillRow.analysis.windowMs / 1000);
    const share429 = docmillRow.analysis.requests ? docmillRow.analysis.throttled / docmillRow.analysis.requests : 1;
    console.log('');
    console.log(`Targets (issue 21), ${docmillRow.name}:`);
    console.log(`  docs/s ≥ 0.95 × N/W: ${(rate / idealPerSecond).toFixed(3)} → ${rate / idealPerSecond >= 0.95 ? 'met' : 'MISSED'}`);
    console.log(`  0 files lost: ${docmillRow.lost} → ${docmillRow.lost === 0 ? 'met' : 'MISSED'}`);
    console.log(`  ≤ 5 % of requests answered 429: ${(share429 * 100).toFixed(2)} % → ${share429 <= 0.05 ? 'met' : 'MISSED'}`);
  } else if (docmillRow && oracleRate > 0) {
    const rate = docmillRow.converted / (docmillRow.analysis.windowMs / 1000);
    const share429 = docmillRow.analysis.requests ? docmillRow.analysis.throttled / docmillRow.analysis.requests : 1;
    console.log('');
    console.log(`Targets (issue 3), ${docmillRow.name}:`);
    console.log(`  docs/s ≥ 0.98 × oracle: ${(rate / oracleRate).toFixed(3)} → ${rate / oracleRate >= 0.98 ? 'met' : 'MISSED'}`);
    console.log(`  0 files lost: ${docmillRow.lost} → ${docmillRow.lost === 0 ? 'met' : 'MISSED'}`);
    console.log(`  ≤ 2 % of requests answered 429: ${(share429 * 100).toFixed(2)} % → ${share429 <= 0.02 ? 'met' : 'MISSED'}`);
  }
  console.log(`  load average now: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`request logs (JSON lines, ms from the first request): ${logs}`);
  if (!flags.keep) {
    for (const entry of await readdir(work)) if (entry.startsWith('out-')) await rm(join(work, entry), { recursive: true, force: true });
  }
}

if (flags.role) {
  await runClientRole(flags.role);
} else {
  await main();
}
