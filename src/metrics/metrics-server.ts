/**
 * The HTTP endpoint of a pipeline process: Prometheus metrics on /metrics, liveness on /healthz, and what else is
 * mounted on it (the queue dashboard at /queues).
 */
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { HttpMount } from './board-adapter.js';
import type { DocmillMetrics } from './metrics.js';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Listens on every interface at `port` (0 picks a free one, reported in `port`). */
export async function startMetricsServer(
  metrics: DocmillMetrics,
  port: number,
  logger: Logger,
  mounts: readonly HttpMount[] = [],
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const mount = mounts.find(({ basePath }) => path === basePath || path.startsWith(`${basePath}/`));
    if (mount) {
      void mount.handle(request, response);
      return;
    }
    if (request.url === '/metrics') {
      metrics.registry
        .metrics()
        .then((text) => {
          response.writeHead(200, { 'content-type': metrics.registry.contentType });
          response.end(text);
        })
        .catch((error: unknown) => {
          response.writeHead(500).end(String(error));
        });
      return;
    }
    if (request.url === '/healthz') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  logger.info({ port: actualPort, ...(mounts.length > 0 ? { also: mounts.map(({ basePath }) => basePath) } : {}) }, 'metrics on /metrics');
  return {
    port: actualPort,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
