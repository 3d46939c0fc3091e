/**
 * Benchmark "fault storm" (issue 10, item 5). Run by hand, never by the tests:
 *
 *   npm run build && npx tsx bench/fault-storm.ts          # 300 files, about 2 minutes
 *   npx tsx bench/fault-storm.ts --files 100 --skip-calm   # a quick look
 *
 * A capped loopback parse server (bench/lib/capped-parse-server.ts: L = 50 ms, C = 4 in flight, an immediate
 * `429 Concurrency limit reached` + `Retry-After: 1` beyond) answers 30 % of the requests it accepts, after the
 * same latency, with a fault drawn evenly from 408, 429 (`Concurrency limit reached`, `Retry-After: 2`), 500, 502
 * and 503, from a seeded generator (every contender meets the same sequence of answers). Side by side, each in its
 * own process against a fresh server:
 *
 * - oracle: bench/lib/oracle-child.ts at C: the contract's retry rules, Retry-After honoured, no slot held while a
 *   file waits to retry;
 * - docmill: `node bin/docmill.js run <dir> --out <tmp> --api-url <server> --concurrency 16 --queue bench-<uuid>`
 *   with REDIS_URL (it is not told C);
 * - the same two in a calm storm (`--skip-calm` leaves them out): the same share of faults without the 429s.
 *
 * Checked from the server's log: the window (first request in to last answer out), documents lost, the share of
 * 429s, and Retry-After: no request for a file may arrive within the Retry-After of a 429 answered for that file.
 *
 * Flags: --files N (300) · --fault-rate R (0.3) · --mix "408:1,429:1,500:1,502:1,503:1" · --fault-retry-after S (2)
 *        --latency MS (50) · --capacity C (4) · --concurrency N (docmill's, 16) · --seed N (1)
 *        --redis-url URL (redis://127.0.0.1:6379) · --skip-calm · --keep
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countOutputs, makeHtmlFiles } from './lib/bench-files.js';
import { startCappedServer, type CappedServerOptions, type FaultStatus } from './lib/capped-parse-server.js';
import { commandLine, runChild, shellQuote } from './lib/child.js';
import { runOracle } from './lib/oracle-run.js';
import { deleteQueueKeys } from './lib/redis-cleanup.js';
import { describeStatuses, filesParsedTwice, retryAfterBreaches, saveLog, unnamedRequests } from './lib/request-log.js';
import { markdownTable } from './lib/table.js';
import { exitWithHelpIfAsked } from './lib/help.js';

exitWithHelpIfAsked(import.meta.url);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: flags } = parseArgs({
  options: {
    files: { type: 'string', default: '300' },
    'fault-rate': { type: 'string', default: '0.3' },
    mix: { type: 'string', default: '408:1,429:1,500:1,502:1,503:1' },
    'fault-retry-after': { type: 'string', default: '2' },
    latency: { type: 'string', default: '50' },
    capacity: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '16' },
    seed: { type: 'string', default: '1' },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    'skip-calm': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
  strict: true,
});

function int(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, not ${text}`);
  return value;
}

function parseMix(text: string): Partial<Record<FaultStatus, number>> {
  const mix: Partial<Record<FaultStatus, number>> = {};
  for (const part of text.split(',')) {
    const [status, weight] = part.split(':').map(Number);
    if (![408, 429, 500, 502, 503, 504].includes(status ?? 0) || !(Number(weight) >= 0)) throw new Error(`--mix: bad entry ${part}`);
    mix[status as FaultStatus] = Number(weight);
  }
  return mix;
}

interface Row {
  name: string;
  storm: string;
  converted: number;
  windowMs: number;
  wallMs: number;
  requests: number;
  statuses: string;
  capRefusals: number;
  injected429: number;
  breaches: number;
  twice: number;
  unnamed: number;
  exit: string;
  notes: string[];
}

async function main(): Promise<void> {
  const files = int('files', flags.files);
  const faultRate = Number(flags['fault-rate']);
  if (!(faultRate >= 0 && faultRate < 1)) throw new Error('--fault-rate must be in [0, 1)');
  const mix = parseMix(flags.mix ?? '');
  const capacity = int('capacity', flags.capacity);
  const latencyMs = int('latency', flags.latency);
  const concurrency = int('concurrency', flags.concurrency);
  const redisUrl = flags['redis-url'] ?? 'redis://127.0.0.1:6379';
  const seed = int('seed', flags.seed);
  if (!existsSync(join(REPO, 'dist/src/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');

  const work = await mkdtemp(join(tmpdir(), 'docmill-bench-storm-'));
  const docs = join(work, 'docs');
  const logs = join(work, 'logs');
  await mkdir(logs, { recursive: true });
  await makeHtmlFiles(docs, files);
  const timeoutMs = Math.max(300_000, files * 1000);

  const serverFor = (storm: 'storm' | 'calm'): CappedServerOptions => {
    const stormMix = storm === 'storm' ? mix : { ...mix, 429: 0 };
    return {
      latencyMs,
      capacity,
      retryAfterSeconds: 1,
      faults: { rate: faultRate, mix: stormMix, retryAfterSeconds: int('fault-retry-after', flags['fault-retry-after']), seed },
    };
  };

  console.log('docmill benchmark: fault storm');
  console.log(`  command: npx tsx bench/fault-storm.ts ${process.argv.slice(2).map(shellQuote).join(' ')}`.trimEnd());
  console.log(`  machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), node ${process.version}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`  server: L = ${latencyMs} ms, C = ${capacity}; ${(faultRate * 100).toFixed(0)} % of accepted requests answered with a fault from ${flags.mix}`);
  console.log(`  injected 429: Retry-After ${flags['fault-retry-after']} s; over C: 429 + Retry-After 1 s; ${files} files`);
  console.log('');

  const rows: Row[] = [];

  async function measure(name: string, storm: 'storm' | 'calm', launch: (url: string, tag: string) => Promise<{ converted: number; wallMs: number; exit: string; notes: string[] }>) {
    const server = await startCappedServer(serverFor(storm));
    const tag = `${name}-${storm}`.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    process.stdout.write(`  running ${name} (${storm}) … `);
    try {
      const outcome = await launch(server.url, tag);
      const records = server.records;
      await saveLog(join(logs, `${tag}.requests.jsonl`), records);
      const start = records.length ? Math.min(...records.map((r) => r.arrivedAt)) : 0;
      const end = records.length ? Math.max(...records.map((r) => r.answeredAt)) : 0;
      const breaches = retryAfterBreaches(records);
      if (breaches.length) {
        const shown = breaches.slice(0, 5).map((b) => `${b.file} back ${b.cameBackAfterMs.toFixed(0)} ms after a 429 (Retry-After ${b.retryAfterMs} ms)`);
        outcome.notes.push(`Retry-After broken: ${shown.join('; ')}`);
      }
      rows.push({
        name,
        storm,
        converted: outcome.converted,
        windowMs: end - start,
        wallMs: outcome.wallMs,
        requests: records.length,
        statuses: describeStatuses(records),
        capRefusals: records.filter((r) => r.status === 429 && !r.injected).length,
        injected429: records.filter((r) => r.status === 429 && r.injected).length,
        breaches: breaches.length,
        twice: filesParsedTwice(records).length,
        unnamed: unnamedRequests(records),
        exit: outcome.exit,
        notes: outcome.notes,
      });
      console.log(`${((end - start) / 1000).toFixed(1)} s`);
    } finally {
      await server.close();
    }
  }

  async function oracle(url: string, tag: string) {
    const run = await runOracle({ repo: REPO, url, dir: docs, slots: capacity, files, timeoutMs, logs, tag });
    const notes = Object.entries(run.result.failureCodes).map(([code, n]) => `failed: ${n}× ${code}`);
    if (run.timedOut) notes.push('TIMED OUT');
    return { converted: run.result.converted, wallMs: run.wallMs, exit: run.exit, notes };
  }

  async function docmill(url: string, tag: string) {
    const out = join(work, `out-${tag}`);
    const queue = `bench-${randomUUID()}`;
    const args = ['bin/docmill.js', 'run', docs, '--out', out, '--api-url', url, '--concurrency', String(concurrency), '--queue', queue];
    const env: NodeJS.ProcessEnv = { ...process.env, REDIS_URL: redisUrl };
    delete env.DOCMILL_API_KEY;
    delete env.FIRECRAWL_API_KEY;
    const run = await runChild(process.execPath, args, { cwd: REPO, env, timeoutMs, stdoutPath: join(logs, `${tag}.stdout`), stderrPath: join(logs, `${tag}.stderr`) });
    const notes: string[] = [];
    const summary = run.stderr.split('\n').find((l) => l.startsWith('docmill: '));
    if (summary) notes.push(`docmill said: ${summary.trim()}`);
    if (run.timedOut) notes.push('TIMED OUT');
    const deleted = await deleteQueueKeys(redisUrl, queue).catch(() => 0);
    notes.push(`${commandLine({ REDIS_URL: redisUrl }, 'node', args)} (queue keys removed afterwards: ${deleted})`);
    return { converted: await countOutputs(out), wallMs: run.wallMs, exit: run.timedOut ? 'timeout' : String(run.code ?? run.signal), notes };
  }

  const storms: ('storm' | 'calm')[] = flags['skip-calm'] ? ['storm'] : ['storm', 'calm'];
  for (const storm of storms) {
    await measure('oracle (C)', storm, oracle);
    await measure(`docmill --concurrency ${concurrency}`, storm, docmill);
  }

  const header = ['contender', 'storm', 'converted', 'lost', 'server window s', '×oracle', 'wall s', 'requests', 'answers', '429 over C', 'Retry-After broken', 'parsed twice', 'exit'];
  const table = rows.map((row) => {
    const oracleRow = rows.find((r) => r.storm === row.storm && r.name.startsWith('oracle'));
    return [
      row.name,
      row.storm === 'storm' ? 'with 429s' : 'no 429s',
      String(row.converted),
      String(files - row.converted),
      (row.windowMs / 1000).toFixed(2),
      oracleRow && oracleRow.windowMs > 0 ? (row.windowMs / oracleRow.windowMs).toFixed(3) : '-',
      (row.wallMs / 1000).toFixed(2),
      String(row.requests),
      row.statuses,
      `${row.capRefusals} (${row.requests ? ((row.capRefusals / row.requests) * 100).toFixed(1) : '0'} %)`,
      String(row.breaches),
      String(row.twice),
      row.exit,
    ];
  });
  console.log('');
  console.log(markdownTable(header, table));
  console.log('');
  for (const row of rows) {
    if (row.unnamed) row.notes.push(`${row.unnamed} requests without a readable file name (not checked)`);
    for (const note of row.notes) console.log(`- ${row.name} (${row.storm}): ${note}`);
  }
  const stormOracle = rows.find((r) => r.storm === 'storm' && r.name.startsWith('oracle'));
  const stormDocmill = rows.find((r) => r.storm === 'storm' && r.name.startsWith('docmill'));
  if (stormOracle && stormDocmill && stormOracle.windowMs > 0) {
    const ratio = stormDocmill.windowMs / stormOracle.windowMs;
    console.log('');
    console.log('Targets (issue 10, item 5), docmill in the storm:');
    console.log(`  within 1.25 × the oracle's time: ${ratio.toFixed(3)} → ${ratio <= 1.25 ? 'met' : 'MISSED'}`);
    console.log(`  0 lost: ${files - stormDocmill.converted} → ${stormDocmill.converted === files ? 'met' : 'MISSED'}`);
    console.log(`  Retry-After never broken: ${stormDocmill.breaches} → ${stormDocmill.breaches === 0 ? 'met' : 'MISSED'}`);
  }
  console.log('');
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`request logs (JSON lines, ms from the first request): ${logs}`);
  if (flags.keep) console.log(`kept: ${work}`);
  else {
    await rm(docs, { recursive: true, force: true });
    for (const storm of storms) await rm(join(work, `out-docmill-concurrency-${concurrency}-${storm}`), { recursive: true, force: true });
  }
}

await main();
