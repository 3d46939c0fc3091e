/**
 * Benchmark "scale-out" (issue 10, item 9). Run by hand, never by the tests:
 *
 *   npm run build && npx tsx bench/scale-out.ts              # 400 files, 1, 2 and 4 workers, about 2 minutes
 *   npx tsx bench/scale-out.ts --files 200 --workers 1,4     # a quick look
 *
 * One capped loopback parse server (bench/lib/capped-parse-server.ts: L = 100 ms, at most C = 4 in flight, an
 * immediate `429 Concurrency limit reached` + `Retry-After: 1` beyond), fresh for each contender:
 *
 * - oracle: bench/lib/oracle-child.ts at C (a client that knows C);
 * - N docmill workers, for each N of --workers: N processes of
 *   `node bin/docmill.js worker --queue bench-<uuid> --out <tmp> --api-url <server> --concurrency 16` with
 *   REDIS_URL, all on one queue (none is told C); once each has logged that it started, the files are queued with
 *   `docmill enqueue`, and the workers are stopped (SIGTERM) when the queue has finished every job.
 *
 * From the server's log: documents per second over its window (first request in to last answer out), the share of
 * requests answered 429, and documents parsed twice (files the server answered 200 for more than once).
 *
 * Flags: --files N (400) · --workers LIST (1,2,4) · --latency MS (100) · --capacity C (4)
 *        --concurrency N (each worker's, 16) · --redis-url URL (redis://127.0.0.1:6379) · --keep
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { countOutputs, makeHtmlFiles } from './lib/bench-files.js';
import { startCappedServer, type CappedServerOptions } from './lib/capped-parse-server.js';
import { commandLine, runChild, shellQuote } from './lib/child.js';
import { runOracle } from './lib/oracle-run.js';
import { deleteQueueKeys } from './lib/redis-cleanup.js';
import { analyseLog, describeBursts, filesParsedTwice, saveLog, type LogAnalysis } from './lib/request-log.js';
import { markdownTable } from './lib/table.js';
import { exitWithHelpIfAsked } from './lib/help.js';

exitWithHelpIfAsked(import.meta.url);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: flags } = parseArgs({
  options: {
    files: { type: 'string', default: '400' },
    workers: { type: 'string', default: '1,2,4' },
    latency: { type: 'string', default: '100' },
    capacity: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '16' },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    keep: { type: 'boolean', default: false },
  },
  strict: true,
});

function int(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, not ${text}`);
  return value;
}

interface Row {
  name: string;
  converted: number;
  analysis: LogAnalysis;
  twice: number;
  wallMs: number;
  notes: string[];
}

/** Resolves once the child's stderr has shown `text`, rejects when it exits first or after `ms`. */
function waitForLine(child: ChildProcess, text: string, ms: number): Promise<void> {
  return new Promise((done, fail) => {
    let seen = '';
    const timer = setTimeout(() => fail(new Error(`no "${text}" within ${ms} ms: ${seen.slice(-500)}`)), ms);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4000);
      if (seen.includes(text)) {
        clearTimeout(timer);
        done();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`worker exited (${code}) before "${text}": ${seen.slice(-500)}`));
    });
  });
}

