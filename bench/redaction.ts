/**
 * Benchmark "PII redaction on the local engine" (issue 11). Run by hand, never by the tests:
 *
 *   npx tsx bench/redaction.ts            # a few seconds
 *
 * Data: every labelled document of test/fixtures/pii/ (`<name>.labels.json` beside its document): each piece of
 * personal data with its entity bucket, and look-alikes (order numbers, ISBNs, versions, dates, prices, UUIDs,
 * hashes) that must survive.
 *
 * Method, per document and mode (fast, accurate, aggressive; every entity asked for): the document goes through the
 * local engine unredacted (`parseDocument`, blocks on), and the redactor's finder runs on each block's Markdown, as
 * the engine applies it. Gold spans are every occurrence of every label's text in a block.
 * - Recall per entity: the share of gold spans entirely covered by spans the finder gave the same entity.
 * - Precision per entity: the share of the finder's spans of that entity that overlap a gold span of that entity.
 *   A span over a look-alike or over unlabelled text counts against precision.
 * - Look-alikes hit: occurrences of look-alikes that any span overlaps (should be 0 in every mode).
 * Targets (issue 11): accurate precision ≥ 0.95, aggressive recall ≥ 0.95, no secret missed in any mode.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseOptionsSchema, REDACTION_ENTITIES, REDACTION_MODES } from '../src/contract/options.js';
import { parseDocument } from '../src/engine/engine.js';
import type { PiiEntity, PiiSpan, RedactionMode } from '../src/engine/redact/entities.js';
import { createPiiFinder } from '../src/engine/redact/find-pii.js';
import { markdownTable } from './lib/table.js';
import { exitWithHelpIfAsked } from './lib/help.js';

exitWithHelpIfAsked(import.meta.url);

interface LabelFile {
  document: string;
  pii: { text: string; entity: PiiEntity }[];
  lookalikes: string[];
}
interface Gold {
  start: number;
  end: number;
  entity: PiiEntity;
}
interface Tally {
  goldFound: number;
  gold: number;
  predictedRight: number;
  predicted: number;
}

const FIXTURES = new URL('../test/fixtures/pii/', import.meta.url);
const MODES: readonly RedactionMode[] = ['fast', 'accurate', 'aggressive'];

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) found.push(index);
  return found;
}

function covered(gold: Gold, spans: readonly PiiSpan[]): boolean {
  for (let position = gold.start; position < gold.end; position += 1) {
    if (!spans.some((span) => span.entity === gold.entity && span.start <= position && span.end > position)) return false;
  }
  return true;
}

async function blocksOf(labels: LabelFile): Promise<string[]> {
  const bytes = new Uint8Array(readFileSync(new URL(labels.document, FIXTURES)));
  const options = parseOptionsSchema.parse({ parsers: [{ type: 'pdf', blocks: true }] });
  const data = await parseDocument({ bytes, fileName: labels.document, options });
  return (data.blocks ?? []).flatMap((page) => page.items.map((item) => item.content));
}

async function main(): Promise<void> {
  const labelFiles = readdirSync(FIXTURES).filter((name) => name.endsWith('.labels.json'));
  const documents = await Promise.all(
    labelFiles.map(async (name) => {
      const labels = JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8')) as LabelFile;
      return { labels, blocks: await blocksOf(labels) };
    }),
  );
  const tallies = new Map<string, Tally>();
  const tally = (mode: RedactionMode, entity: PiiEntity): Tally => {
    const key = `${mode}/${entity}`;
    let entry = tallies.get(key);
    if (!entry) tallies.set(key, (entry = { goldFound: 0, gold: 0, predictedRight: 0, predicted: 0 }));
    return entry;
  };
  /** Micro tallies per document and mode, so the held-out document can be read apart. */
  const byDocument = new Map<string, Tally>();
  const documentTally = (document: string, mode: RedactionMode): Tally => {
    const key = `${document}/${mode}`;
    let entry = byDocument.get(key);
    if (!entry) byDocument.set(key, (entry = { goldFound: 0, gold: 0, predictedRight: 0, predicted: 0 }));
    return entry;
  };
  const lookalikesHit = new Map<RedactionMode, string[]>();
  const secretsMissed = new Map<RedactionMode, string[]>();
  const timings = new Map<RedactionMode, number>();

  for (const mode of MODES) {
    const find = await createPiiFinder({ mode, entities: [...REDACTION_ENTITIES], replaceStyle: 'tag' });
    lookalikesHit.set(mode, []);
    secretsMissed.set(mode, []);
    const started = performance.now();
    for (const { labels, blocks } of documents) {
      for (const block of blocks) {
        const spans = find(block);
        const gold: Gold[] = labels.pii.flatMap((label) =>
          occurrences(block, label.text).map((start) => ({ start, end: start + label.text.length, entity: label.entity })),
        );
        const perDocument = documentTally(labels.document, mode);
        for (const item of gold) {
          const entry = tally(mode, item.entity);
          entry.gold += 1;
          perDocument.gold += 1;
          if (covered(item, spans)) {
            entry.goldFound += 1;
            perDocument.goldFound += 1;
          }
          else if (item.entity === 'SECRET') secretsMissed.get(mode)?.push(block.slice(item.start, item.end));
        }
        for (const span of spans) {
          const entry = tally(mode, span.entity);
          entry.predicted += 1;
          perDocument.predicted += 1;
          if (gold.some((item) => item.entity === span.entity && item.start < span.end && item.end > span.start)) {
            entry.predictedRight += 1;
            perDocument.predictedRight += 1;
          } else process.stdout.write(`  ${mode} false ${span.entity}: ${JSON.stringify(block.slice(span.start, span.end))}\n`);
        }
        for (const lookalike of labels.lookalikes) {
          for (const start of occurrences(block, lookalike)) {
            if (spans.some((span) => span.start < start + lookalike.length && span.end > start)) lookalikesHit.get(mode)?.push(lookalike);
          }
        }
      }
    }
    timings.set(mode, performance.now() - started);
  }

  const ratio = (part: number, whole: number): string => (whole === 0 ? '–' : (part / whole).toFixed(3));
  const cell = (entry: Tally | undefined): string =>
    entry ? `${ratio(entry.predictedRight, entry.predicted)} / ${ratio(entry.goldFound, entry.gold)}` : '– / –';
  const rows = REDACTION_ENTITIES.map((entity) => [
    entity,
    String(tallies.get(`fast/${entity}`)?.gold ?? 0),
    ...MODES.map((mode) => cell(tallies.get(`${mode}/${entity}`))),
  ]);
  const all = (mode: RedactionMode): Tally =>
    REDACTION_ENTITIES.reduce<Tally>(
      (sum, entity) => {
        const entry = tallies.get(`${mode}/${entity}`);
        return entry
          ? { goldFound: sum.goldFound + entry.goldFound, gold: sum.gold + entry.gold, predictedRight: sum.predictedRight + entry.predictedRight, predicted: sum.predicted + entry.predicted }
          : sum;
      },
      { goldFound: 0, gold: 0, predictedRight: 0, predicted: 0 },
    );
  rows.push(['all (micro)', String(all('fast').gold), ...MODES.map((mode) => cell(all(mode)))]);
  const documentsLine = documents.map(({ labels }) => labels.document).join(', ');
  process.stdout.write(`\nDocuments: ${documentsLine}; modes ${REDACTION_MODES.join(', ')}\n`);
  process.stdout.write('Precision / recall per entity (gold = labelled occurrences)\n\n');
  process.stdout.write(`${markdownTable(['entity', 'gold', ...MODES], rows)}\n\n`);
  const documentRows = documents.map(({ labels }) => [
    labels.document,
    String(byDocument.get(`${labels.document}/fast`)?.gold ?? 0),
    ...MODES.map((mode) => cell(byDocument.get(`${labels.document}/${mode}`))),
  ]);
  process.stdout.write('Per document, all entities (micro)\n\n');
  process.stdout.write(`${markdownTable(['document', 'gold', ...MODES], documentRows)}\n\n`);
  for (const mode of MODES) {
    const hits = lookalikesHit.get(mode) ?? [];
    const missed = secretsMissed.get(mode) ?? [];
    process.stdout.write(
      `${mode}: look-alikes hit ${hits.length}${hits.length ? ` (${hits.join(', ')})` : ''}; secrets missed ${missed.length}` +
        `${missed.length ? ` (${missed.join(', ')})` : ''}; finder time ${(timings.get(mode) ?? 0).toFixed(0)} ms\n`,
    );
  }
  const accurate = all('accurate');
  const aggressive = all('aggressive');
  const precision = accurate.predictedRight / accurate.predicted;
  const recall = aggressive.goldFound / aggressive.gold;
  const noSecretMissed = MODES.every((mode) => (secretsMissed.get(mode) ?? []).length === 0);
  process.stdout.write(
    `\nTargets: accurate precision ${precision.toFixed(3)} ${precision >= 0.95 ? 'met' : 'MISSED'} (≥ 0.95); ` +
      `aggressive recall ${recall.toFixed(3)} ${recall >= 0.95 ? 'met' : 'MISSED'} (≥ 0.95); ` +
      `no secret missed in any mode: ${noSecretMissed ? 'met' : 'MISSED'}\n`,
  );
}

await main();
