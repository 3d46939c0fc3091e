/**
 * `docmill run <source> --out <dest>`: its flags. The work (run-action.ts) loads on use, so other commands and
 * `--help` do not pay for BullMQ and the AWS SDK.
 */
import type { Command } from 'commander';
import { withEngineHeadStart } from '../../app/engine-head-start.js';
import type { CliContext } from '../context.js';
import { addParseFlags } from '../parse-flags.js';
import { addApiFlags, addConnectionFlags, addRedisWaitFlag, addRemovedFlag, addS3Flags, addSourceFlags, addWorkerFlags } from '../pipeline-flags.js';
import type { RunFlags } from './run-action.js';

export function registerRunCommand(program: Command, context: CliContext): void {
  const command = program
    .command('run')
    .description('convert every document below <source> into <dest>, then exit (0: all converted or skipped; 1: some failed)')
    .argument('<source>', 'a folder, a single file, or s3://bucket/prefix')
    .option('--force', 're-parse documents even when their outputs are up to date')
    .option('--dry-run', 'list what would be converted and estimate its pages and credits; send, queue and write nothing')
    .option('--json', 'with --dry-run: print the estimate as one JSON object');
  addRemovedFlag(command);
  addConnectionFlags(command, { withOut: true });
  addRedisWaitFlag(command);
  addApiFlags(command);
  addSourceFlags(command);
  addS3Flags(command);
  addWorkerFlags(command);
  addParseFlags(command);
  command.action(async (source: string, flags: RunFlags) => {
    const action = async () => (await import('./run-action.js')).runCommand(source, flags, context);
    context.setExitCode(await (flags.dryRun ? action() : withEngineHeadStart(flags, context.env, action, { source, onlyNow: true })));
  });
}
