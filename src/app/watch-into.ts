/** Feeds a source's watch reports into the queue until the signal aborts. */
import type { Logger } from 'pino';
import type { Producer } from '../queue/producer.js';
import type { ListEntry, Source } from '../sources/source.js';

export async function watchInto(
  source: Source,
  producer: Producer,
  logger: Logger,
  signal: AbortSignal,
  onSkipped?: (entry: Extract<ListEntry, { kind: 'skipped' }>) => Promise<void>,
): Promise<void> {
  logger.info({ source: source.location }, 'watching for new and changed files');
  await source.watch(async (entry) => {
    if (entry.kind === 'skipped') {
      if (entry.reason !== 'temporary') logger.debug({ file: entry.relativePath, reason: entry.reason }, 'not queued');
      await onSkipped?.(entry);
      return;
    }
    await producer.enqueueBatch(source, [entry]);
    logger.info({ file: entry.file.relativePath }, 'queued');
  }, signal);
}
