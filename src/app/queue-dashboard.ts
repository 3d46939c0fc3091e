/**
 * The queue dashboard of a process that owns no queue (`docmill serve --dashboard`): every docmill queue in one
 * Redis, found anew as queues appear.
 */
import type { Logger } from 'pino';
import type { DocmillEnvironment } from '../config/environment.js';
import { createQueueDashboard, type QueueDashboard } from '../metrics/queue-dashboard.js';
import { QueueDiscovery } from '../queue/queue-discovery.js';
import { connectChecked, describeTarget } from '../queue/redis-connection.js';
import { MissingRedisError } from './errors.js';

export interface RedisDashboardOptions {
  /** @default REDIS_URL from `environment` */
  redisUrl?: string | undefined;
  environment?: DocmillEnvironment | undefined;
  /** Let the dashboard retry, clean, promote and remove jobs. @default false (read-only) */
  write?: boolean | undefined;
  logger?: Logger | undefined;
}

export interface RedisDashboard {
  /** Mount it on an HTTP server (it answers below /queues). */
  dashboard: QueueDashboard;
  /** The Redis shown, without credentials. */
  target: string;
  close(): Promise<void>;
}

export async function openRedisDashboard(options: RedisDashboardOptions): Promise<RedisDashboard> {
  const url = options.redisUrl ?? options.environment?.redisUrl;
  if (!url) throw new MissingRedisError();
  const redis = await connectChecked({ url }, options.logger);
  const discovery = new QueueDiscovery(redis);
  return {
    dashboard: createQueueDashboard({ queues: () => discovery.queues(), write: options.write }),
    target: describeTarget({ url }),
    close: async () => {
      await discovery.close();
      redis.disconnect();
    },
  };
}
