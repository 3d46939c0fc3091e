/** What `run` and `startWorker` wire the same way around a parse worker: its reports, and the metrics endpoint. */
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { ParseWorkerOptions } from '../../workers/parse-worker.js';
import { integerSetting } from '../config/numbers.js';
import type { DocmillMetrics } from '../metrics/metrics.js';
import { startMetricsServer } from '../metrics/metrics-server.js';
import { createQueueDashboard } from '../metrics/queue-dashboard.js';
import type { PipelineEvents } from './events.js';
import type { WorkerOptions } from './options.js';
import type { QueueHandle } from './pipeline.js';
import type { Resources } from './resources.js';
import type { SummaryCounter } from './summary.js';

/** The worker's reports into the handle's counts and events, and what it needs to know of Redis outages. */
export function reportingHooks(
  handle: QueueHandle,
  counter: SummaryCounter,
  events: PipelineEvents,
): Pick<ParseWorkerOptions, 'onOutcome' | 'onRequest' | 'redisDown' | 'onRedisRecovered'> {
  return {
    onOutcome: (outcome) => {
      counter.record(outcome);
      events.publish({ type: 'document', outcome });
    },
    onRequest: () => counter.request(),
    redisDown: () => handle.outage.down,
    onRedisRecovered: (listener) => handle.outage.onRecovered(listener),
  };
}

/**
 * Serves /metrics on `port` when one is given, with the queue's dashboard at /queues unless `dashboard` is false;
 * closed with the other resources.
 */
export async function serveMetrics(
  resources: Resources,
  metrics: DocmillMetrics,
  port: number | undefined,
  logger: Logger,
  board?: { queue: Queue; dashboard: WorkerOptions['dashboard'] },
): Promise<void> {
  if (port === undefined) return;
  const checked = integerSetting(port, 'metricsPort', { min: 0, max: 65_535 });
  const dashboard = board?.dashboard ?? true;
  const mounts =
    board && dashboard !== false
      ? [createQueueDashboard({ queues: [board.queue], write: typeof dashboard === 'object' && Boolean(dashboard.write) })]
      : [];
  resources.add('metrics server', await startMetricsServer(metrics, checked, logger, mounts), (server) => server.close());
}
