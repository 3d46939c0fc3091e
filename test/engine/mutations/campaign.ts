/**
 * A mutation campaign as a new user's batch meets damaged files: seeded mutants (mutate.ts) written into a source
 * folder, converted by `run` (the library's, the embedded local engine, the defaults a user gets) into an output
 * folder beside it, then held to the guarantees:
 *
 * - the run ends (`completed`): no crash;
 * - every mutant has one manifest line, converted or failed with a code (never UNKNOWN_ERROR or INTERNAL), or skipped
 *   as the same content as another mutant (a mutation that gives the same bytes twice): none lost;
 * - no document is tried more often than the rules allow (docs/limits-and-retries.md, "The local engine"): once, or
 *   twice when its first try overran its time or lost its thread; so a failure with any other code took one
 *   attempt;
 * - nothing is written outside the output folder: the work folder holds only the source, the output and the secret
 *   file, the path the zip-slip mutants aim at does not exist, and every output is inside the output folder;
 * - the secret file an XXE mutant names never reaches an output.
 *
 * Shared by the test (mutations.test.ts) and the long run (bench/mutations.ts), which also prints the outcome
 * tables this module makes.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { run, type ParseOptionsInput, type RunSummary } from '../../../src/index.js';
import type { ManifestEntry } from '../../../src/store/output-store.js';
import { parseManifestLine } from '../../../src/store/records.js';
import { corpusFixtures, makeMutants, type Mutant } from './mutate.js';

export interface CampaignOptions {
  seed: number;
  count: number;
  /** An empty folder the campaign owns: it writes `src/`, `out/` and the secret file there. */
  workDir: string;
  /** Engine threads (documents parsed at once). @default 2 */
  threads?: number;
  /** Redis to queue in (and the queue's name); absent: the embedded redis-server under the output. */
  redisUrl?: string | undefined;
  queue?: string | undefined;
  /** The parse options of the batch. @default the contract's defaults */
  parseOptions?: ParseOptionsInput | undefined;
  /** Only fixtures up to this size are mutated. @default all */
  maxFixtureBytes?: number;
}

/** One mutant and what became of it. */
export interface Outcome {
  mutant: Mutant;
  record: ManifestEntry | undefined;
  /** The data's `warning`, for a converted document. */
  warning: string | undefined;
  /** Whether a converted document's Markdown is empty. */
  emptyMarkdown: boolean;
}

export interface CampaignResult {
  summary: RunSummary;
  outcomes: Outcome[];
  elapsedMs: number;
  peakRssBytes: number;
  /** Every broken guarantee, in words; empty when all held. */
  problems: string[];
}

const SECRET = `docmill-secret-${randomUUID()}`;
/** Failures that may take a second try (the first overran its time or lost its thread). */
const RETRIED_ONCE = new Set(['PARSE_TIMEOUT', 'CONVERSION_FAILED']);

export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const { workDir } = options;
  const src = join(workDir, 'src');
  const out = join(workDir, 'out');
  const secretPath = join(workDir, 'secret.txt');
  const escapePath = join(workDir, 'escaped-by-zip-slip.txt');
  await mkdir(src, { recursive: true });
  await writeFile(secretPath, `${SECRET}\n`);
  const mutants = makeMutants(options.seed, options.count, corpusFixtures(options.maxFixtureBytes), { secretPath, escapePath });
  for (const mutant of mutants) await writeFile(join(src, mutant.fileName), mutant.bytes);

  let peakRssBytes = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage.rss());
  }, 200);
  const started = Date.now();
  let summary: RunSummary;
  try {
    const threads = options.threads ?? 2;
    summary = await run({
      source: src,
      out,
      engineThreads: threads,
      // Jobs also read, hash and write: a few more than threads keep the threads busy.
      concurrency: threads * 2,
      ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
      ...(options.queue ? { queue: options.queue } : {}),
      ...(options.parseOptions ? { parseOptions: options.parseOptions } : {}),
    }).done;
  } finally {
    clearInterval(sampler);
  }
  const elapsedMs = Date.now() - started;

  const records = new Map<string, ManifestEntry[]>();
  const manifest = await readFile(join(out, '_docmill', 'manifest.jsonl'), 'utf8').catch(() => '');
  for (const line of manifest.split('\n')) {
    const entry = parseManifestLine(line);
    if (entry !== undefined) records.set(entry.path, [...(records.get(entry.path) ?? []), entry]);
  }
  const outcomes: Outcome[] = [];
  const problems: string[] = [];
  if (summary.outcome !== 'completed') problems.push(`the run ended ${summary.outcome}${summary.error ? `: ${summary.error.message}` : ''}`);
  for (const mutant of mutants) {
    const lines = records.get(mutant.fileName) ?? [];
    const record = lines[0];
    if (lines.length !== 1) problems.push(`${mutant.fileName}: ${lines.length} manifest lines`);
    let warning: string | undefined;
    let emptyMarkdown = false;
    if (record?.status === 'converted') {
      const data = JSON.parse(await readFile(join(out, `${mutant.fileName}.json`), 'utf8').catch(() => '{}')) as { warning?: string };
      warning = data.warning ?? undefined;
      emptyMarkdown = (await readFile(join(out, `${mutant.fileName}.md`), 'utf8').catch(() => '')).trim() === '';
      if (emptyMarkdown && warning === undefined) problems.push(`${mutant.fileName}: converted to an empty Markdown without a warning`);
    } else if (record?.status === 'failed') {
      const code = record.error?.code;
      if (!code || code === 'UNKNOWN_ERROR' || code === 'INTERNAL') problems.push(`${mutant.fileName}: failed without a precise code (${code ?? 'none'}: ${record.error?.message ?? ''})`);
    } else if (record?.status === 'skipped') {
      // Another mutant came out byte for byte the same (a deterministic mutation of the same fixture): its outputs are
      // copied, without a request.
      if (record.attempts !== 0) problems.push(`${mutant.fileName}: skipped (${record.reason ?? ''}) after ${record.attempts} attempts`);
    } else if (record !== undefined) {
      problems.push(`${mutant.fileName}: recorded ${record.status}`);
    }
    if (record !== undefined && record.status !== 'skipped') {
      const allowed = record.status === 'failed' && !RETRIED_ONCE.has(record.error?.code ?? '') ? 1 : 2;
      if (record.attempts > allowed || record.attempts < 1) problems.push(`${mutant.fileName}: ${record.attempts} attempts (at most ${allowed} allowed)`);
    }
    outcomes.push({ mutant, record, warning, emptyMarkdown });
  }
  problems.push(...(await strayWrites(workDir, out, escapePath)));
  problems.push(...(await leakedSecrets(out)));
  return { summary, outcomes, elapsedMs, peakRssBytes, problems };
}

