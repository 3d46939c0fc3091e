/** Feeds a source's watch reports into the queue until Ctrl-C. */
import type { Producer } from '../queue/producer.js';
import type { Source } from '../sources/source.js';
import type { CliContext } from './context.js';

export async function watchInto(source: Source, producer: Producer, context: CliContext): Promise<void> {
  context.logger.info({ source: source.location }, 'watching for new and changed files (Ctrl-C stops)');
  await source.watch(async (entry) => {
    if (entry.kind === 'skipped') {
      if (entry.reason !== 'temporary') context.logger.debug({ file: entry.relativePath, reason: entry.reason }, 'not queued');
      return;
    }
    await producer.enqueueBatch(source, [entry]);
    context.logger.info({ file: entry.file.relativePath }, 'queued');
  }, context.signal);
}
