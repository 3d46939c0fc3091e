/**
 * `docmill enqueue <source>`: list a source into a shared queue for `docmill worker` processes elsewhere.
 * With --watch, keeps adding files as they appear or change.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { addParseFlags, type ParseFlags } from '../parse-flags.js';
import { addConnectionFlags, addS3Flags, addSourceFlags, type ConnectionFlags, type S3Flags, type SourceFlags } from '../pipeline-flags.js';
import { defaultCheckpointDir, openQueue, S3ClientCache, sourceFactory, validatedOptions } from '../pipeline-setup.js';
import { DEFAULT_QUEUE } from '../../queue/queue-names.js';
import { Producer } from '../../queue/producer.js';
import { positiveInteger } from '../worker-settings.js';
import { watchInto } from '../watch-loop.js';

interface EnqueueFlags extends ParseFlags, ConnectionFlags, SourceFlags, S3Flags {
  force?: boolean;
  watch?: boolean;
  attempts: string;
  pollInterval: string;
  checkpoint?: string;
}

export function registerEnqueueCommand(program: Command, context: CliContext): void {
  const command = program
    .command('enqueue')
    .description('queue every document below <source> for `docmill worker` processes (on this machine or others)')
    .argument('<source>', 'a folder, a single file, or s3://bucket/prefix')
    .option('--force', 're-parse documents even when their outputs are up to date')
    .option('--watch', 'keep running and queue files as they appear or change')
    .option('--attempts <n>', 'queue attempts for a document whose errors outlast the client retries', '4')
    .option('--poll-interval <ms>', 'S3 watch: how often to list the bucket', '30000')
    .option('--checkpoint <dir>', 'S3 watch: folder for the listing checkpoint (default: under ~/.cache/docmill/checkpoints)');
  addConnectionFlags(command, { withOut: true });
  addSourceFlags(command);
  addS3Flags(command);
  addParseFlags(command);
  command.action(async (location: string, flags: EnqueueFlags) => context.setExitCode(await enqueueCommand(location, flags, context)));
}

async function enqueueCommand(location: string, flags: EnqueueFlags, context: CliContext): Promise<number> {
  const { logger } = context;
  const { options, fingerprint } = await validatedOptions(flags);
  const s3 = new S3ClientCache(flags);
  const sourceFor = sourceFactory(s3, {
    selection: { include: flags.include, exclude: flags.exclude },
    pollIntervalMs: positiveInteger(flags.pollInterval, '--poll-interval'),
    checkpointDir: flags.checkpoint ?? defaultCheckpointDir(location, flags.queue ?? DEFAULT_QUEUE, context.env),
  });
  const source = sourceFor(location);
  const handle = await openQueue(flags, context.env, logger, 'named');
  try {
    await handle.control.saveOptions(fingerprint, options);
    const producer = new Producer(handle.queue, {
      optionsFingerprint: fingerprint,
      force: Boolean(flags.force),
      attempts: positiveInteger(flags.attempts, '--attempts'),
    });
    const summary = await producer.enqueueAll(source, source.list(context.signal));
    context.stderr.write(
      `docmill: queued ${summary.queued} documents into ${handle.queue.name}` +
        `${Object.keys(summary.skipped).length ? `; not queued: ${JSON.stringify(summary.skipped)}` : ''}\n`,
    );
    if (flags.watch) await watchInto(source, producer, context);
    return EXIT.ok;
  } finally {
    await source.close();
    await handle.close();
    s3.close();
  }
}