async function main(): Promise<void> {
  const files = int('files', flags.files);
  const counts = (flags.workers ?? '').split(',').map((n) => int('workers', n));
  const concurrency = int('concurrency', flags.concurrency);
  const redisUrl = flags['redis-url'] ?? 'redis://127.0.0.1:6379';
  const server: CappedServerOptions = { latencyMs: int('latency', flags.latency), capacity: int('capacity', flags.capacity), retryAfterSeconds: 1 };
  const C = server.capacity;
  const ideal = (C * 1000) / server.latencyMs;
  if (!existsSync(join(REPO, 'dist/src/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');

  const work = await mkdtemp(join(tmpdir(), 'docmill-bench-scale-'));
  const docs = join(work, 'docs');
  const logs = join(work, 'logs');
  await mkdir(logs, { recursive: true });
  await makeHtmlFiles(docs, files);
  const timeoutMs = Math.max(240_000, (files / ideal) * 8000);

  console.log('docmill benchmark: scale-out');
  console.log(`  command: npx tsx bench/scale-out.ts ${process.argv.slice(2).map(shellQuote).join(' ')}`.trimEnd());
  console.log(`  machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), node ${process.version}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`  server: L = ${server.latencyMs} ms, C = ${C} in flight, 429 + Retry-After 1 s beyond; C/L = ${ideal} docs/s; ${files} files`);
  console.log('');

  const rows: Row[] = [];

  async function measure(name: string, launch: (url: string, tag: string) => Promise<{ converted: number; wallMs: number; notes: string[] }>) {
    const capped = await startCappedServer(server);
    const tag = name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    process.stdout.write(`  running ${name} … `);
    try {
      const outcome = await launch(capped.url, tag);
      await saveLog(join(logs, `${tag}.requests.jsonl`), capped.records);
      const analysis = analyseLog(capped.records, C);
      if (capped.maxInFlight > C) outcome.notes.push(`server saw ${capped.maxInFlight} in flight (> C): bug in the server`);
      rows.push({ name, converted: outcome.converted, analysis, twice: filesParsedTwice(capped.records).length, wallMs: outcome.wallMs, notes: outcome.notes });
      console.log(`${(analysis.windowMs / 1000).toFixed(1)} s`);
    } finally {
      await capped.close();
    }
  }

  async function oracle(url: string, tag: string) {
    const run = await runOracle({ repo: REPO, url, dir: docs, slots: C, files, timeoutMs, logs, tag });
    return { converted: run.result.converted, wallMs: run.wallMs, notes: run.timedOut ? ['TIMED OUT'] : [] };
  }

  async function workers(count: number, url: string, tag: string) {
    const queueName = `bench-${randomUUID()}`;
    const out = join(work, `out-${tag}`);
    const env: NodeJS.ProcessEnv = { ...process.env, REDIS_URL: redisUrl };
    delete env.DOCMILL_API_KEY;
    delete env.FIRECRAWL_API_KEY;
    const workerArgs = ['bin/docmill.js', 'worker', '--queue', queueName, '--out', out, '--api-url', url, '--concurrency', String(concurrency)];
    const notes = [`${count} × ${commandLine({ REDIS_URL: redisUrl }, 'node', workerArgs)}`];
    const started = performance.now();
    const children = Array.from({ length: count }, (_, i) => {
      const child = spawn(process.execPath, workerArgs, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.pipe(createWriteStream(join(logs, `${tag}.w${i}.stdout`)));
      child.stderr.pipe(createWriteStream(join(logs, `${tag}.w${i}.stderr`)));
      return child;
    });
    const exited = children.map((child) => new Promise<number | null>((done) => child.once('exit', (code) => done(code))));
    const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue(queueName, { connection, prefix: '{docmill}' });
    try {
      await Promise.all(children.map((child) => waitForLine(child, 'worker started', 60_000)));
      const enqueueArgs = ['bin/docmill.js', 'enqueue', docs, '--queue', queueName, '--out', out];
      notes.push(`then ${commandLine({ REDIS_URL: redisUrl }, 'node', enqueueArgs)}`);
      const enqueued = await runChild(process.execPath, enqueueArgs, { cwd: REPO, env, timeoutMs: 60_000, stdoutPath: join(logs, `${tag}.enqueue.stdout`), stderrPath: join(logs, `${tag}.enqueue.stderr`) });
      if (enqueued.code !== 0) throw new Error(`enqueue failed (${enqueued.code}): ${enqueued.stderr.slice(-500)}`);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const jobs = await queue.getJobCounts('completed', 'failed');
        if ((jobs.completed ?? 0) + (jobs.failed ?? 0) >= files) {
          if (jobs.failed) notes.push(`${jobs.failed} jobs failed`);
          break;
        }
        if (Date.now() > deadline) {
          notes.push('TIMED OUT');
          break;
        }
        await new Promise((done) => setTimeout(done, 100));
      }
    } finally {
      for (const child of children) child.kill('SIGTERM');
      const codes = await Promise.race([Promise.all(exited), new Promise<'stuck'>((done) => setTimeout(() => done('stuck'), 20_000))]);
      if (codes === 'stuck') {
        notes.push('workers did not stop within 20 s of SIGTERM: killed');
        for (const child of children) child.kill('SIGKILL');
      } else if (codes.some((code) => code !== 0)) notes.push(`worker exit codes ${codes.join(', ')}`);
      await queue.close();
      connection.disconnect();
      const deleted = await deleteQueueKeys(redisUrl, queueName).catch(() => 0);
      notes.push(`queue keys removed afterwards: ${deleted}`);
    }
    return { converted: await countOutputs(out), wallMs: performance.now() - started, notes };
  }

  await measure('oracle (C)', oracle);
  for (const count of counts) await measure(`${count} docmill worker${count > 1 ? 's' : ''}`, (url, tag) => workers(count, url, tag));

  const oracleRow = rows[0];
  const rate = (row: Row) => (row.analysis.windowMs > 0 ? row.converted / (row.analysis.windowMs / 1000) : 0);
  const oracleRate = oracleRow ? rate(oracleRow) : 0;
  const header = ['contender', 'docs/s', '×C/L', '×oracle', 'lost', 'parsed twice', 'requests', '429 %', 'mean in flight', 'server window s', 'wall s'];
  const table = rows.map((row) => [
    row.name,
    rate(row).toFixed(2),
    (rate(row) / ideal).toFixed(3),
    oracleRate > 0 ? (rate(row) / oracleRate).toFixed(3) : '-',
    String(files - row.converted),
    String(row.twice),
    String(row.analysis.requests),
    row.analysis.requests ? ((row.analysis.throttled / row.analysis.requests) * 100).toFixed(2) : '-',
    row.analysis.meanInFlight.toFixed(2),
    (row.analysis.windowMs / 1000).toFixed(2),
    (row.wallMs / 1000).toFixed(2),
  ]);
  console.log('');
  console.log(markdownTable(header, table));
  console.log('');
  for (const row of rows) {
    console.log(`- ${row.name}: 429 bursts ${describeBursts(row.analysis, 12)}`);
    for (const note of row.notes) console.log(`    ${note}`);
  }
  console.log('');
  console.log('Targets (issue 10, item 9): ≥ 0.95 × oracle docs/s, ≤ 3 % of requests answered 429, 0 parsed twice');
  for (const row of rows.slice(1)) {
    const ratio = oracleRate > 0 ? rate(row) / oracleRate : 0;
    const share = row.analysis.requests ? row.analysis.throttled / row.analysis.requests : 1;
    const met = ratio >= 0.95 && share <= 0.03 && row.twice === 0 && row.converted === files;
    console.log(`  ${row.name}: ${ratio.toFixed(3)} × oracle, ${(share * 100).toFixed(2)} % 429, ${row.twice} twice, ${files - row.converted} lost → ${met ? 'met' : 'MISSED'}`);
  }
  console.log('');
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`request logs (JSON lines, ms from the first request): ${logs}`);
  if (flags.keep) console.log(`kept: ${work}`);
  else {
    await rm(docs, { recursive: true, force: true });
    for (const row of rows) await rm(join(work, `out-${row.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`), { recursive: true, force: true });
  }
}

await main();
