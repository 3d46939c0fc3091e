/**
 * Benchmark "PDF at scale" (issue 25, speed): `docmill run` over many PDF pages beside LiteParse alone over the
 * same files, in one invocation. Run by hand, never by the tests:
 *
 *   npm run build && npx tsx bench/pdf-run.ts                     # the dev half × 10 (990 pages), modes fast and auto
 *   npx tsx bench/pdf-run.ts --copies 2 --modes fast              # a quick look
 *
 * Files: every <dir>/pdfs/*.pdf (the dev half of opendataloader-bench by default, found as bench/pdf-bench.ts finds
 * it; --dir for another folder), copied --copies times into c<k>/ folders with unique bytes per copy: the four
 * bytes of the binary comment on the file's second line (`%âãÏÓ`) are rewritten, which moves no offset, so each
 * copy is still an intact PDF with its own sha256 (docmill skips no copy as already converted). A file without that
 * comment is left out (said so).
 *
 * - docmill: `node bin/docmill.js run <copies> --out <tmp> --mode M` (local engine, its default pool of one thread
 *   per core, the embedded redis-server), a fresh output folder each time. Timed: the whole process (wall), and
 *   the steady rate: pages between the first and the last Markdown output written (their mtimes), so that start-up
 *   (Redis, threads, module loading) does not decide it. Peak RSS: VmHWM of the docmill process (its engine
 *   threads included; the redis-server it starts is a process of its own and is not counted).
 * - LiteParse 2.14.7 alone (bench/lib/pdf-bench-child.ts, engine liteparse: `outputFormat: 'markdown'`, OCR off,
 *   a pool of N worker processes with N = the cores, as docmill's threads): one untimed pass over every file
 *   (start-up, warm-up), then one timed pass; peak RSS of its process and its workers.
 *
 * Printed: pages/s of each, the ratios docmill ÷ LiteParse (target ≥ 0.67 in mode fast) and auto ÷ fast in time
 * (target ≤ 2), docmill's peak RSS (target ≤ 300 MB in mode fast), the load average. Mode auto over copies: the
 * copies' pictures are the same bytes, and OCR answers a picture it has read from memory (recognition-memo.ts), but
 * only within the memory's bounds (512 pictures, 20,000 words, the least recently used forgotten first): the dev
 * half's pictures overrun them, and each copy's are mostly read again (2026-12-02: tesseract's workers 23 s of CPU
 * over 990 pages, about 4.5 s over 99), so auto ÷ fast over copies is about that of --copies 1.
 *
 * Rounds (--rounds N): LiteParse's timed pass and every docmill run, in turn, N times; each round's ratio is docmill's
 * rate ÷ LiteParse's in that round, and the table gives the medians (this machine's rates move by a third from one
 * minute to the next: one round decides nothing). Every output folder stays until the end: deleting a run's
 * thousands of files slows the next run's file creations on an ext4 without a journal (this machine's root file
 * system: `recently_deleted` in the kernel's inode allocation, for a minute or more after the deletions; measured,
 * docmill's system time 0.5 → 2.0 s over 990 pages after three runs deleted in a row).
 *
 * Flags: --dir DIR · --copies N (10) · --modes fast,auto · --rounds N (1) · --threads N (cores; LiteParse's pool) ·
 *        --keep · --docmill ROOT,ROOT (this checkout): docmill builds to compare, each a folder with bin/docmill.js
 *        and dist/ (another checkout, built), each run in turn in every mode
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EngineChild } from './lib/engine-child.js';
import { defaultPdfBenchDirs } from './lib/pdf-bench-dir.js';
import { ensureLiteParse, LITEPARSE_VERSION } from './lib/liteparse-install.js';
import type { ChildReport } from './lib/pdf-bench-child.js';
import { transpileForNode } from './lib/plain-node.js';
import { runDocmillCli } from './lib/docmill-cli-run.js';
import { markdownTable } from './lib/table.js';
import { exitWithHelpIfAsked } from './lib/help.js';
import { median } from './lib/median.js';

exitWithHelpIfAsked(import.meta.url);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: flags } = parseArgs({
  options: {
    dir: { type: 'string' },
    copies: { type: 'string', default: '10' },
    modes: { type: 'string', default: 'fast,auto' },
    rounds: { type: 'string', default: '1' },
    threads: { type: 'string' },
    keep: { type: 'boolean', default: false },
    docmill: { type: 'string' },
  },
  strict: true,
});

function positiveInt(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, not ${text}`);
  return value;
}

/** --dir, or the benchmark's pages beside the repository. */
async function benchDir(): Promise<string> {
  const dirs = flags.dir ? [resolve(flags.dir)] : await defaultPdfBenchDirs(REPO);
  // Only the PDFs are read here: no ground truth needed.
  const found = dirs.find((dir) => existsSync(join(dir, 'pdfs')));
  if (!found) throw new Error(`no folder with pdfs/ at ${dirs.join(' or ')}: pass --dir`);
  return found;
}

