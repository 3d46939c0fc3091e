/**
 * `docmill enqueue <source>`: its flags; the work (enqueue-action.ts) loads on use.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { addParseFlags } from '../parse-flags.js';
import { addConnectionFlags, addEventFlags, addRemovedFlag, addS3Flags, addSourceFlags } from '../pipeline-flags.js';
import type { EnqueueFlags } from './enqueue-action.js';

export function registerEnqueueCommand(program: Command, context: CliContext): void {
  const command = program
    .command('enqueue')
    .description('queue every document below <source> for `docmill worker` processes (on this machine or others)')
    .argument('<source>', 'a folder, a single file, or s3://bucket/prefix')
    .option('--force', 're-parse documents even when their outputs are up to date')
    .option('--watch', 'keep running and queue files as they appear or change')
    .option('--dry-run', 'list what would be converted and estimate its pages and credits; queue nothing')
    .option('--json', 'with --dry-run: print the estimate as one JSON object')
    .option('--attempts <n>', 'queue attempts for a document whose errors outlast the client retries', '4')
    .option('--poll-interval <ms>', 'S3 watch: how often to list the bucket', '30000')
    .option('--checkpoint <dir>', 'S3 watch: folder for the listing checkpoint (default: under ~/.cache/docmill/checkpoints)');
  addEventFlags(command);
  addRemovedFlag(command);
  addConnectionFlags(command, { withOut: true });
  addSourceFlags(command);
  addS3Flags(command);
  addParseFlags(command);
  command.action(async (location: string, flags: EnqueueFlags) => context.setExitCode(await (await import('./enqueue-action.js')).enqueueCommand(location, flags, context)));
}
