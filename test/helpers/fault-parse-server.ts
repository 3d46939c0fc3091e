/**
 * A loopback /v2/parse server with injectable behaviour, for pipeline tests: latency per request, a concurrency
 * cap (beyond it `429 Concurrency limit reached` with `Retry-After`), and scripted faults by request index, by file
 * name, or after N successes. Behaviour can be changed while it runs (`setMode`).
 *
 * The multipart body is stream-parsed with busboy: file bytes are counted and hashed as they arrive, never held
 * whole in memory. Every request is recorded: when it arrived, its file name, size and options, the status sent
 * and when.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import busboy from 'busboy';
import { listenOnLoopback, writeReply, type HttpReply } from './loopback-http.js';
import { hashPart, parseThrough } from './multipart-reading.js';

/** A reply the server sends instead of a success: a JSON body (`json`), or raw text (`body`). */
export type FaultReply = HttpReply;

/** A scripted fault. Every condition given must hold; rules are tried in order and the first that matches fires. */
export interface FaultRule {
  /** Only requests whose multipart file name is this (or matches this pattern). */
  filename?: string | RegExp;
  /** Only the request with this 0-based arrival index. */
  index?: number;
  /** Only once at least this many successes have been sent (since the server started). */
  afterSuccesses?: number;
  /** How many times the rule may fire; unlimited when absent. */
  times?: number;
  reply: FaultReply;
}

export interface FaultMode {
  /** Milliseconds each accepted request takes before its answer (a number, or a function of the request). */
  latencyMs?: number | ((request: FaultRequestInfo) => number);
  /** Requests in flight at once; one more gets `429 Concurrency limit reached`. Unlimited when absent. */
  concurrencyCap?: number;
  /** `Retry-After` seconds sent with the cap's 429s; none when absent. */
  retryAfterSeconds?: number;
  /** Scripted faults, tried before the cap and the success path. */
  faults?: FaultRule[];
  /**
   * Whether success bodies carry `pages` / `blocks`: `requested` (default) follows the request's PDF parser
   * options, as the API does; `always` / `never` force it.
   */
  pages?: 'requested' | 'always' | 'never';
  blocks?: 'requested' | 'always' | 'never';
}

/** What the server knows about a request when it decides (the body has been read by then). */
export interface FaultRequestInfo {
  index: number;
  filename: string | undefined;
  size: number;
  options: unknown;
}

export interface FaultRecord {
  /** 0-based arrival order. */
  index: number;
  /** performance.now() (this process's monotonic clock, ms) when the request's headers arrived. */
  arrivedAt: number;
  /** performance.now() when the response was written; undefined while pending, or for a client that went away. */
  answeredAt?: number;
  method: string;
  path: string;
  authorization: string | undefined;
  /** The multipart file name (UTF-8 decoded). */
  filename?: string;
  /** Bytes of the file part, counted as they streamed in. */
  size: number;
  /** sha256 (hex) of the file part. */
  sha256?: string;
  /** The `options` part, parsed as JSON. */
  options?: unknown;
  /** Raw body bytes received. */
  bodyBytes: number;
  /** The status sent; undefined while pending. */
  status?: number;
  /** Accepted requests in flight when this one arrived (itself not included). */
  inFlightAtArrival: number;
  multipartError?: string;
  /** The client went away before the whole body arrived or before the answer (a killed worker). */
  aborted?: boolean;
}

export interface FaultParseServer {
  /** Base URL, `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request, in arrival order (pending ones included). */
  readonly requests: readonly FaultRecord[];
  /** Successes sent so far. */
  readonly successes: number;
  /** The most accepted requests that were ever in flight at once. */
  readonly maxInFlight: number;
  /** Replaces the behaviour (fields not given go back to their defaults). Rule `times` counters restart. */
  setMode(mode: FaultMode): void;
  /** Changes part of the behaviour, keeping the rest. */
  updateMode(mode: Partial<FaultMode>): void;
  /** Requests for one file name, in arrival order. */
  requestsFor(filename: string): FaultRecord[];
  /** Forgets the recorded requests (counters of successes and rules are kept). */
  clearRequests(): void;
  close(): Promise<void>;
}