/** Where the binary comment's four bytes are (just after `%` on the line after the header), or -1. */
function binaryCommentAt(bytes: Uint8Array): number {
  const head = bytes.subarray(0, 1024);
  for (let i = 5; i + 5 < head.length; i++) {
    if ((head[i] === 0x0a || head[i] === 0x0d) && head[i + 1] === 0x25) {
      const at = i + 2;
      return head.subarray(at, at + 4).every((b) => b >= 0x80) ? at : -1;
    }
  }
  return -1;
}

/** `copies` copies of every PDF, each with its own bytes (the copy number in the binary comment). */
async function makeCopies(pdfs: string, out: string, copies: number): Promise<{ files: string[]; left: string[] }> {
  const files: string[] = [];
  const left: string[] = [];
  const names = readdirSync(pdfs).filter((name) => name.toLowerCase().endsWith('.pdf')).sort();
  for (let k = 0; k < copies; k++) await mkdir(join(out, `c${k}`), { recursive: true });
  for (const name of names) {
    const bytes = new Uint8Array(await readFile(join(pdfs, name)));
    const at = binaryCommentAt(bytes);
    if (at < 0) {
      left.push(name);
      continue;
    }
    for (let k = 0; k < copies; k++) {
      const copy = bytes.slice();
      // Base-128 digits of k, each with the high bit set: still a binary comment, and unique per copy.
      for (let d = 0, v = k; d < 4; d++, v = Math.floor(v / 128)) copy[at + d] = 0x80 | (v % 128);
      const path = join(out, `c${k}`, name);
      await writeFile(path, copy);
      files.push(path);
    }
  }
  return { files, left };
}

interface DocmillRun {
  root: string;
  mode: string;
  wallMs: number;
  /** Pages between the first and the last output written, and the time between them. */
  steadyPages: number;
  steadyMs: number;
  pages: number;
  peakRssKb: number | undefined;
  code: number | null;
  summary: string;
}

