/**
 * A loopback /v2/parse server with the hosted API's concurrency cap, for benchmarks (never for tests).
 *
 * - At most `capacity` requests are in flight. A request that arrives while `capacity` are in flight is answered at
 *   once (no latency) with `429 {success:false, error:'Concurrency limit reached'}` and `Retry-After`.
 * - An accepted request is answered `latencyMs` after it arrived with
 *   `{success:true, data:{markdown:'# x', metadata:{numPages:1}}}`.
 * - The in-flight count is decremented just before the response is written, so a client that sends its next
 *   request as soon as it reads an answer is never refused for the request it just finished.
 * - Every request is logged (arrival, answer, status, in-flight count at arrival) for the analysis in
 *   ./request-log.ts. Bodies are drained and counted, never kept.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface CappedServerOptions {
  /** L: how long an accepted request takes, from its arrival to its answer. */
  latencyMs: number;
  /** C: requests in flight at most. */
  capacity: number;
  /** The Retry-After header of a 429, in seconds. */
  retryAfterSeconds: number;
}

export interface RequestRecord {
  /** performance.now() when the request's headers arrived. */
  arrivedAt: number;
  /** performance.now() when the answer was written. */
  answeredAt: number;
  status: number;
  /** Accepted requests in flight when this one arrived (itself not counted). */
  inFlightAtArrival: number;
  /** Body bytes received. */
  bytes: number;
}

export interface CappedServer {
  url: string;
  records: RequestRecord[];
  /** Highest number of accepted requests in flight at once. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

const SUCCESS_BODY = JSON.stringify({ success: true, data: { markdown: '# x', metadata: { numPages: 1 } } });
const LIMITED_BODY = JSON.stringify({ success: false, error: 'Concurrency limit reached' });

export async function startCappedServer(options: CappedServerOptions): Promise<CappedServer> {
  const records: RequestRecord[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  function drain(request: IncomingMessage, onEnd: (bytes: number) => void): void {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
    });
    request.on('end', () => onEnd(bytes));
    request.on('error', () => onEnd(bytes));
  }

  function send(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    response.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    });
    response.end(body);
  }

  const server = createServer((request, response) => {
    const arrivedAt = performance.now();
    if (request.method !== 'POST' || !(request.url ?? '').startsWith('/v2/parse')) {
      request.resume();
      send(response, 404, JSON.stringify({ success: false, error: 'Not Found' }));
      return;
    }
    const inFlightAtArrival = inFlight;
    if (inFlight >= options.capacity) {
      drain(request, (bytes) => {
        records.push({ arrivedAt, answeredAt: performance.now(), status: 429, inFlightAtArrival, bytes });
        send(response, 429, LIMITED_BODY, { 'retry-after': String(options.retryAfterSeconds) });
      });
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let bodyBytes = -1;
    let timeUp = false;
    const answer = () => {
      if (bodyBytes < 0 || !timeUp) return;
      inFlight--;
      records.push({ arrivedAt, answeredAt: performance.now(), status: 200, inFlightAtArrival, bytes: bodyBytes });
      send(response, 200, SUCCESS_BODY);
    };
    drain(request, (bytes) => {
      if (bodyBytes >= 0) return;
      bodyBytes = bytes;
      answer();
    });
    setTimeout(() => {
      timeUp = true;
      answer();
    }, Math.max(0, options.latencyMs - (performance.now() - arrivedAt)));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    records,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
