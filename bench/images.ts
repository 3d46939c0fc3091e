/**
 * Benchmark "pictures as files" (issue 22): the cost of `--images` on PDFs, `docmill run` over the same files with
 * and without it, side by side in one invocation. Run by hand, never by the tests:
 *
 *   npm run build && npx tsx bench/images.ts                    # the dev half of the PDF benchmark, mode fast, 3 rounds
 *   npx tsx bench/images.ts --rounds 1 --mode auto
 *   npx tsx bench/images.ts --before /tmp/base                  # another built checkout measured in the same rounds
 *
 * Files: every <dir>/pdfs/*.pdf (the dev half of opendataloader-bench by default, found as bench/pdf-bench.ts finds
 * it; --dir for another folder). Each round runs `node bin/docmill.js run <pdfs> --out <fresh tmp> --mode M` without
 * `--images`, then with it (local engine, its default pool, the embedded redis-server); the order alternates from
 * one round to the next so that a machine warming up or getting busier favours neither. With --before, the other
 * checkout's two runs follow in the same round (its order alternating too): both meet the same load. Timed: the
 * whole process (wall), median over the rounds, and its CPU (user + system, every thread and the embedded Redis:
 * what a busy machine changes least), median too. Peak RSS: VmHWM of the docmill process (engine threads
 * included), highest over the rounds. Counted: the pictures written (`*.assets/*`), their bytes, and the documents
 * with at least one.
 *
 * Printed: each run, then the medians, the ratio with ÷ without (target ≤ 1.3), the CPU --images adds, the load.
 *
 * Flags: --dir DIR · --rounds N (3) · --mode fast|auto (fast) · --before DIR (a built checkout) · --keep (the last outputs)
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
import { exitWithHelpIfAsked } from './lib/help.js';
import { median } from './lib/median.js';

exitWithHelpIfAsked(import.meta.url);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: flags } = parseArgs({
  options: {
    dir: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    mode: { type: 'string', default: 'fast' },
    before: { type: 'string' },
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
  /** The checkout run: this one, or --before's. */
  root: string;
  images: boolean;
  wallMs: number;
  cpuMs: number | undefined;
  peakRssKb: number | undefined;
  code: number | null;
  summary: string;
  pictures: number;
  pictureBytes: number;
  documentsWithPictures: number;
}

async function runDocmill(root: string, pdfs: string, work: string, images: boolean, mode: string): Promise<Run> {
  const out = await mkdtemp(join(work, images ? 'with-' : 'without-'));
  const { code, wallMs, cpuMs, peakRssKb, summary } = await runDocmillCli(root, ['run', pdfs, '--out', out, '--mode', mode, ...(images ? ['--images'] : [])]);
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
  return { root, images, wallMs, cpuMs, peakRssKb, code, summary, pictures, pictureBytes, documentsWithPictures: folders.size };
}


async function main(): Promise<void> {
  const rounds = Number(flags.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer, not ${flags.rounds}`);
  const mode = flags.mode ?? 'fast';
  if (!['fast', 'auto'].includes(mode)) throw new Error(`--mode: fast or auto, not ${mode}`);
  const roots = [REPO, ...(flags.before ? [resolve(flags.before)] : [])];
  for (const root of roots) if (!existsSync(join(root, 'dist/src/index.js'))) throw new Error(`${root}: dist/ is missing: npm run build`);
  const pdfs = await benchDir();
  const files = (await readdir(pdfs)).filter((name) => name.toLowerCase().endsWith('.pdf')).length;
  const work = await mkdtemp(join(tmpdir(), 'docmill-images-bench-'));
  const loadAtStart = loadavg().map((l) => l.toFixed(2)).join(' ');
  const date = new Date().toISOString();
  const runs: Run[] = [];
  const nameOf = (root: string) => (root === REPO ? 'this checkout' : root);
  try {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? [false, true] : [true, false];
      // With --before, which checkout goes first alternates every other round, so each meets each place in turn.
      const checkouts = Math.floor(round / 2) % 2 === 0 ? roots : [...roots].reverse();
      for (const root of checkouts) {
        for (const images of order) {
          const run = await runDocmill(root, pdfs, work, images, mode);
          const cpu = run.cpuMs === undefined ? '' : `, CPU ${(run.cpuMs / 1000).toFixed(1)} s`;
          console.log(`round ${round + 1}, ${nameOf(root)}, ${images ? 'with' : 'without'} --images: ${(run.wallMs / 1000).toFixed(1)} s${cpu}, exit ${run.code}: ${run.summary}`);
          runs.push(run);
        }
      }
    }
  } finally {
    if (!flags.keep) await rm(work, { recursive: true, force: true });
    else console.log(`kept: ${work}`);
  }
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log('');
  console.log('docmill benchmark: the cost of --images on PDFs, `docmill run` with and without it over the same files');
  console.log(`  command: npx tsx bench/images.ts ${process.argv.slice(2).join(' ')}`.trimEnd());
  console.log(`  date: ${date}; node ${process.version}; ${cpus().length} CPUs; load average ${loadAtStart} at start, ${loadavg().map((l) => l.toFixed(2)).join(' ')} at end`);
  console.log(`  files: ${files} PDFs from ${pdfs}; node bin/docmill.js run <pdfs> --out <tmp> --mode ${mode} [--images] (local engine, ${availableParallelism()} threads, embedded Redis); ${rounds} round(s), order alternating`);
  const rows: string[][] = [];
  const ratios: string[] = [];
  for (const root of roots) {
    const of = (images: boolean) => runs.filter((run) => run.root === root && run.images === images);
    const wall = (images: boolean) => median(of(images).map((run) => run.wallMs));
    const cpu = (images: boolean) => (of(images).every((run) => run.cpuMs !== undefined) ? median(of(images).map((run) => run.cpuMs!)) : undefined);
    const peak = (images: boolean) => Math.max(...of(images).map((run) => run.peakRssKb ?? 0));
    const last = of(true).at(-1)!;
    const cpuText = (images: boolean) => {
      const ms = cpu(images);
      return ms === undefined ? '–' : seconds(ms);
    };
    const label = roots.length > 1 ? `${nameOf(root)}, ` : '';
    rows.push([`${label}without --images`, seconds(wall(false)), cpuText(false), `${Math.round(peak(false) / 1024)} MB`, '–', '–']);
    rows.push([
      `${label}with --images`,
      seconds(wall(true)),
      cpuText(true),
      `${Math.round(peak(true) / 1024)} MB`,
      `${last.pictures} (${(last.pictureBytes / 1024 / 1024).toFixed(1)} MiB)`,
      String(last.documentsWithPictures),
    ]);
    const withCpu = cpu(true);
    const withoutCpu = cpu(false);
    const added = withCpu === undefined || withoutCpu === undefined ? '' : `; CPU ÷ ${(withCpu / withoutCpu).toFixed(2)}, + ${seconds(withCpu - withoutCpu)}`;
    ratios.push(`  ${label}with ÷ without (whole process, medians): ${(wall(true) / wall(false)).toFixed(2)} (target ≤ 1.3)${added}`);
  }
  console.log('');
  console.log(markdownTable(['run', 'whole process (median)', 'CPU (median)', 'peak RSS', 'pictures written', 'documents with pictures'], rows));
  for (const line of ratios) console.log(line);
}

await main();
