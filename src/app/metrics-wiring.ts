/**
 * What a pipeline process's metrics read beyond its own counters: the queue's depth and pause state (read from
 * Redis at each scrape), the local engine pool's load when documents are parsed in this process, and the hosted
 * API's remaining credits (polled once a minute, best effort).
 */
import { documentCounts } from '../queue/document-counts.js';
import type { Logger } from 'pino';
import type { ParseBackend } from '../backend/parse-backend.js';
import { RemoteParseApi } from '../client/remote-parse-api.js';
import { resolveApiConfig } from '../config/api-config.js';
import type { DocmillEnvironment } from '../config/environment.js';
import { LocalParseEngine } from '../engine/local-engine.js';
import type { DocmillMetrics } from '../metrics/metrics.js';
import { queueRateLimitTtl } from '../queue/queue-rate-limit.js';
import type { ApiOptions } from './options.js';
import type { QueueHandle } from './queue-handle.js';
import type { Resources } from './resources.js';

export interface MetricSources {
  handle: QueueHandle;
  backend: ParseBackend;
  api: ApiOptions;
  environment?: DocmillEnvironment | undefined;
  /** Only a process that serves its metrics reads them (no credit polling without a /metrics to show it on). */
  metricsPort: number | undefined;
  /** @default 60000 */
  creditPollMs?: number | undefined;
}

export async function observeForMetrics(resources: Resources, metrics: DocmillMetrics, sources: MetricSources, logger: Logger): Promise<void> {
  if (sources.metricsPort === undefined) return;
  const { handle, backend } = sources;
  metrics.observeQueue({
    // Documents by state: a group job counts the small documents it holds.
    getJobCounts: (...states) => documentCounts(handle.queue, ...states),
    getRateLimitTtl: () => queueRateLimitTtl(handle.queue),
    pauseReason: () => handle.control.pauseReason(),
    redisDown: () => handle.outage.down,
  });
  if (backend instanceof LocalParseEngine) metrics.observePool(backend.pool);
  if (backend instanceof RemoteParseApi) {
    const { apiUrl, apiKey } = resolveApiConfig(sources.api, sources.environment);
    if (!apiUrl) return;
    // With the remote API only: its HTTP client (undici) is not loaded by a run on the local engine.
    const { pollCreditUsage } = await import('../client/credit-usage.js');
    const poller = pollCreditUsage({
      apiUrl,
      apiKey,
      logger,
      onRemaining: (credits) => metrics.creditsRemaining.record(credits),
      ...(sources.creditPollMs !== undefined ? { intervalMs: sources.creditPollMs } : {}),
    });
    resources.add('credit-usage poller', poller, (p) => p.close());
  }
}
