/**
 * `docmill worker --out <dest>` and `docmill watch <source> --out <dest>`: the library's `startWorker` until a
 * signal. Run one worker per machine (or several); they share the API's limits through the queue.
 */
import { integerSetting } from '../../app/settings.js';
import { startWorker } from '../../app/worker.js';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import {
  apiOptions,
  commonOptions,
  environmentOf,
  eventOptions,
  producerOptions,
  queueOptions,
  removedOption,
  s3Options,
  workerDashboard,
  workerNumbers,
} from '../library-options.js';
import type { ParseFlags } from '../parse-flags.js';
import type { ApiFlagValues, ConnectionFlags, EventFlags, RemovedFlags, S3Flags, SourceFlags, WorkerFlags } from '../pipeline-flags.js';
import { reportError } from '../report-error.js';
import { UsageError } from '../usage-error.js';
import { maxCreditsOption } from './dry-run-action.js';

export interface WorkerCommandFlags extends ConnectionFlags, ApiFlagValues, S3Flags, WorkerFlags {}

export interface WatchFlags extends WorkerCommandFlags, ParseFlags, SourceFlags, EventFlags, RemovedFlags {
  force?: boolean;
  pollInterval: string;
  checkpoint?: string;
}

/** A worker until a signal; with a source location, also the watcher that feeds the queue. */
export async function serve(location: string | undefined, flags: WatchFlags | WorkerCommandFlags, context: CliContext): Promise<number> {
  if (!flags.out) throw new UsageError(`${location ? 'watch' : 'worker'} needs --out <folder or s3://bucket/prefix>`);
  const watchFlags = location !== undefined ? (flags as WatchFlags) : undefined;
  const environment = environmentOf(context);
  const handle = startWorker({
    out: flags.out,
    ...commonOptions(context, environment),
    ...apiOptions(flags, environment),
    ...queueOptions(flags),
    ...workerNumbers(flags),
    ...maxCreditsOption(flags),
    ...workerDashboard(flags),
    s3: s3Options(flags),
    ...(watchFlags
      ? {
          source: location,
          ...(await producerOptions(watchFlags)),
          pollIntervalMs: integerSetting(watchFlags.pollInterval, '--poll-interval'),
          checkpointDir: watchFlags.checkpoint,
          ...eventOptions(watchFlags),
          ...removedOption(watchFlags),
        }
      : {}),
  });
  handle.on('document', ({ outcome }) =>
    context.logger.info({ file: outcome.relativePath, status: outcome.status, pages: outcome.numPages, reason: outcome.reason }, outcome.status),
  );
  handle.on('not-converted', ({ path, reason }) => context.logger.info({ file: path, reason }, 'not converted'));
  const summary = await handle.done;
  if (summary.outcome === 'stopped-auth') {
    context.stderr.write(`${reportError(summary.error, 'worker stopped').text}\n  no document was marked failed\n`);
    return EXIT.api;
  }
  if (summary.outcome === 'stopped-blocked') {
    context.stderr.write(`${reportError(summary.error, 'worker stopped').text}\n  no document was marked failed\n`);
    return EXIT.api;
  }
  // A service stopped on purpose (Ctrl-C, docker stop) ends normally.
  return EXIT.ok;
}