/** The Markdown the server sends for a file: `# <filename>\n\n<size> bytes`. */
export function expectedMarkdown(filename: string, size: number): string {
  return `# ${filename}\n\n${size} bytes`;
}

/** The `data` object of the success body the server sends for a file. */
export function successData(filename: string, size: number, extras: { pages?: boolean; blocks?: boolean } = {}) {
  const markdown = expectedMarkdown(filename, size);
  const data: Record<string, unknown> = { markdown, metadata: { numPages: 1, creditsUsed: 1 } };
  if (extras.pages) data.pages = [{ pageNumber: 1, markdown }];
  if (extras.blocks) {
    data.blocks = [
      {
        pageNumber: 1,
        width: 612,
        height: 792,
        status: 'ok',
        items: [
          {
            id: 'p1.b0',
            type: 'title',
            label: 'Title',
            bbox: [0.1, 0.1, 0.9, 0.2],
            content: `# ${filename}`,
            markdownSpan: [0, filename.length + 2],
            readingOrder: 0,
            source: 'native_text',
            confidence: { layout: 0.99, ocr: null },
          },
        ],
      },
    ];
  }
  return data;
}

/** The contract's 429 for the concurrency limit. */
export function concurrencyLimitReply(retryAfterSeconds?: number): FaultReply {
  return {
    status: 429,
    json: { success: false, error: 'Concurrency limit reached' },
    ...(retryAfterSeconds !== undefined ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}),
  };
}

interface ActiveRule {
  rule: FaultRule;
  fired: number;
}

