/**
 * `docmill run|enqueue <source> --dry-run [--json]`: the library's `preview`: what would be sent and what it would
 * cost, with nothing sent, queued or written. `--json` prints exactly one JSON object on stdout.
 */
import { CREDIT_RULES, preview, type CostPreview, type PreviewItem } from '../../app/preview.js';
import { integerSetting } from '../../app/settings.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { commonOptions, environmentOf, producerOptions, s3Options } from '../library-options.js';
import type { ChunkFlags } from '../chunk-flags.js';
import type { ParseFlags } from '../parse-flags.js';
import type { ConnectionFlags, S3Flags, SourceFlags } from '../pipeline-flags.js';

export interface DryRunFlags extends ParseFlags, ChunkFlags, ConnectionFlags, SourceFlags, S3Flags {
  force?: boolean;
  json?: boolean;
  /** run's --split-pages: a long PDF in page ranges pays the per-request charges once per range. */
  splitPages?: string;
}

/** Items shown in the human table (the most expensive first); `--json` lists them all. */
const TOP_ITEMS = 10;

export async function dryRunCommand(source: string, flags: DryRunFlags, context: CliContext): Promise<number> {
  const environment = environmentOf(context);
  const result = await preview({
    source,
    out: flags.out,
    ...commonOptions(context, environment),
    s3: s3Options(flags),
    // OCR languages and chunks are part of the options fingerprint: the skip checks must see what a run would.
    ...(await producerOptions(flags)),
    ...(flags.splitPages !== undefined ? { splitPages: integerSetting(flags.splitPages, '--split-pages') } : {}),
  });
  if (flags.json) {
    context.stdout.write(`${JSON.stringify(result)}\n`);
    return EXIT.ok;
  }
  context.stdout.write(`${previewText(source, flags.out, result)}\n`);
  return EXIT.ok;
}

export function previewText(source: string, out: string | undefined, result: CostPreview): string {
  const lines = [
    `docmill: dry run of ${source}${out ? ` into ${out}` : ''}: nothing was sent, queued or written`,
    `  ${result.documents} documents · ${result.pages} pages · ${result.estimatedCredits} credits (estimated)`,
  ];
  const { unchanged, sameContent, tooLarge } = result.skipped;
  const left = [
    unchanged ? `${unchanged} unchanged` : '',
    sameContent ? `${sameContent} same content as a converted file (copied, 0 credits)` : '',
    tooLarge ? `${tooLarge} over 50 MiB` : '',
    result.notConverted ? `${result.notConverted} not converted (unsupported or unreadable)` : '',
  ].filter(Boolean);
  if (left.length > 0) lines.push(`  left out: ${left.join(', ')}`);
  if (!out) lines.push('  no --out given: documents already converted in an output are counted too');
  if (result.items.length > 0) {
    const top = [...result.items].sort((a, b) => b.credits - a.credits || a.path.localeCompare(b.path)).slice(0, TOP_ITEMS);
    lines.push(result.items.length > top.length ? `  the ${top.length} most expensive:` : '  documents:');
    lines.push(`  ${'credits'.padStart(8)} ${'pages'.padStart(6)}  path`);
    for (const item of top) lines.push(`  ${String(item.credits).padStart(8)} ${String(item.pages).padStart(6)}  ${item.path}`);
  }
  const noted = result.items.filter((item): item is PreviewItem & { note: string } => item.note !== undefined);
  for (const item of noted.slice(0, TOP_ITEMS)) lines.push(`  note: ${item.path}: ${item.note}`);
  if (noted.length > TOP_ITEMS) lines.push(`  note: ${noted.length - TOP_ITEMS} more PDFs could not be read (--json lists them)`);
  lines.push(
    `  credit rules: ${CREDIT_RULES.perDocument} per document, PDFs ${CREDIT_RULES.perPdfPage} per page; json format +${CREDIT_RULES.jsonFormat}; ` +
      `redactPII +${CREDIT_RULES.redactPii} and +${CREDIT_RULES.redactPiiPerExtraPdfPage} per PDF page after the first; zero data retention +${CREDIT_RULES.zeroDataRetention}`,
  );
  return lines.join('\n');
}

/** `--max-credits <n>` as the library's `maxCredits` (0 allows nothing to be sent). */
export function maxCreditsOption(flags: { maxCredits?: string | undefined }): { maxCredits?: number } {
  return flags.maxCredits === undefined ? {} : { maxCredits: integerSetting(flags.maxCredits, '--max-credits', { min: 0 }) };
}
