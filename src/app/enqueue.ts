/**
 * `enqueue`: list a source into a shared queue for workers elsewhere; with `watch`, keep adding files as they
 * appear or change until closed.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { integerSetting } from '../config/numbers.js';
import { createLogger } from '../logging/logger.js';
import { Producer, type EnqueueSummary } from '../queue/producer.js';
import { DEFAULT_QUEUE } from '../queue/queue-names.js';
import { PipelineEvents } from './events.js';
import { DEFAULTS, type EnqueueOptions } from './options.js';
import { defaultCheckpointDir, openQueue, S3ClientCache, sourceCloser, sourceFactory, validatedOptions } from './pipeline.js';
import { processingSettingsFrom } from './processing-settings.js';
import { Resources } from './resources.js';
import { recordNotConverted } from './run.js';
import { SummaryCounter, type CauseGroup } from './summary.js';
import { watchInto } from './watch-into.js';

export interface EnqueueResult extends EnqueueSummary {
  queue: string;
  /** Listed files that will not be converted (unsupported extension...), by reason. */
  notConverted: CauseGroup[];
}

export interface EnqueueHandle extends PipelineEvents {
  /** Resolves after the listing (with `watch`: after close()); rejects when it cannot start. */
  readonly done: Promise<EnqueueResult>;
  close(): Promise<EnqueueResult | undefined>;
}

export function enqueue(options: EnqueueOptions): EnqueueHandle {
  const events = new PipelineEvents() as EnqueueHandle;
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const done = enqueueAll(options, events, signal).finally(() => events.end());
  done.catch(() => undefined);
  Object.assign(events, {
    done,
    close: async () => {
      stop.abort(new Error('closed'));
      return done.catch(() => undefined);
    },
  });
  return events;
}

async function enqueueAll(options: EnqueueOptions, events: PipelineEvents, signal: AbortSignal): Promise<EnqueueResult> {
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const environment = options.environment;
  const { options: parseOptions, settings, fingerprint } = validatedOptions(options.parseOptions, processingSettingsFrom(options));
  const attempts = integerSetting(options.attempts ?? DEFAULTS.attempts, 'attempts');
  const pollIntervalMs = integerSetting(options.pollIntervalMs ?? DEFAULTS.pollIntervalMs, 'pollIntervalMs');
  const counter = new SummaryCounter();
  const resources = new Resources(logger);
  try {
    const s3 = resources.add('S3 client', new S3ClientCache(options.s3), (c) => c.close());
    const sources = resources.add('sources', sourceCloser(), (c) => c.close());
    const cacheDir = environment?.cacheDir ?? join(homedir(), '.cache');
    const sourceFor = sources.track(
      sourceFactory(s3, {
        selection: { include: options.include ?? [], exclude: options.exclude ?? [] },
        pollIntervalMs,
        checkpointDir: options.checkpointDir ?? defaultCheckpointDir(options.source, options.queue ?? DEFAULT_QUEUE, cacheDir),
      }),
    );
    const source = sourceFor(options.source);
    const handle = resources.add('queue', await openQueue(options, 'named', logger, environment), (h) => h.close());
    await handle.control.saveOptions(fingerprint, parseOptions, settings);
    const onSkipped = (entry: Parameters<typeof recordNotConverted>[0]) => recordNotConverted(entry, source.location, undefined, counter, events);
    const producer = new Producer(handle.queue, {
      optionsFingerprint: fingerprint,
      force: Boolean(options.force),
      attempts,
      onQueued: (count) => events.publish({ type: 'queued', count }),
      onSkipped,
    });
    const summary = await producer.enqueueAll(source, source.list(signal));
    events.publish({ type: 'listed', queued: summary.queued });
    if (options.watch) await watchInto(source, producer, logger, signal, onSkipped);
    return { ...summary, queue: handle.queue.name, notConverted: counter.notConvertedGroups() };
  } finally {
    await resources.close();
  }
}