/** Anything in the work folder but the source, the output and the secret; anything under the output that leads out of it. */
async function strayWrites(workDir: string, out: string, escapePath: string): Promise<string[]> {
  const problems: string[] = [];
  if (existsSync(escapePath)) problems.push(`a zip-slip entry was written to ${escapePath}`);
  for (const name of await readdir(workDir)) {
    if (!['src', 'out', 'secret.txt'].includes(name)) problems.push(`written outside the output folder: ${join(workDir, name)}`);
  }
  const root = await realpath(out);
  for (const path of await walk(out)) {
    const resolved = await realpath(path);
    if (resolved !== root && !resolved.startsWith(root + sep)) problems.push(`${relative(out, path)} leads outside the output folder (${resolved})`);
  }
  return problems;
}

async function leakedSecrets(out: string): Promise<string[]> {
  const problems: string[] = [];
  for (const path of await walk(out)) {
    if (!(await lstat(path)).isFile() || path.includes(`${sep}_docmill${sep}redis`)) continue;
    if ((await readFile(path)).includes(SECRET)) problems.push(`the secret file's content reached ${relative(out, path)}`);
  }
  return problems;
}

async function walk(dir: string): Promise<string[]> {
  const paths: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    paths.push(path);
    if (entry.isDirectory()) paths.push(...(await walk(path)));
  }
  return paths;
}

/** What became of a mutant, as a table column: converted, converted-warned, converted-empty, or the failure's code. */
export function outcomeKey(outcome: Outcome): string {
  const { record } = outcome;
  if (record === undefined) return 'LOST';
  if (record.status === 'converted') return outcome.emptyMarkdown ? 'empty+warning' : outcome.warning === undefined ? 'converted' : 'converted+warning';
  if (record.status === 'failed') return record.error?.code ?? 'failed';
  return record.status;
}

/** A fixed-width table of outcomes by `group` (format or mutation), one column per outcome seen. */
export function outcomeTable(outcomes: readonly Outcome[], group: (outcome: Outcome) => string, title: string): string {
  const columns = [...new Set(outcomes.map(outcomeKey))].sort((a, b) => columnOrder(a) - columnOrder(b) || a.localeCompare(b));
  const groups = [...new Set(outcomes.map(group))].sort();
  const rows = groups.map((name) => {
    const mine = outcomes.filter((outcome) => group(outcome) === name);
    const maxAttempts = Math.max(0, ...mine.map((outcome) => outcome.record?.attempts ?? 0));
    const slowest = Math.max(0, ...mine.map((outcome) => outcome.record?.totalDurationMs ?? outcome.record?.durationMs ?? 0));
    return [name, String(mine.length), ...columns.map((column) => String(mine.filter((outcome) => outcomeKey(outcome) === column).length || '')), String(maxAttempts), `${(slowest / 1000).toFixed(1)}`];
  });
  const totals = [
    'all',
    String(outcomes.length),
    ...columns.map((column) => String(outcomes.filter((outcome) => outcomeKey(outcome) === column).length)),
    String(Math.max(0, ...outcomes.map((outcome) => outcome.record?.attempts ?? 0))),
    `${(Math.max(0, ...outcomes.map((outcome) => outcome.record?.totalDurationMs ?? 0)) / 1000).toFixed(1)}`,
  ];
  const header = [title, 'n', ...columns, 'max attempts', 'slowest s'];
  const table = [header, ...rows, totals];
  const widths = header.map((_unused, index) => Math.max(...table.map((row) => (row[index] ?? '').length)));
  return table.map((row) => row.map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0))).join('  ')).join('\n');
}

function columnOrder(column: string): number {
  return ['converted', 'converted+warning', 'empty+warning'].indexOf(column) >= 0 ? ['converted', 'converted+warning', 'empty+warning'].indexOf(column) : 10;
}
