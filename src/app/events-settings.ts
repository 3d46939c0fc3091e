/** The event queue of an S3 watch, and what removals do, from the library's options: checked before anything is opened. */
import { integerSetting, InvalidSettingError } from '../config/numbers.js';
import type { RemovedOutputs } from '../queue/job-data.js';
import { checkEventQueue } from '../sources/events/create-transport.js';
import type { S3EventSettings } from '../sources/s3-source.js';
import { DEFAULTS, type SourceOptions } from './options.js';

/** `keep` or `delete` (the default when not given: keep). */
export function removedSetting(value: string | undefined): RemovedOutputs {
  const removed = value ?? DEFAULTS.removed;
  if (removed !== 'keep' && removed !== 'delete') throw new InvalidSettingError(`removed must be "keep" or "delete", not "${removed}"`);
  return removed;
}

export function eventSettings(options: SourceOptions & { source?: string | undefined; s3?: { region?: string | undefined } | undefined }): S3EventSettings | undefined {
  const { events } = options;
  if (events === undefined) {
    if (options.eventsQueue !== undefined || options.sqsEndpoint !== undefined) {
      throw new InvalidSettingError(`${options.eventsQueue !== undefined ? 'eventsQueue' : 'sqsEndpoint'} goes with events (the event queue's URL)`);
    }
    return undefined;
  }
  if (options.source !== undefined && !/^s3:\/\//i.test(options.source)) {
    throw new InvalidSettingError('events are read for an s3:// source only (a folder is watched directly)');
  }
  const settings: S3EventSettings = {
    url: events,
    queue: options.eventsQueue,
    sqsEndpoint: options.sqsEndpoint,
    region: options.s3?.region,
    relistIntervalMs: integerSetting(options.relistIntervalMs ?? DEFAULTS.relistIntervalMs, 'relistIntervalMs', { min: 0 }),
  };
  checkEventQueue(settings);
  return settings;
}
