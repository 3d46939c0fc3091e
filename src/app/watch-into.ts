/** Feeds a source's watch reports into the queue until the signal aborts: files to convert, and removals. */
import type { Logger } from 'pino';
import type { Producer } from '../queue/producer.js';
import type { ListEntry, Source, WatchHooks } from '../sources/source.js';

export async function watchInto(
  source: Source,
  producer: Producer,
  logger: Logger,
  signal: AbortSignal,
  onSkipped?: (entry: Extract<ListEntry, { kind: 'skipped' }>) => Promise<void>,
  hooks?: WatchHooks,
): Promise<void> {
  logger.info({ source: source.location, ...source.describeWatch?.() }, 'watching for new and changed files');
  await source.watch(
    async (entry) => {
      if (entry.kind === 'skipped') {
        if (entry.reason !== 'temporary') logger.debug({ file: entry.relativePath, reason: entry.reason }, 'not queued');
        await onSkipped?.(entry);
        return;
      }
      if (entry.kind === 'removed') {
        await producer.enqueueRemovals(source, [entry]);
        logger.info({ file: entry.relativePath }, 'removal queued');
        return;
      }
      await producer.enqueueBatch(source, [entry]);
      logger.info({ file: entry.file.relativePath }, 'queued');
    },
    signal,
    hooks,
  );
}
