/**
 * `docmill status`, `docmill resume`, `docmill failed [--retry]`: the library's queue administration, as text or JSON.
 */
import { failedDocuments, queueStatus, resumeQueue, type QueueLookupOptions } from '../../app/queue-admin.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { type ConnectionFlags } from '../pipeline-flags.js';
import { formatDuration } from '../progress.js';
import { commonOptions, environmentOf, queueOptions } from '../library-options.js';
import { maxCreditsOption } from './dry-run-action.js';

export interface StatusFlags extends ConnectionFlags {
  json?: boolean;
}

function lookup(flags: ConnectionFlags, context: CliContext): QueueLookupOptions {
  return { ...commonOptions(context, environmentOf(context)), ...queueOptions(flags), out: flags.out };
}

export async function statusCommand(flags: StatusFlags, context: CliContext): Promise<number> {
  const { report, finishedRecently, left } = await queueStatus(lookup(flags, context));
  if (flags.json) {
    context.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return EXIT.ok;
  }
  const { counts, paused, budget, totals, etaSeconds } = report;
  const lines = [
    `queue ${report.queue} on ${report.redis}`,
    paused ? `PAUSED (${paused.kind}) since ${paused.since}: ${paused.message}` : 'running',
    `workers: ${report.workers}`,
    `waiting ${(counts.waiting ?? 0) + (counts.prioritized ?? 0)} · active ${counts.active ?? 0} · delayed ${counts.delayed ?? 0} · failed ${counts.failed ?? 0} · completed (kept) ${counts.completed ?? 0}`,
    finishedRecently > 0
      ? `throughput: ${report.documentsPerMinute} documents/min (${finishedRecently} finished in the last ${report.rateOverSeconds} s)` +
        (etaSeconds !== undefined ? ` · ${left} left, ETA ${formatDuration(etaSeconds)}` : paused && left > 0 ? ` · ${left} left, no ETA while paused` : '')
      : 'throughput: nothing finished in the last minute',
    ...(budget === null
      ? []
      : [`budget: ${budget.used} of ${budget.maxCredits} credits used${budget.reserved ? ` (${budget.reserved} reserved by documents being sent)` : ''}`]),
    `totals: ${totals.converted ?? 0} converted · ${totals.skipped ?? 0} skipped · ${totals.failed ?? 0} failed` +
      `${totals.removed ? ` · ${totals.removed} removed` : ''} · ${totals.pages ?? 0} pages · ${totals.credits ?? 0} credits`,
  ];
  context.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

export async function resumeCommand(flags: ConnectionFlags & { maxCredits?: string }, context: CliContext): Promise<number> {
  const result = await resumeQueue({ ...lookup(flags, context), ...maxCreditsOption(flags) });
  if (result.budget) context.stdout.write(`credit budget of queue ${result.queue}: ${result.budget.maxCredits} (${result.budget.used} used)\n`);
  context.stdout.write(
    result.wasPaused !== undefined ? `resumed queue ${result.queue} (was paused: ${result.wasPaused})\n` : `queue ${result.queue} was not paused\n`,
  );
  return EXIT.ok;
}

export async function failedCommand(flags: StatusFlags & { retry?: boolean }, context: CliContext): Promise<number> {
  const result = await failedDocuments({ ...lookup(flags, context), retry: flags.retry }, (document) => {
    context.stdout.write(flags.json ? `${JSON.stringify(document)}\n` : `${document.path}\t${document.reason}\n`);
  });
  if (result.retried) {
    context.stderr.write(`docmill: ${result.listed} failed documents are back in queue ${result.queue}; a running worker (or the next run) converts them\n`);
  } else if (result.listed === 0) {
    context.stderr.write(`docmill: no failed documents in queue ${result.queue}\n`);
  }
  return EXIT.ok;
}
