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
 * copies' pictures are the same bytes, and OCR answers a picture it has read from memory (recognition-memo.ts), so
 * only the first copy's are read; auto's cost over distinct documents is that of --copies 1.
 *
 * Flags: --dir DIR · --copies N (10) · --modes fast,auto · --threads N (cores; LiteParse's pool) · --keep ·
 *        --docmill ROOT,ROOT (this checkout): docmill builds to compare, each a folder with bin/docmill.js and dist/
 *        (another checkout, built), each run in turn in every mode
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

exitWithHelpIfAsked(import.meta.url);

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: flags } = parseArgs({
  options: {
    dir: { type: 'string' },
    copies: { type: 'string', default: '10' },
    modes: { type: 'string', default: 'fast,auto' },
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

async function runDocmill(root: string, copies: string, work: string, mode: string): Promise<DocmillRun> {
  const out = join(work, `out-${mode}`);
  await rm(out, { recursive: true, force: true });
  const { code, wallMs, peakRssKb, summary } = await runDocmillCli(root, ['run', copies, '--out', out, '--mode', mode]);
  const outputs: number[] = [];
  for (const entry of await readdir(out, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.pdf.md') && !entry.parentPath.includes('_docmill')) {
      outputs.push(statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  outputs.sort((a, b) => a - b);
  const pages = Number(/· (\d+) pages/.exec(summary)?.[1] ?? outputs.length);
  if (!flags.keep) await rm(out, { recursive: true, force: true });
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
    const liteMs = await lite.round();
    const liteReport = await lite.finish<ChildReport>();
    const litePagesPerSecond = liteReport.pages / (liteMs / 1000);
    console.log(`LiteParse: ${liteReport.pages} pages in ${(liteMs / 1000).toFixed(1)} s (timed pass)`);

    const runs: DocmillRun[] = [];
    for (const mode of modes) {
      for (const root of roots) {
        console.log(`docmill run --mode ${mode} (${root}): ${files.length} files …`);
        const result = await runDocmill(root, copies, work, mode);
        console.log(`  ${(result.wallMs / 1000).toFixed(1)} s, exit ${result.code}: ${result.summary}`);
        runs.push(result);
      }
    }

    const mb = (kb: number | undefined) => (kb === undefined ? '–' : `${Math.round(kb / 1024)} MB`);
    const steadyRate = (r: DocmillRun) => r.steadyPages / (r.steadyMs / 1000);
    const timeOverFast = (r: DocmillRun) => {
      const fast = runs.find((other) => other.mode === 'fast' && other.root === r.root);
      return fast ? (r.wallMs / fast.wallMs).toFixed(2) : '–';
    };
    console.log('');
    console.log('docmill benchmark: PDF at scale, `docmill run` beside LiteParse alone over the same files');
    console.log(`  command: npx tsx bench/pdf-run.ts ${process.argv.slice(2).join(' ')}`.trimEnd());
    console.log(`  date: ${date}; node ${process.version}; ${cpus().length} CPUs; load average ${loadAtStart} at start, ${loadavg().map((l) => l.toFixed(2)).join(' ')} at end`);
    console.log(`  files: ${files.length} (${copiesCount} unique copies of ${files.length / copiesCount} PDFs from ${dir}/pdfs)${left.length ? `; left out (no binary comment): ${left.join(', ')}` : ''}`);
    console.log(`  LiteParse ${LITEPARSE_VERSION}: ${liteReport.describe}; pool of ${threads}`);
    console.log(`  docmill: node bin/docmill.js run <copies> --out <tmp> --mode M (local engine, ${availableParallelism()} threads, embedded Redis), from ${roots.join(', ')}`);
    console.log('');
    console.log(
      markdownTable(
        ['engine', 'pages', 'whole process', 'pages/s (steady)', '÷ LiteParse', 'peak RSS', 'time ÷ fast'],
        [
          ['LiteParse alone', String(liteReport.pages), '–', litePagesPerSecond.toFixed(1), '1.00', `${mb(liteReport.peakRssKb)} (${liteReport.peakRssProcesses} processes)`, '–'],
          ...runs.map((r) => [
            `docmill run --mode ${r.mode}${roots.length > 1 ? ` (${r.root})` : ''}`,
            String(r.pages),
            `${(r.wallMs / 1000).toFixed(1)} s`,
            steadyRate(r).toFixed(1),
            (steadyRate(r) / litePagesPerSecond).toFixed(2),
            mb(r.peakRssKb),
            timeOverFast(r),
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
