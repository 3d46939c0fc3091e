/**
 * Benchmark "flat memory" (issue 21): the resident set of a long `docmill run` on the local engine, over time.
 * Run by hand, never by the tests:
 *
 *   npm run build && nice npx tsx bench/soak.ts                    # 10,000 copies of test/fixtures/corpus
 *   npx tsx bench/soak.ts --documents 2000 --corpus ../shared/corpus --plot --csv /tmp/soak.csv
 *   npx tsx bench/soak.ts --documents 2000 --before /tmp/docmill-main   # another built checkout, same files, in turn
 *   npx tsx bench/soak.ts --documents 1000 --before /tmp/docmill-main --rounds 3   # before, now, before, now…
 *
 * The documents: every file of --corpus (default test/fixtures/corpus: PDF, HTML, CSV, RTF, Office, EPUB…) copied
 * round-robin to --documents files, each copy with bytes of its own (bench-files.ts), so the content index skips
 * none. Each contender is `node bin/docmill.js run <files> --out <tmp>` from its own checkout, embedded Redis and
 * local engine (no REDIS_URL, no API URL), at docmill's default concurrency unless --concurrency says otherwise.
 *
 * Sampled every --every ms (250): Σ VmRSS of the docmill process (its engine threads included) and every process it
 * started (the embedded redis-server). Printed per contender: the peak, the mean of each quarter of the run (by
 * time), and the flatness ratio Q4 / Q2 (goal: ≤ 600 MB peak, Q4 within 10 % of Q2), with docs/s and the CPU time a
 * document took (docmill's threads and Redis: steadier than docs/s on a machine others load); --plot draws the samples as a
 * coarse ASCII chart, --csv writes them (ms since start, contender, tree kB, docmill process kB, processes, docmill's threads).
 *
 * Flags: --documents N (10000) · --corpus DIR · --concurrency N (docmill's default) · --every MS (250) ·
 *        --before DIR (a built checkout, run first over the same files) · --rounds N (1: both contenders N times, in
 *        turn) · --plot · --csv FILE · --keep
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countMarkdownOutputs, makeMixedCopies } from './lib/bench-files.js';
import { runChild, shellQuote } from './lib/child.js';
import { reapedChildrenCpuMs, treeRssKb } from './lib/process-memory.js';
import { markdownTable } from './lib/table.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const GOAL_PEAK_MB = 600;
const GOAL_FLATNESS = 0.1;

const { values: flags } = parseArgs({
  options: {
    documents: { type: 'string', default: '10000' },
    corpus: { type: 'string', default: join(REPO, 'test/fixtures/corpus') },
    concurrency: { type: 'string' },
    every: { type: 'string', default: '250' },
    before: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    plot: { type: 'boolean', default: false },
    csv: { type: 'string' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

if (flags.help) {
  process.stdout.write('npx tsx bench/soak.ts [--documents 10000] [--corpus DIR] [--concurrency N] [--every 250] [--before DIR] [--rounds 1] [--plot] [--csv FILE] [--keep]\n');
  process.exit(0);
}

function int(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, not ${text}`);
  return value;
}

const documents = int('documents', flags.documents);
const rounds = int('rounds', flags.rounds);
const everyMs = int('every', flags.every);
const concurrency = flags.concurrency === undefined ? [] : ['--concurrency', String(int('concurrency', flags.concurrency))];

interface Sample {
  ms: number;
  kb: number;
  ownKb: number;
  processes: number;
  threads: number;
}

interface Soak {
  name: string;
  samples: Sample[];
  wallMs: number;
  /** CPU time of docmill and the embedded Redis, all threads (throughput on a machine others load too). */
  cpuMs: number | undefined;
  converted: number;
  summary: string;
}

/** Runs one checkout's docmill over `files`, its process tree's resident set sampled every `everyMs`. */
async function soak(name: string, root: string, files: string, work: string): Promise<Soak> {
  const out = join(work, `out-${name.replace(' ', '-')}`);
  const samples: Sample[] = [];
  let started = 0;
  let timer: NodeJS.Timeout | undefined;
  const cpuBefore = reapedChildrenCpuMs();
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(DOCMILL_|FIRECRAWL_|REDIS_URL$)/.test(key))) as NodeJS.ProcessEnv;
  const run = await runChild(process.execPath, [join(root, 'bin/docmill.js'), 'run', files, '--out', out, ...concurrency], {
    cwd: root,
    env,
    timeoutMs: 6 * 3600_000,
    stdoutPath: join(work, `${name.replace(' ', '-')}.stdout`),
    stderrPath: join(work, `${name.replace(' ', '-')}.stderr`),
    onSpawn: (pid) => {
      started = performance.now();
      timer = setInterval(() => {
        const now = treeRssKb(pid);
        if (now) samples.push({ ms: performance.now() - started, ...now });
      }, everyMs);
    },
  });
  clearInterval(timer);
  const cpuAfter = reapedChildrenCpuMs();
  const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  // docmill exits 1 when documents failed (the corpus holds encrypted and corrupt files on purpose).
  if (run.code !== 0 && run.code !== 1) throw new Error(`${name} exited ${run.code ?? run.signal}: ${run.stderr.slice(-2000)}`);
  const summary = run.stderr.split('\n').find((line) => line.startsWith('docmill: ')) ?? '';
  const converted = await countMarkdownOutputs(out);
  return { name, samples, wallMs: run.wallMs, cpuMs, converted, summary };
}