/** `out`: a folder of its own for this run, deleted with the rest at the end (see the header). */
async function runDocmill(root: string, copies: string, out: string, mode: string): Promise<DocmillRun> {
  const { code, wallMs, peakRssKb, summary } = await runDocmillCli(root, ['run', copies, '--out', out, '--mode', mode]);
  const outputs: number[] = [];
  for (const entry of await readdir(out, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.pdf.md') && !entry.parentPath.includes('_docmill')) {
      outputs.push(statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  outputs.sort((a, b) => a - b);
  const pages = Number(/· (\d+) pages/.exec(summary)?.[1] ?? outputs.length);
  // The bench's pages have one page each: outputs after the first are the steady pages.
  return { root, mode, wallMs, steadyPages: outputs.length - 1, steadyMs: (outputs.at(-1) ?? 0) - (outputs[0] ?? 0), pages, peakRssKb, code, summary };
}

async function main(): Promise<void> {
  const copiesCount = positiveInt('copies', flags.copies ?? '10');
  const threads = flags.threads ? positiveInt('threads', flags.threads) : availableParallelism();
  const modes = (flags.modes ?? 'fast').split(',').filter(Boolean);
  for (const mode of modes) if (!['fast', 'auto', 'ocr'].includes(mode)) throw new Error(`--modes: unknown mode ${mode}`);
  const roots = (flags.docmill ?? REPO).split(',').filter(Boolean).map((root) => resolve(root));
  for (const root of roots) if (!existsSync(join(root, 'dist/src/index.js'))) throw new Error(`${root}/dist/ is missing: npm run build`);
  const dir = await benchDir();
  const work = await mkdtemp(join(tmpdir(), 'docmill-pdf-run-'));
  try {
    const copies = join(work, 'copies');
    const { files, left } = await makeCopies(join(dir, 'pdfs'), copies, copiesCount);
    const list = join(work, 'pdfs.txt');
    await writeFile(list, files.join('\n') + '\n');
    const loadAtStart = loadavg().map((l) => l.toFixed(2)).join(' ');
    const date = new Date().toISOString();

    // LiteParse alone over the same files: an untimed pass, then a timed one.
    const [child] = await transpileForNode([join(REPO, 'bench/lib/pdf-bench-child.ts'), join(REPO, 'bench/lib/process-memory.ts')], join(work, 'child'));
    const liteparseEntry = await ensureLiteParse((line) => console.log(line));
    console.log(`LiteParse: ${files.length} files, warming up …`);
    const lite = await EngineChild.start(
      process.execPath,
      [child as string, '--engine', 'liteparse', '--threads', String(threads), '--list', list, '--out', join(work, 'liteparse'), '--liteparse-entry', liteparseEntry],
      { cwd: REPO, stderrPath: join(work, 'liteparse.stderr'), timeoutMs: 60 * 60_000 },
    );
    const rounds = positiveInt('rounds', flags.rounds ?? '1');
    const liteMs: number[] = [];
    /** Each contender's runs (a build in a mode), one a round. */
    const contenders = modes.flatMap((mode) => roots.map((root) => ({ mode, root, runs: [] as DocmillRun[] })));
    const steadyRate = (r: DocmillRun) => r.steadyPages / (r.steadyMs / 1000);
    for (let round = 1; round <= rounds; round++) {
      liteMs.push(await lite.round());
      console.log(`round ${round}/${rounds}: LiteParse ${files.length} files in ${(liteMs.at(-1)! / 1000).toFixed(1)} s (timed pass)`);
      for (const [index, contender] of contenders.entries()) {
        console.log(`docmill run --mode ${contender.mode} (${contender.root}): ${files.length} files …`);
        const result = await runDocmill(contender.root, copies, join(work, `out-${contender.mode}-${index}-r${round}`), contender.mode);
        console.log(`  ${(result.wallMs / 1000).toFixed(1)} s, exit ${result.code}: ${result.summary}`);
        contender.runs.push(result);
      }
    }
    const liteReport = await lite.finish<ChildReport>();
    // The pages of one pass, as the untimed one counted them.
    const liteRates = liteMs.map((ms) => liteReport.pages / (ms / 1000));
    const ratios = (c: (typeof contenders)[number]) => c.runs.map((r, round) => steadyRate(r) / liteRates[round]!);

    const mb = (kb: number | undefined) => (kb === undefined ? '–' : `${Math.round(kb / 1024)} MB`);
    const span = (values: readonly number[], digits: number) =>
      values.length > 1 ? ` (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})` : '';
    const wallMedian = (c: (typeof contenders)[number]) => median(c.runs.map((r) => r.wallMs));
    const timeOverFast = (c: (typeof contenders)[number]) => {
      const fast = contenders.find((other) => other.mode === 'fast' && other.root === c.root);
      return fast ? (wallMedian(c) / wallMedian(fast)).toFixed(2) : '–';
    };
    const peak = (c: (typeof contenders)[number]) => {
      const peaks = c.runs.map((r) => r.peakRssKb).filter((kb): kb is number => kb !== undefined);
      return peaks.length ? Math.max(...peaks) : undefined;
    };
    console.log('');
    console.log('docmill benchmark: PDF at scale, `docmill run` beside LiteParse alone over the same files');
    console.log(`  command: npx tsx bench/pdf-run.ts ${process.argv.slice(2).join(' ')}`.trimEnd());
    console.log(`  date: ${date}; node ${process.version}; ${cpus().length} CPUs; load average ${loadAtStart} at start, ${loadavg().map((l) => l.toFixed(2)).join(' ')} at end`);
    console.log(`  files: ${files.length} (${copiesCount} unique copies of ${files.length / copiesCount} PDFs from ${dir}/pdfs)${left.length ? `; left out (no binary comment): ${left.join(', ')}` : ''}`);
    console.log(`  LiteParse ${LITEPARSE_VERSION}: ${liteReport.describe}; pool of ${threads}`);
    console.log(`  docmill: node bin/docmill.js run <copies> --out <tmp> --mode M (local engine, ${availableParallelism()} threads, embedded Redis), from ${roots.join(', ')}`);
    console.log(`  ${rounds} round${rounds > 1 ? 's' : ''}, each contender once a round in turn: medians over the rounds (range in brackets); ÷ LiteParse is the median of each round's own ratio; peak RSS the highest`);
    console.log('');
    console.log(
      markdownTable(
        ['engine', 'pages', 'whole process', 'pages/s (steady)', '÷ LiteParse', 'peak RSS', 'time ÷ fast'],
        [
          ['LiteParse alone', String(liteReport.pages), '–', median(liteRates).toFixed(1) + span(liteRates, 0), '1.00', `${mb(liteReport.peakRssKb)} (${liteReport.peakRssProcesses} processes)`, '–'],
          ...contenders.map((c) => [
            `docmill run --mode ${c.mode}${roots.length > 1 ? ` (${c.root})` : ''}`,
            String(c.runs[0]?.pages ?? 0),
            `${(wallMedian(c) / 1000).toFixed(1)} s`,
            median(c.runs.map(steadyRate)).toFixed(1) + span(c.runs.map(steadyRate), 0),
            median(ratios(c)).toFixed(2) + span(ratios(c), 2),
            mb(peak(c)),
            timeOverFast(c),
          ]),
        ],
      ),
    );
    console.log('  targets: docmill run --mode fast ≥ 0.67 × LiteParse; peak RSS of docmill in mode fast ≤ 300 MB; auto ≤ 2 × fast (whole process)');
  } finally {
    if (!flags.keep) await rm(work, { recursive: true, force: true });
    else console.log(`kept: ${work}`);
  }
}

await main();
