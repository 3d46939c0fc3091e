/**
 * Benchmark "damaged documents" (issue 30): a seeded mutation campaign against `run` on the embedded local engine,
 * as a new user's batch meets damaged files (the defaults: PDF mode auto with OCR, the 30 s timeout, 4 queue
 * attempts). Run by hand, never by the tests:
 *
 *   npx tsx bench/mutations.ts                         # 1,500 mutants, seed 1, 2 engine threads
 *   npx tsx bench/mutations.ts --seed 7 --count 3000
 *   npx tsx bench/mutations.ts --count 200 --pdf-mode fast   # a quick look
 *
 * The mutants (test/engine/mutations/mutate.ts) are made from test/fixtures/corpus in every format: bit flips,
 * truncations, overwritten ranges, broken XML parts inside zip packages, zip-slip names, XXE and entity bombs, lying
 * zip headers, PDF xref and page-tree damage, formats under the wrong extension. The campaign
 * (test/engine/mutations/campaign.ts) writes them to a temporary folder, runs the batch into an output folder beside
 * it (the embedded redis-server unless --redis-url), and checks the guarantees: no crash, none lost, each converted
 * or failed with a code, no document tried more often than the rules allow, nothing written outside the output
 * folder, no XXE content in any output.
 *
 * Prints the wall time of the batch, the process's peak RSS (engine threads included), the outcome table per format
 * (the mutant's extension) and per mutation (columns: converted, converted with a warning, empty with a warning, then
 * each failure code; the most attempts any document took; the longest time a document cost, across its attempts),
 * and every broken guarantee. Exits 1 when one broke.
 *
 * Target (issue 30): 1,500 mutants on 2 cores in at most 5 minutes, no crash, none lost, nothing outside the output.
 *
 * Flags: --seed N (1) · --count N (1500) · --threads N (2) · --timeout MS (30000) · --pdf-mode fast|auto|ocr (auto)
 *        · --max-fixture-bytes N (all) · --redis-url URL (embedded) · --keep (leave the work folder) · --help
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { outcomeKey, outcomeTable, runCampaign } from '../test/engine/mutations/campaign.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    count: { type: 'string', default: '1500' },
    threads: { type: 'string', default: '2' },
    timeout: { type: 'string', default: '30000' },
    'pdf-mode': { type: 'string', default: 'auto' },
    'max-fixture-bytes': { type: 'string' },
    'redis-url': { type: 'string' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('npx tsx bench/mutations.ts [--seed N] [--count N] [--threads N] [--timeout MS] [--pdf-mode fast|auto|ocr] [--max-fixture-bytes N] [--redis-url URL] [--keep]');
  process.exit(0);
}
const seed = Number(values.seed);
const count = Number(values.count);
const threads = Number(values.threads);
const timeout = Number(values.timeout);
const mode = values['pdf-mode'] as 'fast' | 'auto' | 'ocr';

const workDir = await mkdtemp(join(tmpdir(), 'docmill-mutations-'));
console.log(`seed ${seed}, ${count} mutants, ${threads} engine threads, timeout ${timeout} ms, PDF mode ${mode}; ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}`);
console.log(`work folder ${workDir}`);
try {
  const result = await runCampaign({
    seed,
    count,
    workDir,
    threads,
    redisUrl: values['redis-url'],
    parseOptions: { timeout, parsers: [{ type: 'pdf', mode }] },
    ...(values['max-fixture-bytes'] ? { maxFixtureBytes: Number(values['max-fixture-bytes']) } : {}),
  });
  const { outcomes, summary } = result;
  const keys = outcomes.map(outcomeKey);
  const tally = (key: string) => keys.filter((candidate) => candidate === key).length;
  const converted = tally('converted') + tally('converted+warning') + tally('empty+warning');
  const requests = outcomes.reduce((sum, outcome) => sum + (outcome.record?.attempts ?? 0), 0);
  console.log('');
  console.log(`batch: ${(result.elapsedMs / 1000).toFixed(1)} s wall (${(result.elapsedMs / count).toFixed(0)} ms per mutant), peak RSS ${(result.peakRssBytes / 2 ** 20).toFixed(0)} MiB, ${requests} parse requests`);
  console.log(
    `outcomes: ${converted} converted (${tally('converted+warning')} with a warning, ${tally('empty+warning')} empty with a warning), ` +
      `${summary.counts.failed} failed with a code, ${summary.counts.skipped} skipped as the same content as another mutant, ${tally('LOST')} lost`,
  );
  console.log('');
  console.log(outcomeTable(outcomes, (outcome) => outcome.mutant.extension, 'format'));
  console.log('');
  console.log(outcomeTable(outcomes, (outcome) => outcome.mutant.mutation, 'mutation'));
  console.log('');
  const slowest = [...outcomes].sort((a, b) => (b.record?.totalDurationMs ?? 0) - (a.record?.totalDurationMs ?? 0)).slice(0, 5);
  console.log('slowest documents:');
  for (const outcome of slowest) {
    console.log(`  ${outcome.mutant.fileName}: ${((outcome.record?.totalDurationMs ?? 0) / 1000).toFixed(1)} s, ${outcome.record?.attempts} attempt(s), ${outcomeKey(outcome)}`);
  }
  console.log('');
  if (result.problems.length === 0) {
    console.log('guarantees: all held (no crash, none lost, attempts within the rules, nothing outside the output folder, no XXE content)');
  } else {
    console.log(`guarantees: ${result.problems.length} broken`);
    for (const problem of result.problems) console.log(`  ${problem}`);
    process.exitCode = 1;
  }
} finally {
  if (!values.keep) await rm(workDir, { recursive: true, force: true });
}
