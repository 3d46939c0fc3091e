/**
 * `docmill enqueue <source>`: list a source into a shared queue for `docmill worker` processes elsewhere.
 * With --watch, keeps adding files as they appear or change.
 */
import type { CliContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { type ParseFlags } from '../parse-flags.js';
import { type ConnectionFlags, type S3Flags, type SourceFlags } from '../pipeline-flags.js';
import { defaultCheckpointDir, openQueue, S3ClientCache, sourceFactory, validatedOptions } from '../pipeline-setup.js';
import { DEFAULT_QUEUE } from '../../queue/queue-names.js';
import { Producer } from '../../queue/producer.js';
import { positiveInteger } from '../worker-settings.js';
import { watchInto } from '../watch-loop.js';

export interface EnqueueFlags extends ParseFlags, ConnectionFlags, SourceFlags, S3Flags {
  force?: boolean;
  watch?: boolean;
  attempts: string;
  pollInterval: string;
  checkpoint?: string;
}


export async function enqueueCommand(location: string, flags: EnqueueFlags, context: CliContext): Promise<number> {
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
