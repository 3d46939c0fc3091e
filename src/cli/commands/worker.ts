/**
 * `docmill worker` and `docmill watch`: their flags; the work (worker-action.ts) loads on use.
 */
import type { Command } from 'commander';
import { withEngineHeadStart } from '../../app/engine-head-start.js';
import type { CliContext } from '../context.js';
import { addParseFlags } from '../parse-flags.js';
import { addApiFlags, addConnectionFlags, addEventFlags, addRemovedFlag, addS3Flags, addSourceFlags, addWorkerFlags } from '../pipeline-flags.js';
import type { WatchFlags, WorkerCommandFlags } from './worker-action.js';

export function registerWorkerCommands(program: Command, context: CliContext): void {
  const worker = program
    .command('worker')
    .description('convert queued documents into <dest> until stopped (Ctrl-C finishes active documents first)');
  addConnectionFlags(worker, { withOut: true });
  addApiFlags(worker);
  addS3Flags(worker);
  addWorkerFlags(worker);
  worker.action(async (flags: WorkerCommandFlags) =>
    context.setExitCode(await withEngineHeadStart(flags, context.env, async () => (await import('./worker-action.js')).serve(undefined, flags, context))),
  );

  const watch = program
    .command('watch')
    .description('convert everything below <source>, then keep converting files as they appear or change, and follow removals')
    .argument('<source>', 'a folder or s3://bucket/prefix')
    .option('--force', 're-parse documents even when their outputs are up to date')
    .option('--poll-interval <ms>', 'S3 source: how often to list the bucket', '30000')
    .option('--checkpoint <dir>', 'S3 source: folder for the listing checkpoint');
  addEventFlags(watch);
  addRemovedFlag(watch);
  addConnectionFlags(watch, { withOut: true });
  addApiFlags(watch);
  addSourceFlags(watch);
  addS3Flags(watch);
  addWorkerFlags(watch);
  addParseFlags(watch);
  watch.action(async (location: string, flags: WatchFlags) =>
    context.setExitCode(await withEngineHeadStart(flags, context.env, async () => (await import('./worker-action.js')).serve(location, flags, context), { source: location })),
  );
}
