/**
 * `docmill run <source> --out <dest>`: the library's `run` with a progress line and a summary grouped by cause.
 */
import { relative, resolve } from 'node:path';
import { run } from '../../app/run.js';
import { describeGroups, type RunSummary, type WarningSummary } from '../../app/summary.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import {
  apiOptions,
  commonOptions,
  environmentOf,
  producerOptions,
  queueOptions,
  redisWaitMs,
  removedOption,
  s3Options,
  workerDashboard,
  workerNumbers,
} from '../library-options.js';
import type { ParseFlags } from '../parse-flags.js';
import type { ApiFlagValues, ConnectionFlags, RedisWaitFlags, RemovedFlags, S3Flags, SourceFlags, WorkerFlags } from '../pipeline-flags.js';
import { Progress } from '../progress.js';
import { reportError } from '../report-error.js';
import { UsageError } from '../usage-error.js';
import { maxCreditsOption } from './dry-run-action.js';

export interface RunFlags extends ParseFlags, ConnectionFlags, RedisWaitFlags, ApiFlagValues, SourceFlags, S3Flags, WorkerFlags, RemovedFlags {
  force?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

export async function runCommand(source: string, flags: RunFlags, context: CliContext): Promise<number> {
  if (flags.dryRun) return (await import('./dry-run-action.js')).dryRunCommand(source, flags, context);
  if (flags.json) throw new UsageError('--json goes with --dry-run');
  if (!flags.out) throw new UsageError('run needs --out <folder or s3://bucket/prefix>');
  const out = flags.out;
  const environment = environmentOf(context);
  const handle = run({
    source,
    out,
    ...commonOptions(context, environment),
    ...apiOptions(flags, environment),
    ...queueOptions(flags),
    ...workerNumbers(flags),
    ...workerDashboard(flags),
    redisWaitMs: redisWaitMs(flags),
    ...maxCreditsOption(flags),
    s3: s3Options(flags),
    ...(await producerOptions(flags)),
    ...removedOption(flags),
  });
  const progress = new Progress(context.stderr, context.logger, handle.counter);
  handle.on('document', ({ outcome }) => progress.document(outcome));
  handle.on('status', ({ status }) => progress.setStatus(status));
  handle.on('listed', () => progress.listingDone());
  progress.start();
  let summary: RunSummary;
  try {
    summary = await handle.done;
  } finally {
    progress.stop();
  }
  if (summary.outcome === 'stopped-auth') {
    context.stderr.write(`${reportError(summary.error, 'run stopped').text}\n  no document was marked failed; fix the key and run again\n`);
    return EXIT.api;
  }
  if (summary.outcome === 'stopped-blocked') {
    context.stderr.write(`${reportError(summary.error, 'run stopped').text}\n  no document was marked failed: the same command resumes the run\n`);
    return EXIT.api;
  }
  if (summary.outcome === 'redis-unavailable') {
    context.stderr.write(`${summaryText(summary)}\n${reportError(summary.error, 'run stopped (REDIS_UNAVAILABLE)').text}\n`);
    return EXIT.redisLost;
  }
  if (summary.outcome === 'interrupted') {
    context.stderr.write(`docmill: interrupted after ${handle.counter.done} documents; run the same command again to resume\n`);
    return EXIT.interrupted;
  }
  if (summary.outcome === 'stopped-budget' && summary.budget) {
    const { maxCredits, used, waiting } = summary.budget;
    context.stderr.write(
      `${summaryText(summary)}\n  stopped at the credit budget: ${used} of ${maxCredits} credits used; ${waiting} documents wait in the queue, none failed\n` +
        '  run the same command with a higher --max-credits to go on\n',
    );
    return EXIT.budget;
  }
  context.stderr.write(`${summaryText(summary)}\n`);
  return summary.failedInQueue > 0 || summary.counts.failed > 0 ? EXIT.someFailed : EXIT.ok;
}

function displayLocation(out: string): string {
  if (out.startsWith('s3://')) return out;
  const shown = relative(process.cwd(), resolve(out));
  return shown === '' ? '.' : shown.startsWith('..') ? resolve(out) : shown;
}

/** A warning as long as a summary line can take; the manifest line has it whole. */
const WARNING_SHOWN_CHARS = 120;

/** "cut.docx (The file was cut short …), empty.csv (The file is empty …) and 4 more: …" */
function describeWarnings(warnings: WarningSummary): string {
  const shown = warnings.examples.map(({ path, warning }) => {
    const text = warning.length > WARNING_SHOWN_CHARS ? `${warning.slice(0, WARNING_SHOWN_CHARS - 1).trimEnd()}…` : warning;
    return `${path} (${text})`;
  });
  const more = warnings.count - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}: each one's warning is in its manifest line (\`"warning"\`)`;
}

export function summaryText(summary: RunSummary): string {
  const { converted, skipped, failed, removed, notConverted, excluded, pages, credits, requests } = summary.counts;
  const warned = summary.warnings.count;
  const lines = [
    `docmill: ${converted} converted${warned ? ` (${warned} with a warning)` : ''}, ${skipped} skipped, ${failed} failed` +
      (removed ? `, ${removed} removed` : '') +
      (notConverted ? `, ${notConverted} not converted` : '') +
      (excluded ? `, ${excluded} excluded by --include/--exclude` : '') +
      ` · ${pages} pages · ${requests} parse requests` +
      (credits ? ` · ${credits} credits` : ''),
  ];
  if (warned > 0) lines.push(`  with a warning: ${describeWarnings(summary.warnings)}`);
  if (summary.failures.length > 0) lines.push(`  failed: ${describeGroups(summary.failures)}`);
  if (summary.notConverted.length > 0) lines.push(`  not converted: ${describeGroups(summary.notConverted)}`);
  if (excluded > 0 && converted + skipped + failed + notConverted === 0) {
    lines.push('  every file was excluded: globs match the path below the source (`*.pdf` at its top only, `**/*.pdf` at any depth)');
  }
  lines.push(`  outputs in ${displayLocation(summary.out)}; manifest: _docmill/manifest.jsonl`);
  if (summary.failedInQueue > 0 || failed > 0) {
    lines.push('  failures are listed in _docmill/failures.jsonl and by `docmill failed --out …`; `docmill failed --retry` tries them again');
  }
  return lines.join('\n');
}
