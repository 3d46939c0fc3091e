/**
 * `enqueue`: list a source into a shared queue for workers elsewhere; with `watch`, keep adding files as they
 * appear or change until closed.
 */
import { integerSetting, InvalidSettingError } from '../config/numbers.js';
import { Producer, type EnqueueSummary } from '../queue/producer.js';
import { waitForRoom } from '../queue/queue-room.js';
import { CompositionRoot } from './composition-root.js';
import { PipelineEvents } from './events.js';
import { eventSettings, removedSetting } from './events-settings.js';
import { recordNotConverted, type SkippedEntry } from './not-converted.js';
import { DEFAULTS, type EnqueueOptions } from './options.js';
import { processingSettingsFrom, validatedOptions } from './processing-settings.js';
import { SummaryCounter, type CauseGroup } from './summary.js';
import { watchInto } from './watch-into.js';

export interface EnqueueResult extends EnqueueSummary {
  queue: string;
  /** Listed files that will not be converted (unsupported extension...), by reason. */
  notConverted: CauseGroup[];
  /** Listed files left out by the `include`/`exclude` globs (a folder excluded whole counts once). */
  excluded: number;
  /** What the listing could not read (a folder without permission), by cause: never queued, so never converted. */
  unreadable: CauseGroup[];
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

async function enqueueAll(options: EnqueueOptions, pipelineEvents: PipelineEvents, signal: AbortSignal): Promise<EnqueueResult> {
  const { options: parseOptions, settings, fingerprint } = validatedOptions(options.parseOptions, processingSettingsFrom(options));
  const attempts = integerSetting(options.attempts ?? DEFAULTS.attempts, 'attempts');
  const pollIntervalMs = integerSetting(options.pollIntervalMs ?? DEFAULTS.pollIntervalMs, 'pollIntervalMs');
  if (!options.watch && options.events !== undefined) throw new InvalidSettingError('events are read while watching: add watch (--watch)');
  const events = options.watch ? eventSettings(options) : undefined;
  const removed = removedSetting(options.removed);
  const counter = new SummaryCounter();
  return CompositionRoot.use(options, async (root) => {
    const sourceFor = root.sources(
      {
        include: options.include,
        exclude: options.exclude,
        pollIntervalMs,
        checkpoint: { location: options.source, queue: options.queue, dir: options.checkpointDir },
        events,
      },
      options.s3,
    );
    const source = await sourceFor(options.source);
    const handle = await root.queue(options, 'named');
    await handle.control.saveOptions(fingerprint, parseOptions, settings);
    const onSkipped = (entry: SkippedEntry) => recordNotConverted(entry, source.location, undefined, counter, pipelineEvents);
    const producer = new Producer(handle.queue, {
      existingJobs: (ids) => handle.control.jobsThatExist(ids),
      optionsFingerprint: fingerprint,
      force: Boolean(options.force),
      attempts,
      removed,
      onQueued: (count) => pipelineEvents.publish({ type: 'queued', count }),
      onSkipped,
    });
    const summary = await producer.enqueueAll(source, source.list(signal));
    pipelineEvents.publish({ type: 'listed', queued: summary.queued });
    if (options.watch) await watchInto(source, producer, root.logger, signal, onSkipped, { waitForRoom: (room) => waitForRoom(handle.queue, room) });
    return { ...summary, queue: handle.queue.name, notConverted: counter.notConvertedGroups(), excluded: counter.counts.excluded, unreadable: counter.failures() };
  });
}
