/**
 * Load-options step: what the job is parsed with, from the options and settings registered under its fingerprint
 * (QueueControl caches them per process). A page range is sent with its document's options plus per-page Markdown
 * when page markers are on (see `rangeOptions`).
 */
import type { QueueControl } from '../../queue/queue-control.js';
import type { JobContext, JobOptions } from '../job-context.js';
import { parseOptionsFor } from './chunk-outputs.js';
import { rangeOptions } from './range-options.js';

export async function loadOptions(ctx: JobContext, control: QueueControl): Promise<JobOptions> {
  const settings = await control.loadSettings(ctx.data.optionsFingerprint);
  const asked = await control.loadOptions(ctx.data.optionsFingerprint);
  const sent = parseOptionsFor(asked, settings);
  return { asked, settings, sent: ctx.isRange ? rangeOptions(sent) : sent };
}
