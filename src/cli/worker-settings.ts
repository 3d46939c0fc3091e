/** Parsing of worker flags, the job lock's lifetime, and the /metrics endpoint. */
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import { MAX_TIMEOUT_MS } from '../contract/limits.js';
import type { DocmillMetrics } from '../metrics/metrics.js';
import { UsageError } from './usage-error.js';

export function positiveInteger(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag} must be a positive integer, not "${text}"`);
  return value;
}

/**
 * The job lock must outlive the longest parse (the options' timeout, plus upload and queueing), or a slow but
 * healthy parse would be taken for a dead worker's. A worker that does not know the options uses the contract's
 * maximum timeout.
 */
export function lockDurationFor(flag: string | undefined, timeoutMs: number = MAX_TIMEOUT_MS): number {
  if (flag !== undefined) return positiveInteger(flag, '--lock-duration');
  return timeoutMs + 60_000;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(metrics: DocmillMetrics, portText: string, logger: Logger): Promise<MetricsServer> {
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--metrics-port must be a port number, not "${portText}"`);
  const server: Server = createServer((request, response) => {
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
  logger.info({ port: actualPort }, 'metrics on /metrics');
  return {
    port: actualPort,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
