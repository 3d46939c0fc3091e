/**
 * Benchmark "long PDF" (issue 12, item 3). Run by hand, never by the tests:
 *
 *   npx tsx bench/long-pdf.ts                          # 2,000 pages, whole and in ranges of 100, a few minutes
 *   npx tsx bench/long-pdf.ts --pages 600 --split 50   # a quick look
 *
 * One generated text PDF (bench/lib/text-pdf.ts: a heading, 48 lines of running text and a page number per page),
 * converted by `run` (library API, in-process) on the local engine with its default thread pool (one thread per
 * core), into a fresh output each time, on a fresh queue of the shared Redis, with `timeout` 300000 so the whole
 * file is allowed its time:
 *
 * - whole: `splitPages` above the page count: one request, one engine thread;
 * - split: `splitPages` = --split: the document's job cuts the ranges, child jobs parse them concurrently (up to
 *   --concurrency at once), the document's job merges them.
 *
 * Each contender runs --repeat times, alternating. Reported: wall time from `run()` to its summary, pages per second,
 * the ratio split / whole, the CPU time of the process (all its threads: getrusage) and CPU / wall, which says how
 * many cores the conversion kept busy (a figure that holds up on a machine shared with other work, where wall time
 * does not), and whether the merged Markdown is the same as the whole parse's.
 *
 * Flags: --pages N (2000) · --split N (100) · --repeat N (2) · --concurrency N (8) · --redis-url URL · --keep
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { run } from '../src/app/run.js';
import { deleteQueueKeys } from './lib/redis-cleanup.js';
import { markdownTable } from './lib/table.js';
import { makeTextPdf } from './lib/text-pdf.js';
import { exitWithHelpIfAsked } from './lib/help.js';

exitWithHelpIfAsked(import.meta.url);

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    split: { type: 'string', default: '100' },
    repeat: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '8' },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    keep: { type: 'boolean', default: false },
  },
});
const pages = Number(values.pages);
const split = Number(values.split);
const repeat = Number(values.repeat);
const concurrency = Number(values.concurrency);
const redisUrl = values['redis-url'];

interface Measurement {
  contender: 'whole' | 'split';
  seconds: number;
  cpuSeconds: number;
  markdown: string;
  requests: number;
}

async function convert(dir: string, src: string, contender: 'whole' | 'split', index: number): Promise<Measurement> {
  const out = join(dir, `out-${contender}-${index}`);
  const queue = `bench-${randomUUID()}`;
  const started = performance.now();
  const cpu = process.cpuUsage();
  try {
    const summary = await run({
      source: src,
      out,
      redisUrl,
      queue,
      concurrency,
      splitPages: contender === 'whole' ? pages + 1 : split,
      parseOptions: { timeout: 300_000 },
    }).done;
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    if (summary.counts.converted !== 1) throw new Error(`${contender}: ${JSON.stringify(summary.counts)} ${JSON.stringify(summary.failures)}`);
    const markdown = await readFile(join(out, 'long.pdf.md'), 'utf8');
    return { contender, seconds, cpuSeconds, markdown, requests: summary.counts.requests };
  } finally {
    await deleteQueueKeys(redisUrl, queue);
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'docmill-long-pdf-'));
  try {
    const src = join(dir, 'src');
    await mkdir(src);
    const bytes = makeTextPdf({ pages, seed: 12 });
    await writeFile(join(src, 'long.pdf'), bytes);
    console.log(`long-pdf: ${pages} pages, ${(bytes.byteLength / 1e6).toFixed(1)} MB; ranges of ${split}; ${availableParallelism()} cores; concurrency ${concurrency}`);
    console.log(`load average before: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
    const results: Measurement[] = [];
    for (let i = 0; i < repeat; i++) {
      for (const contender of ['whole', 'split'] as const) {
        const measured = await convert(dir, src, contender, i);
        results.push(measured);
        console.log(
          `  ${contender} #${i + 1}: ${measured.seconds.toFixed(1)} s, ${(pages / measured.seconds).toFixed(1)} pages/s, ` +
            `CPU ${measured.cpuSeconds.toFixed(1)} s (${(measured.cpuSeconds / measured.seconds).toFixed(2)} cores busy), ${measured.requests} request(s)`,
        );
      }
    }
    const rows = (['whole', 'split'] as const).map((contender) => {
      const mine = results.filter((result) => result.contender === contender);
      const runs = mine.map((result) => result.seconds);
      const cores = mine.reduce((sum, result) => sum + result.cpuSeconds, 0) / runs.reduce((sum, seconds) => sum + seconds, 0);
      const best = Math.min(...runs);
      const median = runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)] ?? best;
      return { contender, best, median, runs, cores };
    });
    console.log();
    console.log(
      markdownTable(
        ['contender', 'runs (s)', 'best (s)', 'pages/s (best)', 'median (s)', 'pages/s (median)', 'cores busy (CPU / wall)'],
        rows.map((row) => [
          row.contender,
          row.runs.map((s) => s.toFixed(1)).join(', '),
          row.best.toFixed(1),
          (pages / row.best).toFixed(1),
          row.median.toFixed(1),
          (pages / row.median).toFixed(1),
          row.cores.toFixed(2),
        ]),
      ),
    );
    const [whole, splitRow] = rows;
    if (whole && splitRow) {
      console.log(`\nsplit / whole, pages per second: ${(whole.best / splitRow.best).toFixed(2)}× (best), ${(whole.median / splitRow.median).toFixed(2)}× (median)`);
    }
    const reference = results.find((result) => result.contender === 'whole')?.markdown;
    const same = results.filter((result) => result.contender === 'split').every((result) => result.markdown === reference);
    console.log(`merged Markdown identical to the whole parse: ${same ? 'yes' : 'no'}`);
    console.log(`load average after: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  } finally {
    if (values.keep) console.log(`kept ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

await main();
