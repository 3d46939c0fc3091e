/**
 * A loopback /v2/parse server with the hosted API's concurrency cap, or its request-rate window, for benchmarks and
 * the pacing integration test.
 *
 * - At most `capacity` requests are in flight. A request that arrives while `capacity` are in flight is answered at
 *   once (no latency) with `429 {success:false, error:'Concurrency limit reached'}` and `Retry-After`.
 * - An accepted request is answered `latencyMs` after it arrived with
 *   `{success:true, data:{markdown:'# x', metadata:{numPages:1}}}`.
 * - The in-flight count is decremented just before the response is written, so a client that sends its next
 *   request as soon as it reads an answer is never refused for the request it just finished.
 * - Faults (`faults`, off by default): a share of the accepted requests is answered, after the same latency,
 *   with an error drawn from a weighted mix (408, 429 with its own Retry-After, 5xx). The draw is a hash of the
 *   seed, the file the request carries and how many accepted requests for that file came before it, so the n-th
 *   accepted request for a file meets the same fate whatever the client and its timing: every contender meets
 *   the same storm, file by file.
 * - Window mode (`window`, off by default): at most `limit` requests per `ms`-long window, counted at arrival;
 *   beyond that an immediate `429 Rate limit exceeded` worded as the hosted API words it ("Consumed (req/min): 21,
 *   Remaining (req/min): 0. ... please retry after 1s, resets at <date>"), the wait only in that text unless
 *   `headers` asks for `Retry-After` or `X-RateLimit-*` too. A fixed window opens with the first request after the
 *   last one closed and counts every request, refused ones included (as rate-limiter-flexible does); a sliding
 *   window counts the requests it accepted in the last `ms`. The concurrency cap still applies (set it high).
 * - Every request is logged (arrival, answer, status, in-flight count at arrival, the file named in its multipart
 *   header, the Retry-After of a 429) for the analysis in ./request-log.ts. Bodies are drained and counted, never
 *   kept.
 */
import { createHash } from 'node:crypto';
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
  /** Errors injected into accepted requests' answers. */
  faults?: FaultOptions;
  /** A request-rate window instead of (or besides) the concurrency cap. */
  window?: WindowOptions;
}

export interface WindowOptions {
  /** N: requests per window. */
  limit: number;
  /** W: the window's length. */
  ms: number;
  /** @default 'fixed' */
  kind?: 'fixed' | 'sliding';
  /** What a rate 429 carries besides its text. @default 'none' */
  headers?: 'none' | 'retry-after' | 'x-ratelimit';
}

/** Decides, at a request's arrival, whether the window admits it; else the ms until it would. */
interface RateWindow {
  admit(now: number): { ok: true } | { ok: false; waitMs: number; consumed: number };
}

function fixedWindow(limit: number, ms: number): RateWindow {
  let opened = Number.NEGATIVE_INFINITY;
  let consumed = 0;
  return {
    admit(now) {
      if (now >= opened + ms) {
        opened = now;
        consumed = 0;
      }
      consumed++;
      return consumed <= limit ? { ok: true } : { ok: false, waitMs: opened + ms - now, consumed };
    },
  };
}

function slidingWindow(limit: number, ms: number): RateWindow {
  const accepted: number[] = [];
  return {
    admit(now) {
      while (accepted.length > 0 && (accepted[0] ?? 0) <= now - ms) accepted.shift();
      if (accepted.length < limit) {
        accepted.push(now);
        return { ok: true };
      }
      return { ok: false, waitMs: (accepted[0] ?? now) + ms - now, consumed: accepted.length + 1 };
    },
  };
}

/** The hosted API's wording of a rate 429, its wait in whole seconds. */
function rateLimitedBody(consumed: number, waitMs: number, nowMs: number): string {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const error =
    `Rate limit exceeded. Consumed (req/min): ${consumed}, Remaining (req/min): 0. Upgrade your plan at ` +
    `https://firecrawl.dev/pricing for increased rate limits or please retry after ${seconds}s, resets at ${new Date(nowMs + waitMs).toString()}`;
  return JSON.stringify({ success: false, error });
}

export interface FaultOptions {
  /** Share of accepted requests answered with a fault, 0..1. */
  rate: number;
  /** Statuses drawn from, with their weights: 408, 429 (`Concurrency limit reached`), 500, 502, 503, 504. */
  mix: Partial<Record<FaultStatus, number>>;
  /** Retry-After of an injected 429, in seconds. */
  retryAfterSeconds: number;
  /** Seed of the draw that decides which requests fail, and how. @default 1 */
  seed?: number;
}

export type FaultStatus = 408 | 429 | 500 | 502 | 503 | 504;

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
  /** The file the request carried (its multipart filename), when one was read. */
  file?: string | undefined;
  /** The Retry-After a 429 was answered with, ms. */
  retryAfterMs?: number;
  /** The answer was an injected fault. */
  injected?: boolean;
  /** A 429 for the rate window (not the concurrency cap). */
  rate?: boolean;
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
const FAULT_BODIES: Record<FaultStatus, string> = {
  408: JSON.stringify({ success: false, error: 'Request Timeout' }),
  429: LIMITED_BODY,
  500: JSON.stringify({ success: false, code: 'INTERNAL_ERROR', error: 'Internal server error' }),
  502: JSON.stringify({ success: false, error: 'Bad Gateway' }),
  503: JSON.stringify({ success: false, error: 'Service Unavailable' }),
  504: JSON.stringify({ success: false, error: 'Gateway Timeout' }),
};