export async function startFaultParseServer(initial: FaultMode = {}): Promise<FaultParseServer> {
  let mode: FaultMode = { ...initial };
  let rules: ActiveRule[] = (mode.faults ?? []).map((rule) => ({ rule, fired: 0 }));
  let requests: FaultRecord[] = [];
  let arrivals = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let successes = 0;

  const server: Server = createServer((req, res) => {
    const record: FaultRecord = {
      index: arrivals++,
      arrivedAt: performance.now(),
      method: req.method ?? '',
      path: req.url ?? '',
      authorization: req.headers.authorization,
      size: 0,
      bodyBytes: 0,
      inFlightAtArrival: inFlight,
    };
    requests.push(record);
    void handle(req, res, record).catch((error: unknown) => {
      if (!res.headersSent) {
        record.status = 599;
        res.writeHead(599, { 'content-type': 'text/plain' });
        res.end(`fault server failure: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, record: FaultRecord): Promise<void> {
    if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v2/parse')) {
      req.resume();
      send(res, record, { status: 404, json: { success: false, error: 'Not Found' } });
      return;
    }
    // The cap is decided on arrival, as a server that counts open requests would; the body is read either way.
    const cap = mode.concurrencyCap;
    const overCap = cap !== undefined && inFlight >= cap;
    if (!overCap) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
    }
    try {
      await readMultipart(req, record);
      if (!req.complete || clientGone(res)) {
        record.aborted = true;
        return;
      }
      const info: FaultRequestInfo = { index: record.index, filename: record.filename, size: record.size, options: record.options };
      if (record.multipartError) {
        send(res, record, { status: 400, json: { success: false, code: 'BAD_REQUEST', error: 'Invalid multipart form-data request.' } });
        return;
      }
      const fault = takeFault(info);
      if (fault) {
        send(res, record, fault);
        return;
      }
      if (overCap) {
        send(res, record, concurrencyLimitReply(mode.retryAfterSeconds));
        return;
      }
      const latency = typeof mode.latencyMs === 'function' ? mode.latencyMs(info) : (mode.latencyMs ?? 0);
      if (latency > 0) await delay(latency);
      if (clientGone(res)) {
        record.aborted = true;
        return;
      }
      const filename = record.filename ?? 'unnamed';
      const data = successData(filename, record.size, {
        pages: wants(mode.pages, record.options, 'pages'),
        blocks: wants(mode.blocks, record.options, 'blocks'),
      });
      successes++;
      send(res, record, { status: 200, json: { success: true, data } });
    } finally {
      if (!overCap) inFlight--;
    }
  }

  function takeFault(info: FaultRequestInfo): FaultReply | undefined {
    for (const active of rules) {
      const { rule } = active;
      if (rule.times !== undefined && active.fired >= rule.times) continue;
      if (rule.index !== undefined && rule.index !== info.index) continue;
      if (rule.afterSuccesses !== undefined && successes < rule.afterSuccesses) continue;
      if (rule.filename !== undefined) {
        const name = info.filename ?? '';
        if (typeof rule.filename === 'string' ? rule.filename !== name : !rule.filename.test(name)) continue;
      }
      active.fired++;
      return rule.reply;
    }
    return undefined;
  }

  const listening = await listenOnLoopback(server);

  return {
    url: listening.url,
    get requests() {
      return requests;
    },
    get successes() {
      return successes;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    setMode(next) {
      mode = { ...next };
      rules = (mode.faults ?? []).map((rule) => ({ rule, fired: 0 }));
    },
    updateMode(next) {
      mode = { ...mode, ...next };
      if (next.faults !== undefined) rules = next.faults.map((rule) => ({ rule, fired: 0 }));
    },
    requestsFor(filename) {
      return requests.filter((request) => request.filename === filename);
    },
    clearRequests() {
      requests = [];
    },
    close: listening.close,
  };
}

function wants(setting: FaultMode['pages'], options: unknown, field: 'pages' | 'blocks'): boolean {
  if (setting === 'always') return true;
  if (setting === 'never') return false;
  const parsers = (options as { parsers?: unknown } | undefined)?.parsers;
  if (!Array.isArray(parsers)) return false;
  return parsers.some((parser) => typeof parser === 'object' && parser !== null && (parser as Record<string, unknown>)[field] === true);
}

function clientGone(res: ServerResponse): boolean {
  return res.destroyed || !res.socket || res.socket.destroyed;
}

function send(res: ServerResponse, record: FaultRecord, reply: FaultReply): void {
  if (clientGone(res)) {
    record.aborted = true;
    return;
  }
  record.status = reply.status;
  record.answeredAt = performance.now();
  writeReply(res, reply);
}

/** Streams the body through busboy: the file part is counted and hashed chunk by chunk, the options part parsed. */
async function readMultipart(req: IncomingMessage, record: FaultRecord): Promise<void> {
  req.on('data', (chunk: Buffer) => {
    record.bodyBytes += chunk.byteLength;
  });
  const contentType = (req.headers['content-type'] ?? '').toLowerCase();
  if (!contentType.startsWith('multipart/form-data')) {
    record.multipartError = `not multipart: ${contentType || '(no content-type)'}`;
    req.resume();
    await new Promise<void>((resolve) => req.once('end', resolve).once('close', resolve));
    return;
  }
  try {
    const parser = busboy({ headers: req.headers, defParamCharset: 'utf8' });
    const files: Promise<void>[] = [];
    parser.on('field', (name, value) => {
      if (name !== 'options') return;
      try {
        record.options = JSON.parse(value) as unknown;
      } catch {
        record.multipartError = 'options part is not JSON';
      }
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        return;
      }
      record.filename = info.filename;
      files.push(
        hashPart(stream, (bytes) => (record.size += bytes)).then((sha256) => {
          record.sha256 = sha256;
        }),
      );
    });
    await parseThrough(req, req, parser);
    await Promise.all(files);
    if (record.filename === undefined) record.multipartError ??= 'no file part';
  } catch (error) {
    record.multipartError = error instanceof Error ? error.message : String(error);
    req.unpipe();
    req.resume();
  }
}
