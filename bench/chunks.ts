/**
 * Benchmark "chunking throughput" (issue 12). Run by hand, never by the tests:
 *
 *   npx tsx bench/chunks.ts                          # the corpus, budgets 512 and 128 (overlap 32), 5 rounds
 *   npx tsx bench/chunks.ts --corpus DIR --rounds 3 --budgets 512,256 --overlap 0
 *   npx tsx bench/chunks.ts --before ../docmill-old --markdown big-table.md   # beside an older build, in turn
 *
 * What it measures: `chunk(data, options)` alone (src/chunk), the work `--chunks` adds to each document after its
 * parse, on real documents. Every file of <corpus>/<ext>/ (default test/fixtures/corpus, but the `.expected.md`
 * references) is parsed first, once, untimed, by the local engine (`LocalParseEngine({ size: 1 })`) with the options
 * `--chunks` sends (pages and blocks on); files the engine refuses (empty, encrypted, truncated) are left out and
 * counted. Then the cl100k_base tables are loaded (timed apart: once per process), one untimed pass warms the JIT,
 * and --rounds timed passes chunk every document at each budget.
 *
 * Reported per budget: documents, chunks, Markdown size (UTF-8 MB), and the median over rounds (min–max) of
 * chunks/s and MB/s of Markdown = totals / the time of one pass over all documents (`performance.now()` around
 * the calls only). One thread; nothing else of docmill runs meanwhile.
 *
 * `--before DIR` (a checkout of docmill with its `dist/` built) times that build's chunk() on the same documents in
 * the same rounds, the two in turn, and prints its MB/s and the ratio; `--markdown a.md,b.md` adds Markdown files as
 * documents (a large CSV's Markdown, say: one table of many rows).
 *
 * Flags: --corpus DIR · --rounds N (5) · --budgets a,b (512,128) · --overlap N (32; applied to budgets above it)
 *        · --before DIR · --markdown FILES · --help
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chunk, LocalParseEngine, parseFile, type ParseData } from '../src/index.js';
import { countTokens } from '../src/chunk/tokens.js';
import { markdownTable } from './lib/table.js';
import { median } from './lib/median.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: flags } = parseArgs({
  options: {
    corpus: { type: 'string', default: resolve(REPO, 'test/fixtures/corpus') },
    rounds: { type: 'string', default: '5' },
    budgets: { type: 'string', default: '512,128' },
    overlap: { type: 'string', default: '32' },
    before: { type: 'string' },
    markdown: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

if (flags.help) {
  process.stdout.write('npx tsx bench/chunks.ts [--corpus DIR] [--rounds N] [--budgets 512,128] [--overlap 32] [--before DIR] [--markdown FILES]\n');
  process.exit(0);
}

const positive = (name: string, text: string, min = 1) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer >= ${min}, not ${text}`);
  return value;
};
const rounds = positive('rounds', flags.rounds);
const budgets = flags.budgets.split(',').map((text) => positive('budgets', text.trim()));
const overlap = positive('overlap', flags.overlap, 0);

function corpusFiles(corpus: string): string[] {
  const files: string[] = [];
  for (const folder of readdirSync(corpus, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    for (const entry of readdirSync(join(corpus, folder.name), { withFileTypes: true })) {
      if (entry.isFile() && !entry.name.endsWith('.expected.md') && entry.name !== 'SOURCES.md') files.push(join(corpus, folder.name, entry.name));
    }
  }
  return files.sort();
}


async function main(): Promise<void> {
  const engine = new LocalParseEngine({ size: 1 });
  const documents: Array<{ path: string; data: ParseData }> = [];
  const refused: string[] = [];
  try {
    for (const path of corpusFiles(flags.corpus)) {
      try {
        const data = await parseFile(path, { backend: engine, parseOptions: { parsers: [{ type: 'pdf', pages: true, blocks: true }] } });
        if (data.markdown) documents.push({ path, data });
      } catch {
        refused.push(path.slice(flags.corpus.length + 1));
      }
    }
  } finally {
    await engine.close();
  }
  for (const path of flags.markdown?.split(',') ?? []) documents.push({ path, data: { markdown: readFileSync(path, 'utf8') } });
  const before = flags.before ? ((await import(join(resolve(flags.before), 'dist/src/index.js'))) as { chunk: typeof chunk }).chunk : undefined;
  const markdownMB = documents.reduce((sum, { data }) => sum + Buffer.byteLength(data.markdown ?? '', 'utf8'), 0) / 1e6;

  const loadStarted = performance.now();
  countTokens('load the tables');
  const loadMs = performance.now() - loadStarted;

  const rows: string[][] = [];
  for (const maxTokens of budgets) {
    const overlapTokens = overlap < maxTokens ? overlap : 0;
    const options = { maxTokens, overlapTokens };
    let chunks = 0;
    for (const { path, data } of documents) chunks += chunk(data, { ...options, source: { path, sha256: '0'.repeat(64) } }).length;
    const chunksPerSecond: number[] = [];
    const mbPerSecond: number[] = [];
    const beforeMbPerSecond: number[] = [];
    const pass = (chunker: typeof chunk): number => {
      const started = performance.now();
      for (const { path, data } of documents) chunker(data, { ...options, source: { path, sha256: '0'.repeat(64) } });
      return (performance.now() - started) / 1000;
    };
    if (before) pass(before);
    for (let round = 0; round < rounds; round++) {
      // In turn, each build first every other round, so that neither always runs on the other's garbage.
      const beforeFirst = before !== undefined && round % 2 === 1;
      if (beforeFirst) beforeMbPerSecond.push(markdownMB / pass(before));
      const seconds = pass(chunk);
      if (before && !beforeFirst) beforeMbPerSecond.push(markdownMB / pass(before));
      chunksPerSecond.push(chunks / seconds);
      mbPerSecond.push(markdownMB / seconds);
    }
    const range = (values: number[], digits: number) =>
      `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
    rows.push([
      `${maxTokens}`,
      `${overlapTokens}`,
      `${documents.length}`,
      `${chunks}`,
      markdownMB.toFixed(3),
      range(chunksPerSecond, 0),
      range(mbPerSecond, 2),
      ...(before ? [range(beforeMbPerSecond, 2), (median(mbPerSecond) / median(beforeMbPerSecond)).toFixed(2)] : []),
    ]);
  }

  process.stdout.write(
    [
      `chunk() on ${flags.corpus} · ${rounds} rounds · node ${process.version} · ${cpus().length} cores (${cpus()[0]?.model ?? '?'}) · load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
      `cl100k_base tables loaded in ${loadMs.toFixed(0)} ms (once per process); ${refused.length} files refused by the engine and left out${refused.length ? `: ${refused.join(', ')}` : ''}`,
      '',
      markdownTable(
        [
          'maxTokens',
          'overlap',
          'documents',
          'chunks',
          'Markdown MB',
          'chunks/s median (min–max)',
          'MB/s median (min–max)',
          ...(before ? [`--before MB/s`, 'MB/s ÷ before'] : []),
        ],
        rows,
      ),
      '',
    ].join('\n'),
  );
}

await main();
