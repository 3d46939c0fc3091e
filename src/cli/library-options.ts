/**
 * Flags → the library API's options. Each numeric flag is parsed here once, by the same check the library applies
 * to its callers' numbers, with the flag's name in the message.
 */
import { jsonExtractorFrom } from '../app/backends.js';
import type { ApiOptions, CommonOptions, DocmillEnvironment, ProducerOptions, QueueOptions, S3Options, SourceOptions, WorkerOptions } from '../app/options.js';
import { integerSetting, readEnvironment } from '../app/settings.js';
import { chunksFromFlags, type ChunkFlags } from './chunk-flags.js';
import { ocrLanguagesFromFlags, optionsFromFlags, pictureOptionsFromFlags, type ParseFlags } from './parse-flags.js';
import type { CliContext } from './context.js';
import { UsageError } from './usage-error.js';
import type { ApiFlagValues, ConnectionFlags, EventFlags, RedisWaitFlags, RemovedFlags, S3Flags, SourceFlags, WorkerFlags } from './pipeline-flags.js';

export function environmentOf(context: CliContext): DocmillEnvironment {
  return readEnvironment(context.env);
}

export function commonOptions(context: CliContext, environment: DocmillEnvironment): CommonOptions {
  return { logger: context.logger, signal: context.signal, environment };
}

export function apiOptions(flags: ApiFlagValues, environment: DocmillEnvironment): ApiOptions {
  return {
    apiUrl: flags.apiUrl,
    apiKey: flags.apiKey,
    jsonExtractor: jsonExtractorFrom(environment),
    ocrWorkers: flags.ocrWorkers === undefined ? undefined : integerSetting(flags.ocrWorkers, '--ocr-workers'),
  };
}

export function queueOptions(flags: ConnectionFlags): QueueOptions {
  return { redisUrl: flags.redis, queue: flags.queue };
}

export function s3Options(flags: S3Flags): S3Options {
  return { endpoint: flags.s3Endpoint, region: flags.s3Region, forcePathStyle: flags.s3PathStyle };
}

export function workerNumbers(flags: WorkerFlags): Pick<WorkerOptions, 'concurrency' | 'lockDurationMs' | 'metricsPort' | 'splitPages'> & { attempts: number } {
  return {
    concurrency: integerSetting(flags.concurrency, '--concurrency'),
    attempts: integerSetting(flags.attempts, '--attempts'),
    lockDurationMs: flags.lockDuration === undefined ? undefined : integerSetting(flags.lockDuration, '--lock-duration'),
    splitPages: flags.splitPages === undefined ? undefined : integerSetting(flags.splitPages, '--split-pages'),
    metricsPort: flags.metricsPort === undefined ? undefined : integerSetting(flags.metricsPort, '--metrics-port', { min: 0, max: 65_535 }),
  };
}

/** The metrics port's queue dashboard: read-only by default, writable with --dashboard-write, none with --no-dashboard. */
export function workerDashboard(flags: WorkerFlags): Pick<WorkerOptions, 'dashboard'> {
  if (flags.dashboardWrite && flags.metricsPort === undefined) throw new UsageError('--dashboard-write needs --metrics-port <port>');
  if (flags.dashboard === false) return { dashboard: false };
  return { dashboard: flags.dashboardWrite ? { write: true } : true };
}

export function redisWaitMs(flags: RedisWaitFlags): number {
  return integerSetting(flags.redisWait, '--redis-wait', { min: 0 }) * 1000;
}

export type ProducerFlags = ParseFlags & ChunkFlags & SourceFlags & { force?: boolean };

/** What each command that lists documents (run, watch, enqueue, --dry-run) takes from its parse, chunk and source flags. */
export async function producerOptions(
  flags: ProducerFlags,
): Promise<Pick<ProducerOptions, 'parseOptions' | 'ocrLanguages' | 'chunks' | 'images' | 'pageImages' | 'imageDpi' | 'include' | 'exclude' | 'force'>> {
  return {
    parseOptions: await optionsFromFlags(flags),
    ocrLanguages: ocrLanguagesFromFlags(flags),
    chunks: chunksFromFlags(flags),
    ...pictureOptionsFromFlags(flags),
    include: flags.include,
    exclude: flags.exclude,
    force: Boolean(flags.force),
  };
}

export function removedOption(flags: RemovedFlags): Pick<SourceOptions, 'removed'> {
  return { removed: flags.removed };
}

/** --events and its companions; the companions without --events are a usage error. */
export function eventOptions(flags: EventFlags): Pick<SourceOptions, 'events' | 'eventsQueue' | 'sqsEndpoint' | 'relistIntervalMs'> {
  if (flags.events === undefined) {
    const stray = flags.eventsQueue !== undefined ? '--events-queue' : flags.sqsEndpoint !== undefined ? '--sqs-endpoint' : undefined;
    if (stray) throw new UsageError(`${stray} goes with --events <queue>`);
    return {};
  }
  return {
    events: flags.events,
    eventsQueue: flags.eventsQueue,
    sqsEndpoint: flags.sqsEndpoint,
    relistIntervalMs: integerSetting(flags.relistInterval, '--relist-interval', { min: 0 }),
  };
}
