/**
 * Benchmark "pictures as files" (issue 22): the cost of `--images` on PDFs, `docmill run` over the same files with
 * and without it, side by side in one invocation. Run by hand, never by the tests:
 *
 *   npm run build && npx tsx bench/images.ts                    # the dev half of the PDF benchmark, mode fast, 3 rounds
 *   npx tsx bench/images.ts --rounds 1 --mode auto
 *
 * Files: every <dir>/pdfs/*.pdf (the dev half of opendataloader-bench by default, found as bench/pdf-bench.ts finds
 * it; --dir for another folder). Each round runs `node bin/docmill.js run <pdfs> --out <fresh tmp> --mode M` without
 * `--images`, then with it (local engine, its default pool, the embedded redis-server); the order alternates from
 * one round to the next so that a machine warming up or getting busier favours neither. Timed: the whole process
 * (wall), median over the rounds. Peak RSS: VmHWM of the docmill process (engine threads included), highest over
 * the rounds. Counted: the pictures written (`*.assets/*`), their bytes, and the documents with at least one.
 *
 * Printed: each run, then the medians, the ratio with ÷ without (target ≤ 1.3), the load average.
 *
 * Flags: --dir DIR · --rounds N (3) · --mode fast|auto (fast) · --keep (the last outputs)
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultPdfBenchDirs } from './lib/pdf-bench-dir.js';
import { runDocmillCli } from './lib/docmill-cli-run.js';
import { markdownTable } from './lib/table.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: flags } = parseArgs({
  options: {
    dir: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    mode: { type: 'string', default: 'fast' },
    keep: { type: 'boolean', default: false },
  },
  strict: true,
});

async function benchDir(): Promise<string> {
  const dirs = flags.dir ? [resolve(flags.dir)] : await defaultPdfBenchDirs(REPO);
  const found = dirs.find((dir) => existsSync(join(dir, 'pdfs')));
  if (!found) throw new Error(`no folder with pdfs/ at ${dirs.join(' or ')}: pass --dir`);
  return join(found, 'pdfs');
}

interface Run {
  images: boolean;
  wallMs: number;
  peakRssKb: number | undefined;
  code: number | null;
  summary: string;
  pictures: number;
  pictureBytes: number;
  documentsWithPictures: number;
}

async function runDocmill(pdfs: string, work: string, images: boolean, mode: string): Promise<Run> {
  const out = await mkdtemp(join(work, images ? 'with-' : 'without-'));
  const { code, wallMs, peakRssKb, summary } = await runDocmillCli(REPO, ['run', pdfs, '--out', out, '--mode', mode, ...(images ? ['--images'] : [])]);
  let pictures = 0;
  let pictureBytes = 0;
  const folders = new Set<string>();
  for (const entry of await readdir(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.parentPath.endsWith('.assets')) continue;
    pictures++;
    pictureBytes += (await stat(join(entry.parentPath, entry.name))).size;
    folders.add(entry.parentPath);
  }
  if (!flags.keep) await rm(out, { recursive: true, force: true });
  return { images, wallMs, peakRssKb, code, summary, pictures, pictureBytes, documentsWithPictures: folders.size };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  const rounds = Number(flags.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer, not ${flags.rounds}`);
  const mode = flags.mode ?? 'fast';
  if (!['fast', 'auto'].includes(mode)) throw new Error(`--mode: fast or auto, not ${mode}`);
  if (!existsSync(join(REPO, 'dist/src/index.js'))) throw new Error('dist/ is missing: npm run build');
  const pdfs = await benchDir();
  const files = (await readdir(pdfs)).filter((name) => name.toLowerCase().endsWith('.pdf')).length;
  const work = await mkdtemp(join(tmpdir(), 'docmill-images-bench-'));
  const loadAtStart = loadavg().map((l) => l.toFixed(2)).join(' ');
  const date = new Date().toISOString();
  const runs: Run[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [false, true] : [true, false];
      for (const images of order) {
        const run = await runDocmill(pdfs, work, images, mode);
        console.log(`round ${round + 1}, ${images ? 'with' : 'without'} --images: ${(run.wallMs / 1000).toFixed(1)} s, exit ${run.code}: ${run.summary}`);
        runs.push(run);
      }
    }
  } finally {
    if (!flags.keep) await rm(work, { recursive: true, force: true });
    else console.log(`kept: ${work}`);
  }
  const of = (images: boolean) => runs.filter((run) => run.images === images);
  const wall = (images: boolean) => median(of(images).map((run) => run.wallMs));
  const peak = (images: boolean) => Math.max(...of(images).map((run) => run.peakRssKb ?? 0));
  const last = of(true).at(-1)!;
  console.log('');
  console.log('docmill benchmark: the cost of --images on PDFs, `docmill run` with and without it over the same files');
  console.log(`  command: npx tsx bench/images.ts ${process.argv.slice(2).join(' ')}`.trimEnd());
  console.log(`  date: ${date}; node ${process.version}; ${cpus().length} CPUs; load average ${loadAtStart} at start, ${loadavg().map((l) => l.toFixed(2)).join(' ')} at end`);
  console.log(`  files: ${files} PDFs from ${pdfs}; node bin/docmill.js run <pdfs> --out <tmp> --mode ${mode} [--images] (local engine, ${availableParallelism()} threads, embedded Redis); ${rounds} round(s), order alternating`);
  console.log('');
  console.log(
    markdownTable(
      ['run', 'whole process (median)', 'peak RSS', 'pictures written', 'documents with pictures'],
      [
        ['without --images', `${(wall(false) / 1000).toFixed(1)} s`, `${Math.round(peak(false) / 1024)} MB`, '–', '–'],
        ['with --images', `${(wall(true) / 1000).toFixed(1)} s`, `${Math.round(peak(true) / 1024)} MB`, `${last.pictures} (${(last.pictureBytes / 1024 / 1024).toFixed(1)} MiB)`, String(last.documentsWithPictures)],
      ],
    ),
  );
  console.log(`  with ÷ without (whole process, medians): ${(wall(true) / wall(false)).toFixed(2)} (target ≤ 1.3)`);
}

await main();