const mean = (values: number[]) => (values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length);
const mb = (kb: number) => (kb / 1024).toFixed(0);

/** The mean tree RSS (kB) of each quarter of the run, by time. */
function quarterMeans(run: Soak): number[] {
  const quarters: number[][] = [[], [], [], []];
  for (const sample of run.samples) quarters[Math.min(3, Math.floor((4 * sample.ms) / run.wallMs))]?.push(sample.kb);
  return quarters.map(mean);
}

/** A coarse chart of the samples: `width` columns of time, each the highest reading in it, `height` rows of MB. */
function asciiPlot(run: Soak, top: number, width = 72, height = 12): string {
  const columns = new Array<number>(width).fill(0);
  for (const sample of run.samples) {
    const column = Math.min(width - 1, Math.floor((width * sample.ms) / run.wallMs));
    columns[column] = Math.max(columns[column] ?? 0, sample.kb);
  }
  const lines: string[] = [];
  for (let row = height; row >= 1; row--) {
    const level = (top * row) / height;
    const label = row === height || row === Math.ceil(height / 2) ? `${mb(level).padStart(5)} MB |` : '         |';
    lines.push(label + columns.map((kb) => (kb >= level - top / height / 2 ? '#' : ' ')).join(''));
  }
  lines.push(`         +${'-'.repeat(width)}`);
  lines.push(`          0 s${' '.repeat(Math.max(1, width - 12))}${(run.wallMs / 1000).toFixed(0)} s`);
  return lines.join('\n');
}

const work = await mkdtemp(join(tmpdir(), 'docmill-soak-'));
const files = join(work, 'files');
await makeMixedCopies(resolve(flags.corpus), files, documents);
const runs: Soak[] = [];
try {
  // In turn, round after round: a load that comes and goes on the machine weighs on both alike.
  for (let round = 1; round <= rounds; round++) {
    const suffix = rounds > 1 ? ` ${round}` : '';
    if (flags.before !== undefined) runs.push(await soak(`before${suffix}`, resolve(flags.before), files, work));
    runs.push(await soak(`now${suffix}`, REPO, files, work));
  }
} finally {
  if (!flags.keep) {
    // The outputs and the copies; the samples are in memory.
    await rm(work, { recursive: true, force: true });
  }
}

const rows = runs.map((run) => {
  const peak = Math.max(...run.samples.map((s) => s.kb));
  const ownPeak = Math.max(...run.samples.map((s) => s.ownKb));
  const [q1, q2, q3, q4] = quarterMeans(run) as [number, number, number, number];
  const flatness = q4 / q2;
  const verdict = `${peak / 1024 <= GOAL_PEAK_MB ? 'peak met' : 'peak missed'}, ${Math.abs(flatness - 1) <= GOAL_FLATNESS ? 'flat' : 'not flat'}`;
  return [
    run.name,
    `${run.converted}/${documents}`,
    (run.wallMs / 1000).toFixed(0),
    (documents / (run.wallMs / 1000)).toFixed(1),
    run.cpuMs === undefined ? '-' : (run.cpuMs / documents).toFixed(0),
    mb(peak),
    mb(ownPeak),
    [q1, q2, q3, q4].map(mb).join(' / '),
    flatness.toFixed(3),
    verdict,
  ];
});

const [one, five] = loadavg();
console.log(`\nsoak: ${documents} copies of ${flags.corpus} with unique bytes, docmill run, embedded Redis, local engine, ${concurrency.length > 0 ? `concurrency ${concurrency[1]}` : 'default concurrency'}, ${cpus().length} cores`);
console.log(`  command: npx tsx bench/soak.ts ${process.argv.slice(2).map(shellQuote).join(' ')}`.trimEnd());
console.log(`  load average after: ${one?.toFixed(2)} (1 min), ${five?.toFixed(2)} (5 min)`);
console.log(`  RSS: Σ VmRSS of docmill and its child processes (embedded redis-server) every ${everyMs} ms; MB = MiB; goal peak ≤ ${GOAL_PEAK_MB} MB, Q4 within ${GOAL_FLATNESS * 100} % of Q2\n`);
console.log(markdownTable(['contender', 'converted', 'wall s', 'docs/s', 'CPU ms/doc', 'peak MB (tree)', 'peak MB (docmill)', 'quarter means MB', 'Q4 / Q2', 'goal'], rows));
for (const run of runs) console.log(`\n  ${run.name}: ${run.summary}`);
if (flags.plot) {
  const top = Math.max(...runs.flatMap((run) => run.samples.map((s) => s.kb)));
  for (const run of runs) console.log(`\n${run.name}: tree RSS over the run\n${asciiPlot(run, top)}`);
}
if (flags.csv !== undefined) {
  const lines = ['ms,contender,tree_kb,docmill_kb,processes,threads', ...runs.flatMap((run) => run.samples.map((s) => `${s.ms.toFixed(0)},${run.name},${s.kb},${s.ownKb},${s.processes},${s.threads}`))];
  await writeFile(resolve(flags.csv), `${lines.join('\n')}\n`);
  console.log(`\n  samples: ${resolve(flags.csv)}`);
}
if (flags.keep) console.log(`\n  kept: ${work}`);
