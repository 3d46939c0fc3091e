/**
 * `docmill enqueue <source>`: the library's `enqueue`: list a source into a shared queue for `docmill worker`
 * processes elsewhere; with --watch, keep adding files as they appear or change.
 */
import { enqueue, type EnqueueResult } from '../../app/enqueue.js';
import { describeGroups } from '../../app/summary.js';
import { integerSetting } from '../../app/settings.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { commonOptions, environmentOf, eventOptions, producerOptions, queueOptions, removedOption, s3Options } from '../library-options.js';
import type { ParseFlags } from '../parse-flags.js';
import type { ConnectionFlags, EventFlags, RemovedFlags, S3Flags, SourceFlags } from '../pipeline-flags.js';
import { UsageError } from '../usage-error.js';

export interface EnqueueFlags extends ParseFlags, ConnectionFlags, SourceFlags, S3Flags, EventFlags, RemovedFlags {
  force?: boolean;
  dryRun?: boolean;
  json?: boolean;
  watch?: boolean;
  attempts: string;
  pollInterval: string;
  checkpoint?: string;
}

export async function enqueueCommand(location: string, flags: EnqueueFlags, context: CliContext): Promise<number> {
  if (flags.dryRun) return (await import('./dry-run-action.js')).dryRunCommand(location, flags, context);
  if (flags.json) throw new UsageError('--json goes with --dry-run');
  const environment = environmentOf(context);
  const handle = enqueue({
    source: location,
    out: flags.out,
    ...commonOptions(context, environment),
    ...queueOptions(flags),
    s3: s3Options(flags),
    ...(await producerOptions(flags)),
    attempts: integerSetting(flags.attempts, '--attempts'),
    pollIntervalMs: integerSetting(flags.pollInterval, '--poll-interval'),
    checkpointDir: flags.checkpoint,
    watch: Boolean(flags.watch),
    ...eventOptions(flags),
    ...removedOption(flags),
  });
  handle.on('listed', ({ queued }) => context.stderr.write(`docmill: queued ${queued} documents\n`));
  const result = await handle.done;
  context.stderr.write(`${enqueueSummaryText(result)}\n`);
  return EXIT.ok;
}

/** What a listing queued and, in the words `docmill run`'s summary uses, what it left out and why. */
export function enqueueSummaryText(result: EnqueueResult): string {
  return (
    `docmill: ${result.queued} documents in ${result.queue}` +
    (result.notConverted.length ? `; not converted: ${describeGroups(result.notConverted)}` : '') +
    (result.excluded ? `; ${result.excluded} excluded by --include/--exclude` : '') +
    (result.unreadable.length ? `; ${describeGroups(result.unreadable)}` : '')
  );
}
