/**
 * The HTTP endpoint of a pipeline process: Prometheus metrics on /metrics, liveness on /healthz, readiness on
 * /readyz, and what else is mounted on it (the queue dashboard at /queues). Like `docmill serve`, no request can take it down: every
 * connection is bounded in header size and time (../server/http-limits.ts), a mount's failure is answered, and a
 * response whose connection is gone is dropped.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { connectionLimits, HEADERS_TIMEOUT_MS, METRICS_REQUEST_TIMEOUT_MS } from '../server/http-limits.js';
import type { HttpMount } from './board-adapter.js';
import type { DocmillMetrics } from './metrics.js';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Why the process should get no work now (its Redis unreachable, a drain under way), or undefined when it is ready.
 * /healthz stays 200 meanwhile: restarting a process that waits for Redis or finishes its documents helps nothing.
 */
export type Readiness = () => string | undefined;

/** Listens on every interface at `port` (0 picks a free one, reported in `port`). */
export async function startMetricsServer(
  metrics: DocmillMetrics,
  port: number,
  logger: Logger,
  mounts: readonly HttpMount[] = [],
  readiness: Readiness = () => undefined,
): Promise<MetricsServer> {
  const route = (request: IncomingMessage, response: ServerResponse): void => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const mount = mounts.find(({ basePath }) => path === basePath || path.startsWith(`${basePath}/`));
    if (mount) {
      mount.handle(request, response).catch((error: unknown) => {
        logger.error({ err: error, path: mount.basePath }, 'request failed');
        answer(response, 500, 'Internal Server Error\n');
      });
      return;
    }
    if (request.url === '/metrics') {
      metrics
        .text()
        .then((text) => {
          if (response.headersSent || response.destroyed) return;
          response.writeHead(200, { 'content-type': metrics.registry.contentType });
          response.end(text);
        })
        .catch((error: unknown) => {
          // The cause goes to the log; a scraper learns only that this scrape failed.
          logger.error({ err: error }, 'metrics could not be collected');
          answer(response, 500, 'metrics could not be collected\n');
        });
      return;
    }
    if (request.url === '/healthz') {
      answer(response, 200, 'ok\n');
      return;
    }
    if (request.url === '/readyz') {
      const notReady = readiness();
      answer(response, notReady === undefined ? 200 : 503, notReady === undefined ? 'ready\n' : `not ready: ${notReady}\n`);
      return;
    }
    answer(response, 404, '');
  };
  const server: Server = createServer(connectionLimits({ headersMs: HEADERS_TIMEOUT_MS, requestMs: METRICS_REQUEST_TIMEOUT_MS }), (request, response) => {
    // A response that fails to write (its connection gone) is the client's loss, never the process's.
    response.on('error', (error) => logger.debug({ err: error }, 'response not delivered'));
    try {
      route(request, response);
    } catch (error) {
      // A fault in routing is this request's 500 and an error in the log, not the end of the process.
      logger.error({ err: error }, 'request failed');
      answer(response, 500, 'Internal Server Error\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Once listening, what the server reports (a failed accept when out of file descriptors) is logged, and it
  // goes on accepting: no client can make it an unhandled 'error'.
  server.on('error', (error) => logger.error({ err: error }, 'metrics server error'));
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  logger.info({ port: actualPort, ...(mounts.length > 0 ? { also: mounts.map(({ basePath }) => basePath) } : {}) }, 'metrics on /metrics');
  return {
    port: actualPort,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A plain-text answer, unless one has started (then the connection is cut) or the connection is gone. */
function answer(response: ServerResponse, status: number, text: string): void {
  if (response.destroyed) return;
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
