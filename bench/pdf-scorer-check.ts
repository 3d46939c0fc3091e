/**
 * Checks bench/lib/pdf-score against opendataloader-bench's own evaluator, without Python: a checkout of the
 * benchmark holds each engine's Markdown (`prediction/<engine>/markdown/<id>.md`) and the evaluator's scores of it
 * (`prediction/<engine>/evaluation.json`, per document). This scores the same Markdown against the same references
 * (`ground-truth/markdown/<id>.md`) and prints, per engine and score, the largest difference and the pages that
 * differ by more than 1e-6.
 *
 *   npx tsx bench/pdf-scorer-check.ts --bench <opendataloader-bench checkout> [--engines docling,marker] [--only <id,...>]
 */
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { scorePage, SCORE_NAMES, type ScoreName } from './lib/pdf-score/scores.js';
import { markdownTable } from './lib/table.js';
import { exitWithHelpIfAsked } from './lib/help.js';

exitWithHelpIfAsked(import.meta.url);

const { values: flags } = parseArgs({
  options: { bench: { type: 'string' }, engines: { type: 'string' }, only: { type: 'string' }, show: { type: 'string', default: '5' } },
  strict: true,
});

/** evaluation.json's names for our scores. */
const PUBLISHED: Record<ScoreName, string> = { overall: 'overall', nid: 'nid', nidS: 'nid_s', teds: 'teds', tedsS: 'teds_s', mhs: 'mhs', mhsS: 'mhs_s' };

interface Evaluation {
  documents: { document_id: string; scores: Record<string, number | null> }[];
}

async function main(): Promise<void> {
  const bench = flags.bench;
  if (!bench || !existsSync(join(bench, 'prediction'))) {
    console.error('usage: npx tsx bench/pdf-scorer-check.ts --bench <checkout of opendataloader-bench, with prediction/ and ground-truth/>');
    process.exit(2);
  }
  const only = flags.only ? new Set(flags.only.split(',')) : undefined;
  const engines = (flags.engines?.split(',') ?? readdirSync(join(bench, 'prediction')).sort()).filter((engine) =>
    existsSync(join(bench, 'prediction', engine, 'evaluation.json')),
  );
  const rows: string[][] = [];
  const offenders: string[] = [];
  let scored = 0;
  const started = performance.now();
  for (const engine of engines) {
    const evaluation = JSON.parse(await readFile(join(bench, 'prediction', engine, 'evaluation.json'), 'utf8')) as Evaluation;
    const worst = Object.fromEntries(SCORE_NAMES.map((name) => [name, 0])) as Record<ScoreName, number>;
    let differing = 0;
    let pages = 0;
    for (const document of evaluation.documents) {
      const id = document.document_id;
      if (only && !only.has(id)) continue;
      const reference = await readFile(join(bench, 'ground-truth', 'markdown', `${id}.md`), 'utf8');
      const outputPath = join(bench, 'prediction', engine, 'markdown', `${id}.md`);
      const output = existsSync(outputPath) ? await readFile(outputPath, 'utf8') : '';
      const ours = scorePage(reference, output);
      pages++;
      const diffs: string[] = [];
      for (const name of SCORE_NAMES) {
        const theirs = document.scores[PUBLISHED[name]] ?? undefined;
        const mine = ours[name];
        const gap = theirs === undefined || mine === undefined ? (theirs === mine ? 0 : Infinity) : Math.abs(theirs - mine);
        worst[name] = Math.max(worst[name], gap);
        if (gap > 1e-6) diffs.push(`${name} ${mine?.toFixed(4) ?? '-'} vs ${theirs?.toFixed(4) ?? '-'}`);
      }
      if (diffs.length > 0) {
        differing++;
        offenders.push(`${engine} ${id}: ${diffs.join(', ')}`);
      }
    }
    scored += pages;
    rows.push([engine, String(pages), String(differing), ...SCORE_NAMES.map((name) => (worst[name] === Infinity ? 'defined/undefined' : worst[name].toExponential(1)))]);
  }
  console.log(markdownTable(['engine', 'pages', 'pages differing', ...SCORE_NAMES.map((n) => `max |Δ| ${n}`)], rows));
  console.log(`\n${scored} pages scored in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const show = Number(flags.show);
  if (offenders.length > 0) {
    console.log(`\nPages that differ by more than 1e-6 (${offenders.length}; first ${Math.min(show, offenders.length)}):`);
    for (const line of offenders.slice(0, show)) console.log(`  ${line}`);
  }
}

await main();
