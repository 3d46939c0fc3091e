/**
 * `docmill status`, `docmill resume`, `docmill failed`: their flags; the work (queue-admin-action.ts) loads on use.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { addConnectionFlags, type ConnectionFlags } from '../pipeline-flags.js';
import type { StatusFlags } from './queue-admin-action.js';

export function registerQueueAdminCommands(program: Command, context: CliContext): void {
  const status = program
    .command('status')
    .description('counts per state, throughput, and whether (and why) the queue is paused')
    .option('--json', 'print the status as JSON');
  addConnectionFlags(status, { withOut: true });
  status.action(async (flags: StatusFlags) => context.setExitCode(await (await import('./queue-admin-action.js')).statusCommand(flags, context)));

  const resume = program
    .command('resume')
    .description('resume a paused queue (after adding credits, say)')
    .option('--max-credits <n>', 'set the queue\'s credit budget first (credits already used still count)');
  addConnectionFlags(resume, { withOut: true });
  resume.action(async (flags: ConnectionFlags & { maxCredits?: string }) => context.setExitCode(await (await import('./queue-admin-action.js')).resumeCommand(flags, context)));

  const failed = program
    .command('failed')
    .description('list documents that failed; --retry puts them back in the queue')
    .option('--retry', 're-enqueue every failed document')
    .option('--json', 'print one JSON object per failed document');
  addConnectionFlags(failed, { withOut: true });
  failed.action(async (flags: StatusFlags & { retry?: boolean }) => context.setExitCode(await (await import('./queue-admin-action.js')).failedCommand(flags, context)));
}
