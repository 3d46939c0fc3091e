/**
 * Benchmark "small documents" (issue 26). Run by hand, never by the tests:
 *
 *   npm run build && npx tsx bench/small-docs.ts          # 1,000 small HTML pages, about a minute
 *   npx tsx bench/small-docs.ts --mixed 600               # the test corpus, copied to 600 files, unique bytes each
 *   npx tsx bench/small-docs.ts --embedded --rounds 2     # also docmill with its embedded Redis; best of two rounds
 *   npx tsx bench/small-docs.ts --cpu-prof /tmp/prof      # a CPU profile of docmill's main process
 *
 * Side by side in one invocation, over the same files, each contender a fresh process from start to exit:
 *
 * - bare loop: bench/lib/small-docs-bare-child.ts, the built engine (`LocalParseEngine`, default threads) under `p-limit`
 *   at --concurrency: read, parse, write the Markdown. Nothing else: no queue, no store, no fsync. Started with the
 *   settings docmill's launcher starts itself with (V8's tiering, src/cli/v8-tiering.ts; on Node 22.15 and later the
 *   allocator's arenas and the young generation's size, src/cli/launcher-settings.ts), or with node's defaults under
 *   --bare-plain.
 * - docmill: `node bin/docmill.js run <files> --out <tmp> --concurrency N` (built `dist/`), REDIS_URL = --redis-url;
 *   with --embedded, once more with its embedded Redis (no REDIS_URL).
 *
 * Printed: each contender's wall time, CPU time (user + system, all its threads and children, by /usr/bin/time when
 * installed) and documents per second, docmill's ratio to the bare loop; Redis commands per
 * document from `INFO commandstats` before and after docmill's run, less what the same server counted per second
 * while the bare loop ran (it sends none: that is other clients of a shared server); flushes to disk per document: the
 * fsync, fdatasync, syncfs and sync calls, each one, counted by `strace -f -c` (seccomp-filtered, so only those calls
 * stop the process) over the process and everything it starts (the local store's group commit runs `sync -f`, one
 * syncfs, from a shell of its own) when strace is installed (`apt-get install -y strace`), else not counted. strace
 * still costs the traced run time of its own (2026-11-25: about 3 s of system time a run of 1,000 pages, more than
 * the fsyncs it counts), so throughputs are compared with --no-strace and flushes counted in a run with it.
 *
 * Workloads: --files N small HTML pages of --size bytes (default 1,000 of 2,048), 100 to a folder; or --mixed N:
 * every file of test/fixtures/corpus copied round-robin to N files, each copy with bytes of its own appended (a
 * comment in text formats, trailing bytes in the others) so the content index cannot skip a copy as already
 * converted. A copy the engine refuses fails in both contenders alike.
 *
 * Flags: --files N (1000) · --size BYTES (2048) · --mixed N · --concurrency N (8) · --rounds N (1; the best round
 *        of each contender is reported) · --redis-url URL (redis://127.0.0.1:6379) · --own-redis (a redis-server of
 *        the bench's own on a free port of 127.0.0.1, no persistence: a shared server's other clients then add
 *        nothing to the command counts) · --embedded · --no-strace ·
 *        --bare-plain ·
 *        --before DIR (also run the docmill of another built checkout, e.g. an earlier commit, side by side) ·
 *        --monitor (also count the commands docmill sends, a script call as one, through MONITOR: slows Redis, so
 *        the throughput of that run reads low) · --cpu-prof DIR · --keep
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { queueNameForOutput } from '../src/queue/queue-names.js';
import { tieringOption } from '../src/cli/v8-tiering.js';
import { launcherSettings } from '../src/cli/launcher-settings.js';
import { countMarkdownOutputs, makeMixedCopies } from './lib/bench-files.js';
import { runChild, shellQuote, type ChildRun } from './lib/child.js';
import { transpileForNode } from './lib/plain-node.js';
import { deleteQueueKeys } from './lib/redis-cleanup.js';
import { markdownTable } from './lib/table.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = join(REPO, 'test/fixtures/corpus');

const { values: flags } = parseArgs({
  options: {
    files: { type: 'string', default: '1000' },
    size: { type: 'string', default: '2048' },
    mixed: { type: 'string' },
    concurrency: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '1' },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    'own-redis': { type: 'boolean', default: false },
    embedded: { type: 'boolean', default: false },
    'no-strace': { type: 'boolean', default: false },
    'bare-plain': { type: 'boolean', default: false },
    monitor: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    before: { type: 'string' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

if (flags.help) {
  process.stdout.write(
    'npx tsx bench/small-docs.ts [--files 1000] [--size 2048] [--mixed N] [--concurrency 8] [--rounds 1]\n' +
      '                            [--redis-url URL] [--embedded] [--no-strace] [--bare-plain] [--monitor] [--cpu-prof DIR] [--keep]\n',
  );
  process.exit(0);
}

function int(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, not ${text}`);
  return value;
}

const concurrency = int('concurrency', flags.concurrency);
const rounds = int('rounds', flags.rounds);
const ownRedis = flags['own-redis'] ? await startOwnRedis() : undefined;
const redisUrl = ownRedis?.url ?? flags['redis-url'];

/** A redis-server for this benchmark alone, on a free port; stopped at the end. */
async function startOwnRedis(): Promise<{ url: string; stop: () => void }> {
  const port = await new Promise<number>((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  probe.on('error', () => undefined);
  for (let tries = 0; ; tries++) {
    try {
      await probe.connect();
      break;
    } catch (error) {
      if (tries > 50) throw error;
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  probe.disconnect();
  return { url, stop: () => child.kill('SIGTERM') };
}

/** `count` HTML pages of about `size` bytes each, 100 to a folder, every one different (so none is a copy). */
async function makeSmallPages(dir: string, count: number, size: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const group = join(dir, `g${String(Math.floor(i / 100)).padStart(3, '0')}`);
    if (i % 100 === 0) await mkdir(group, { recursive: true });
    const head = `<!doctype html><html><head><title>Page ${i}</title></head><body><h1>Page ${i}</h1>\n`;
    const paragraphs: string[] = [];
    let length = head.length;
    for (let p = 0; length < size - 40; p++) {
      const text = `<p>Paragraph ${p} of page ${i}: ${'lorem ipsum dolor sit amet '.repeat(3)}<a href="/p/${i}/${p}">link</a></p>\n`;
      paragraphs.push(text);
      length += text.length;
    }
    await writeFile(join(group, `page${String(i).padStart(5, '0')}.html`), `${head}${paragraphs.join('')}</body></html>\n`);
  }
}

/** Calls per command since the server started (`INFO commandstats`). */
async function commandStats(redis: Redis): Promise<Map<string, number>> {
  const text = await redis.info('commandstats');
  const stats = new Map<string, number>();
  for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) stats.set(match[1] as string, Number(match[2]));
  return stats;
}

function difference(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  const delta = new Map<string, number>();
  for (const [command, calls] of after) {
    const value = calls - (before.get(command) ?? 0);
    if (value > 0) delta.set(command, value);
  }
  return delta;
}

const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

/** fsync and fdatasync flush one file, syncfs one file system, sync all of them: each is one flush. */
const SYNC_CALLS = 'fsync,fdatasync,syncfs,sync';

const straceAvailable = !flags['no-strace'] && (() => {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** GNU time measures a child's CPU time (user and system, its threads and children included): Node cannot. */
const GNU_TIME = '/usr/bin/time';
const timeAvailable = (() => {
  try {
    execFileSync(GNU_TIME, ['-f', '%U', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** User + system seconds from the last line GNU time wrote with `-f '%U %S'`. */
function cpuSeconds(report: string): number | undefined {
  const last = report.trim().split('\n').pop() ?? '';
  const [user, system] = last.split(' ').map(Number);
  return user === undefined || system === undefined || !Number.isFinite(user + system) ? undefined : user + system;
}

/** The calls that flush to disk (SYNC_CALLS) in an `strace -c` summary, each counted once. */
function syncCalls(summary: string): number {
  let calls = 0;
  for (const match of summary.matchAll(/^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)(?:\s+\d+)?\s+(fsync|fdatasync|syncfs|sync)\s*$/gm)) calls += Number(match[1]);
  return calls;
}

interface Measured {
  run: ChildRun;
  wallMs: number;
  /** User + system CPU seconds of the process and everything it waited for (GNU time), when /usr/bin/time exists. */
  cpuS: number | undefined;
  converted: number;
  syncs: number | undefined;
  commands?: Map<string, number>;
  /** Commands the clients sent (a script call counts once) on the queue's keys, by name, from MONITOR. */
  sent?: Map<string, number>;
}

/**
 * Counts, through MONITOR, the commands clients send that name the queue's keys (every docmill and BullMQ key of a
 * queue holds its name): round trips, where a script call is one command whatever it does inside. Calls made from
 * inside scripts (`lua` as their source) are left out; commandstats counts them.
 */
async function watchSent(url: string, queue: string): Promise<{ stop: () => Promise<Map<string, number>> }> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  const monitor = await client.monitor();
  const sent = new Map<string, number>();
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source === 'lua' || !args.some((arg) => arg.includes(queue))) return;
    const command = String(args[0]).toLowerCase();
    sent.set(command, (sent.get(command) ?? 0) + 1);
  });
  return {
    stop: async () => {
      await new Promise((done) => setTimeout(done, 200));
      monitor.disconnect();
      client.disconnect();
      return sent;
    },
  };
}

async function measure(
  tag: string,
  work: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  count: () => Promise<number>,
  redis?: { client: Redis; queue: string },
): Promise<Measured> {
  const straceOut = join(work, `${tag}.strace`);
  const timeOut = join(work, `${tag}.time`);
  const traced = straceAvailable ? ['strace', '-f', '--seccomp-bpf', '-c', '-e', `trace=${SYNC_CALLS}`, '-o', straceOut, process.execPath, ...args] : [process.execPath, ...args];
  const [command, ...fullArgs] = (timeAvailable ? [GNU_TIME, '-f', '%U %S', '-o', timeOut, ...traced] : traced) as [string, ...string[]];
  const before = redis ? await commandStats(redis.client) : undefined;
  const watch = redis && flags.monitor ? await watchSent(redisUrl, redis.queue) : undefined;
  const run = await runChild(command, fullArgs, {
    cwd: REPO,
    env,
    timeoutMs: 30 * 60_000,
    stdoutPath: join(work, `${tag}.stdout`),
    stderrPath: join(work, `${tag}.stderr`),
  });
  const sent = await watch?.stop();
  const commands = redis && before ? difference(await commandStats(redis.client), before) : undefined;
  // docmill exits 1 when it finished with documents that failed (the corpus holds encrypted and corrupt files).
  if (run.code !== 0 && run.code !== 1) throw new Error(`${tag} exited ${run.code ?? run.signal}: ${run.stderr.slice(-2000)}`);
  const syncs = straceAvailable ? syncCalls(await readFile(straceOut, 'utf8')) : undefined;
  const cpuS = timeAvailable ? cpuSeconds(await readFile(timeOut, 'utf8')) : undefined;
  return { run, wallMs: run.wallMs, cpuS, converted: await count(), syncs, ...(commands ? { commands } : {}), ...(sent ? { sent } : {}) };
}

function best(runs: Measured[]): Measured {
  return runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
}

const work = await mkdtemp(join(tmpdir(), 'docmill-small-docs-'));
const files = join(work, 'files');
const documents = flags.mixed !== undefined ? int('mixed', flags.mixed) : int('files', flags.files);
const workload = flags.mixed !== undefined ? `mixed corpus, ${documents} copies with unique bytes` : `${documents} HTML pages of ${int('size', flags.size)} bytes`;
if (flags.mixed !== undefined) await makeMixedCopies(CORPUS, files, documents);
else await makeSmallPages(files, documents, int('size', flags.size));

// The bare loop runs with the settings docmill's launcher gives its own process (V8's tiering; on Node 22.15 and later
// its allocator and young generation too, src/cli/launcher-settings.ts), so the ratio is the pipeline's alone;
// --bare-plain starts it with node's defaults instead.
const bareLauncher = flags['bare-plain'] ? undefined : launcherSettings(process.env, []);
const bareNodeOptions = [...(bareLauncher?.options ?? []), tieringOption(process.versions.v8, [])].filter((option) => option !== undefined);
const [bareScript] = await transpileForNode([join(REPO, 'bench/lib/small-docs-bare-child.ts')], join(work, 'bare'));
// The transpiled child resolves p-limit from the project's node_modules.
await rm(join(work, 'bare', 'node_modules'), { force: true, recursive: true });
execFileSync('ln', ['-s', join(REPO, 'node_modules'), join(work, 'bare', 'node_modules')]);

const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
redis.on('error', () => undefined);
await redis.connect();

const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(DOCMILL_|FIRECRAWL_|REDIS_URL$)/.test(name)),
) as NodeJS.ProcessEnv;
const queues: string[] = [];
const results: Record<string, Measured[]> = { bare: [], before: [], docmill: [], embedded: [] };
let backgroundPerSecond = 0;
try {
  for (let round = 1; round <= rounds; round++) {
    const bareOut = join(work, `bare-${round}`);
    const bareBefore = await commandStats(redis);
    const bareEnv = bareLauncher ? { ...baseEnv, ...bareLauncher.env } : baseEnv;
    const bare = await measure(`bare-${round}`, work, [...bareNodeOptions, bareScript as string, join(REPO, 'dist'), files, bareOut, String(concurrency)], bareEnv, () => countMarkdownOutputs(bareOut));
    // The bare loop sends Redis nothing: what the server counted meanwhile is other clients' background.
    backgroundPerSecond = Math.max(backgroundPerSecond, sum(difference(await commandStats(redis), bareBefore)) / (bare.wallMs / 1000));
    results.bare?.push(bare);

    const out = join(work, `docmill-${round}`);
    const queue = queueNameForOutput(out);
    queues.push(queue);
    const profile = flags['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', resolve(flags['cpu-prof'])] : [];
    const args = [...profile, join(REPO, 'bin/docmill.js'), 'run', files, '--out', out, '--concurrency', String(concurrency)];
    results.docmill?.push(await measure(`docmill-${round}`, work, args, { ...baseEnv, REDIS_URL: redisUrl }, () => countMarkdownOutputs(out), { client: redis, queue }));

    if (flags.before !== undefined) {
      const beforeOut = join(work, `before-${round}`);
      const beforeQueue = queueNameForOutput(beforeOut);
      queues.push(beforeQueue);
      const beforeArgs = [join(resolve(flags.before), 'bin/docmill.js'), 'run', files, '--out', beforeOut, '--concurrency', String(concurrency)];
      results.before?.push(await measure(`before-${round}`, work, beforeArgs, { ...baseEnv, REDIS_URL: redisUrl }, () => countMarkdownOutputs(beforeOut), { client: redis, queue: beforeQueue }));
    }

    if (flags.embedded) {
      const embeddedOut = join(work, `embedded-${round}`);
      const embeddedArgs = [join(REPO, 'bin/docmill.js'), 'run', files, '--out', embeddedOut, '--concurrency', String(concurrency)];
      results.embedded?.push(await measure(`embedded-${round}`, work, embeddedArgs, baseEnv, () => countMarkdownOutputs(embeddedOut)));
    }
  }
} finally {
  for (const queue of queues) await deleteQueueKeys(redisUrl, queue).catch(() => 0);
  redis.disconnect();
  ownRedis?.stop();
}

const bare = best(results.bare ?? []);
const rows: string[][] = [];
const perDoc = (value: number | undefined) => (value === undefined ? 'n/a' : (value / documents).toFixed(2));
const cpu = (measured: Measured) => (measured.cpuS === undefined ? 'n/a' : measured.cpuS.toFixed(2));
rows.push(['bare loop', String(bare.converted), (bare.wallMs / 1000).toFixed(2), cpu(bare), (documents / (bare.wallMs / 1000)).toFixed(1), '1.00', '-', '-', perDoc(bare.syncs)]);
const commandLines: string[] = [];
const sentLines: string[] = [];
const contenders = [
  ['before', `docmill run, ${flags.before ?? ''} (REDIS_URL)`],
  ['docmill', 'docmill run (REDIS_URL)'],
  ['embedded', 'docmill run (embedded Redis)'],
] as const;
for (const [name, label] of contenders) {
  const list = results[name] ?? [];
  if (list.length === 0) continue;
  const chosen = best(list);
  const raw = chosen.commands ? sum(chosen.commands) : undefined;
  const net = raw === undefined ? undefined : Math.max(0, raw - backgroundPerSecond * (chosen.wallMs / 1000));
  rows.push([
    label,
    String(chosen.converted),
    (chosen.wallMs / 1000).toFixed(2),
    cpu(chosen),
    (documents / (chosen.wallMs / 1000)).toFixed(1),
    (bare.wallMs / chosen.wallMs).toFixed(2),
    perDoc(chosen.sent ? sum(chosen.sent) : undefined),
    perDoc(net),
    perDoc(chosen.syncs),
  ]);
  if (chosen.sent) sentLines.push(`${label}: ${top(chosen.sent).join(', ')}`);
  if (chosen.commands) {
    commandLines.push(`${label}: ${top(chosen.commands).join(', ')}`);
  }
}

function top(counts: Map<string, number>): string[] {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([command, calls]) => `${command} ${(calls / documents).toFixed(1)}`);
}

const [one, five] = loadavg();
console.log(`\nsmall documents: ${workload}, concurrency ${concurrency}, ${cpus().length} cores, best of ${rounds} round(s)`);
console.log(`  command: npx tsx bench/small-docs.ts ${process.argv.slice(2).map(shellQuote).join(' ')}`.trimEnd());
console.log(`  load average after: ${one?.toFixed(2)} (1 min), ${five?.toFixed(2)} (5 min)`);
console.log(`  fsyncs: ${straceAvailable ? `strace -f -c -e trace=${SYNC_CALLS}, each call one (whole process, worker threads and child processes included)` : 'not counted (no strace)'}`);
if (flags.monitor) console.log(`  Redis sent: commands clients sent naming the queue's keys, a script call counting one (MONITOR)`);
console.log(`  Redis cmds: INFO commandstats of ${redisUrl} (scripts' own calls included), less ${backgroundPerSecond.toFixed(0)} commands/s of other clients (seen while the bare loop ran)\n`);
console.log(markdownTable(['contender', 'converted', 'wall s', 'CPU s', 'docs/s', '× bare', 'Redis sent/doc', 'Redis cmds/doc', 'fsyncs/doc'], rows));
if (rounds > 1) {
  // Every round's wall time, in the order run: on a shared machine the spread says how far the best can be trusted.
  const byRound = (['bare', 'before', 'docmill', 'embedded'] as const)
    .filter((name) => (results[name] ?? []).length > 0)
    .map((name) => `${name} ${(results[name] ?? []).map((measured) => `${(measured.wallMs / 1000).toFixed(2)} (${cpu(measured)})`).join(' / ')}`);
  console.log(`\n  wall s (CPU s) by round: ${byRound.join(' · ')}`);
}
if (sentLines.length > 0) console.log(`\n  commands sent per document (a script call is one):\n    ${sentLines.join('\n    ')}`);
if (commandLines.length > 0) console.log(`\n  commands per document, scripts' own calls included (raw):\n    ${commandLines.join('\n    ')}`);
if (flags.keep) console.log(`\n  kept: ${work}`);
else await rm(work, { recursive: true, force: true });