/** Two numbers in [0, 1) from a hash of `key`. */
function hashed(key: string): [number, number] {
  const digest = createHash('sha256').update(key).digest();
  return [digest.readUInt32BE(0) / 4_294_967_296, digest.readUInt32BE(4) / 4_294_967_296];
}

/**
 * Draws the answer of an accepted request for `file`: undefined for a success, else the injected status. Requests
 * without a file name are drawn by their order of arrival instead.
 */
function faultDrawer(faults: FaultOptions | undefined): (file: string | undefined) => FaultStatus | undefined {
  if (!faults || faults.rate <= 0) return () => undefined;
  const seed = faults.seed ?? 1;
  const entries = Object.entries(faults.mix)
    .map(([status, weight]) => [Number(status) as FaultStatus, weight ?? 0] as const)
    .filter(([, weight]) => weight > 0);
  const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
  const seen = new Map<string, number>();
  let unnamed = 0;
  return (file) => {
    const nth = file === undefined ? unnamed++ : (seen.get(file) ?? 0);
    if (file !== undefined) seen.set(file, nth + 1);
    const [fails, which] = hashed(`${seed}:${file ?? ''}:${nth}`);
    if (fails >= faults.rate || total <= 0) return undefined;
    let pick = which * total;
    for (const [status, weight] of entries) {
      pick -= weight;
      if (pick < 0) return status;
    }
    return entries[entries.length - 1]?.[0];
  };
}

/** The multipart filename in the first bytes of a body. */
function fileNameIn(head: string): string | undefined {
  return /filename="([^"]*)"/.exec(head)?.[1];
}

export async function startCappedServer(options: CappedServerOptions): Promise<CappedServer> {
  const records: RequestRecord[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const drawFault = faultDrawer(options.faults);
  const { window } = options;
  const rateWindow = window ? (window.kind === 'sliding' ? slidingWindow : fixedWindow)(window.limit, window.ms) : undefined;

  function drain(request: IncomingMessage, onEnd: (bytes: number, file: string | undefined) => void): void {
    let bytes = 0;
    let head = '';
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
      if (head.length < 1024) head += chunk.subarray(0, 1024).toString('latin1');
    });
    request.on('end', () => onEnd(bytes, fileNameIn(head)));
    request.on('error', () => onEnd(bytes, fileNameIn(head)));
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
    const admitted = rateWindow?.admit(arrivedAt);
    if (window && admitted && !admitted.ok) {
      drain(request, (bytes, file) => {
        const { waitMs, consumed } = admitted;
        const headers: Record<string, string> = {};
        const seconds = Math.max(1, Math.ceil(waitMs / 1000));
        if (window.headers === 'retry-after' || window.headers === 'x-ratelimit') headers['retry-after'] = String(seconds);
        if (window.headers === 'x-ratelimit') {
          headers['x-ratelimit-limit'] = String(window.limit);
          headers['x-ratelimit-remaining'] = '0';
          headers['x-ratelimit-reset'] = String(Math.ceil((Date.now() + waitMs) / 1000));
        }
        records.push({ arrivedAt, answeredAt: performance.now(), status: 429, inFlightAtArrival, bytes, file, retryAfterMs: waitMs, rate: true });
        send(response, 429, rateLimitedBody(consumed, waitMs, Date.now()), headers);
      });
      return;
    }
    if (inFlight >= options.capacity) {
      drain(request, (bytes, file) => {
        const retryAfterMs = options.retryAfterSeconds * 1000;
        records.push({ arrivedAt, answeredAt: performance.now(), status: 429, inFlightAtArrival, bytes, file, retryAfterMs });
        send(response, 429, LIMITED_BODY, { 'retry-after': String(options.retryAfterSeconds) });
      });
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let bodyBytes = -1;
    let fileName: string | undefined;
    let timeUp = false;
    const answer = () => {
      if (bodyBytes < 0 || !timeUp) return;
      inFlight--;
      const fault = drawFault(fileName);
      const answeredAt = performance.now();
      if (fault === undefined) {
        records.push({ arrivedAt, answeredAt, status: 200, inFlightAtArrival, bytes: bodyBytes, file: fileName });
        send(response, 200, SUCCESS_BODY);
        return;
      }
      const record: RequestRecord = { arrivedAt, answeredAt, status: fault, inFlightAtArrival, bytes: bodyBytes, file: fileName, injected: true };
      const headers: Record<string, string> = {};
      if (fault === 429) {
        const seconds = options.faults?.retryAfterSeconds ?? options.retryAfterSeconds;
        record.retryAfterMs = seconds * 1000;
        headers['retry-after'] = String(seconds);
      }
      records.push(record);
      send(response, fault, FAULT_BODIES[fault], headers);
    };
    drain(request, (bytes, file) => {
      if (bodyBytes >= 0) return;
      bodyBytes = bytes;
      fileName = file;
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
