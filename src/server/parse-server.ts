/**
 * `docmill serve`: POST /v2/parse over HTTP exactly as the contract says, on the local engine.
 * Auth → body size → admission (429 when full) → streamed multipart (limits enforced while reading) → options
 * validation → parse in the thread pool → the contract's success or error body: a document the engine cannot convert
 * 400 or 422 with its code, a first timeout 408, a crash 500 (engine-error.ts; a document that overran its time or
 * lost its thread is run alone when its client retries, and then answered for good: isolated-retry.ts).
 * No request can take the server down: every stream of a request has its errors handled (upload-reader.ts,
 * client-errors.ts), and every connection is bounded in size and time (http-limits.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { extensionOf, isSupportedExtension, SUPPORTED_EXTENSIONS } from '../contract/extensions.js';
import { ERROR_MESSAGES } from '../contract/errors.js';
import type { ParseOptions } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import { validateParseOptions } from '../contract/validation.js';
import { engineFailureAnswer } from '../engine/engine-error.js';
import { Admission } from './admission.js';
import { answerClientErrors } from './client-errors.js';
import { DashboardAccess, type DashboardMount } from './dashboard-access.js';
import { badRequest, HttpFailure, payloadTooLarge } from './http-failure.js';
import { connectionLimits, HEADERS_TIMEOUT_MS, PARSE_REQUEST_TIMEOUT_MS, type RequestDeadlines } from './http-limits.js';
import { declaresTooLargeBody, readUpload, UPLOAD_LIMITS } from './upload-reader.js';

export type ParseFunction = (bytes: Uint8Array, fileName: string, options: ParseOptions) => Promise<ParseData>;

export interface ParseServerOptions {
  parse: ParseFunction;
  /** Accepted bearer keys; empty means no authentication. */
  apiKeys: string[];
  /** Parses at once. */
  maxConcurrency: number;
  /** Requests allowed to wait for a slot before 429. @default maxConcurrency * 2 */
  maxQueued?: number;
  /** The queue dashboard, answered below its path for holders of `apiKeys` (all comers when there are none). */
  dashboard?: DashboardMount | undefined;
  /**
   * How long a client may take to send a request's headers, and the whole request.
   * @default { headersMs: HEADERS_TIMEOUT_MS (10 s), requestMs: PARSE_REQUEST_TIMEOUT_MS (310 s) }
   */
  deadlines?: Partial<RequestDeadlines> | undefined;
  /**
   * How long closing waits for the parses under way, and those queued for a slot, to be answered; new connections
   * are refused meanwhile and whatever is still open at the end is cut. @default 0: cut at once
   */
  drainMs?: number | undefined;
  logger: Logger;
}

export interface RunningServer {
  server: Server;
  url: string;
  admission: Admission;
  close(): Promise<void>;
}

/**
 * After a refusal, the rest of the upload is read and dropped (never buffered) so a client still sending gets to
 * read the answer instead of a reset; for at most this long and this much, then the connection is cut.
 */
const DISCARD_MS = 30_000;
const DISCARD_BYTES = UPLOAD_LIMITS.bodyBytes;

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

export function createParseServer(options: ParseServerOptions): { server: Server; admission: Admission } {
  const admission = new Admission(options.maxConcurrency, options.maxQueued ?? options.maxConcurrency * 2);
  const keyDigests = options.apiKeys.map(digest);
  const { logger } = options;

  const keyMatches = (key: string): boolean => {
    const presented = digest(key);
    // Compare digests in constant time so response timing reveals nothing about the keys.
    return keyDigests.some((known) => timingSafeEqual(known, presented));
  };
  const authorised = (request: IncomingMessage): boolean => {
    if (keyDigests.length === 0) return true;
    const match = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1]) return false;
    return keyMatches(match[1].trim());
  };
  const dashboard = options.dashboard ? new DashboardAccess(options.dashboard, keyDigests.length > 0 ? keyMatches : undefined) : undefined;

  const handleParse = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const arrived = Date.now();
    if (!authorised(request)) throw new HttpFailure(401, { success: false, error: ERROR_MESSAGES.unauthorized });
    // Refused before a byte of it is read, and before it takes a place in the queue.
    if (declaresTooLargeBody(request)) throw payloadTooLarge('the request body', UPLOAD_LIMITS.bodyBytes);
    const entry = admission.tryEnter();
    if (!entry) {
      throw new HttpFailure(429, { success: false, error: ERROR_MESSAGES.concurrencyLimited }, { 'retry-after': '1' });
    }
    const ticket = await entry;
    try {
      if (request.destroyed) return;
      // A client that waits for "100 Continue" sends its body only once it has a slot.
      if (expectsContinue(request)) response.writeContinue();
      const upload = await readUpload(request);
      const validation = validateParseOptions(parseOptionsText(upload.optionsText));
      if (!validation.ok) throw new HttpFailure(400, { ...validation.body });
      const parseOptions = validation.options;
      const extension = extensionOf(upload.fileName);
      if (!isSupportedExtension(extension)) {
        throw badRequest(`Unsupported file type "${extension || '(none)'}"; supported: ${SUPPORTED_EXTENSIONS.join(' ')}`, [
          { path: 'file', message: `unsupported extension ${extension || '(none)'}` },
        ]);
      }
      const remainingMs = parseOptions.timeout - (Date.now() - arrived);
      if (remainingMs <= 0) throw new HttpFailure(408, { success: false, error: ERROR_MESSAGES.requestTimeout });
      let data: ParseData;
      try {
        data = await options.parse(upload.bytes, upload.fileName, { ...parseOptions, timeout: remainingMs });
      } catch (error) {
        // The same status, code and retryable as the local engine gives in-process for this failure (engine-error.ts).
        const answer = engineFailureAnswer(error, upload.fileName);
        if (!answer) throw error;
        // A converter's own failure: its cause is for this log, not for the caller.
        if (answer.status < 500 && answer.localMessage !== answer.message) logger.warn({ file: upload.fileName, cause: answer.localMessage }, 'conversion failed');
        const body = { success: false, ...(answer.apiCode ? { code: answer.apiCode } : {}), error: answer.message };
        throw new HttpFailure(answer.status, body, {}, { cause: error });
      }
      if (ticket.queuedMs > 0) {
        data.metadata = { ...data.metadata, concurrencyLimited: true, concurrencyQueueDurationMs: ticket.queuedMs };
      }
      sendJson(response, 200, { success: true, data });
      logger.info({ file: upload.fileName, bytes: upload.bytes.byteLength, ms: Date.now() - arrived, queuedMs: ticket.queuedMs }, 'parsed');
    } finally {
      ticket.release();
    }
  };

  const refuseParse = (request: IncomingMessage, response: ServerResponse, error: unknown): void => {
    const failure = toHttpFailure(error);
    // An engine crash is answered with the contract's generic message; its cause goes to this log only.
    if (failure.status >= 500) logger.error({ err: error instanceof HttpFailure && error.cause !== undefined ? error.cause : error }, 'parse failed');
    else logger.info({ status: failure.status, error: failure.body.error }, 'parse refused');
    // The rest of the upload is discarded, not read into anything, so the client gets to read the answer.
    discard(request);
    sendJson(response, failure.status, failure.body, failure.headers);
  };

  const route = (request: IncomingMessage, response: ServerResponse): void => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
      sendJson(response, 200, { ok: true, active: admission.active, queued: admission.queued });
      return;
    }
    if (path === '/v2/parse' && request.method === 'POST') {
      handleParse(request, response).catch((error: unknown) => refuseParse(request, response, error));
      return;
    }
    if (dashboard && path !== undefined && dashboard.owns(path)) {
      // The dashboard reads a body (its JSON) at once, when it takes one; other routes never do.
      if (expectsContinue(request)) response.writeContinue();
      dashboard.handle(request, response).catch((error: unknown) => {
        logger.error({ err: error }, 'dashboard request failed');
        if (!response.headersSent) sendJson(response, 500, { success: false, error: 'Internal Server Error' });
        else response.destroy();
      });
      return;
    }
    discard(request);
    if (path !== '/v2/parse') {
      sendJson(response, 404, { success: false, error: 'Not Found' });
      return;
    }
    sendJson(response, 405, { success: false, error: 'Method Not Allowed: use POST' }, { allow: 'POST' });
  };

  const server = createServer(
    connectionLimits({ headersMs: options.deadlines?.headersMs ?? HEADERS_TIMEOUT_MS, requestMs: options.deadlines?.requestMs ?? PARSE_REQUEST_TIMEOUT_MS }),
  );
  const track = answerClientErrors(
    server,
    (status, inFlight) => clientErrorBody(status, inFlight !== undefined && isParseRequest(inFlight)),
    logger,
  );
  const onRequest = (request: IncomingMessage, response: ServerResponse): void => {
    track(request, response);
    // A response that fails to write (its connection gone) is the client's loss, never the server's.
    response.on('error', (error) => logger.debug({ err: error }, 'response not delivered'));
    try {
      route(request, response);
    } catch (error) {
      // A fault in routing is this request's 500 and an error in the log, not the end of every other request.
      logger.error({ err: error }, 'request failed');
      sendJson(response, 500, { success: false, code: 'UNKNOWN_ERROR', error: ERROR_MESSAGES.unknown });
    }
  };
  server.on('request', onRequest);
  // Answered by the handlers themselves: a parse request gets "100 Continue" only once it is admitted.
  server.on('checkContinue', onRequest);
  return { server, admission };
}

export async function startParseServer(options: ParseServerOptions & { host: string; port: number }): Promise<RunningServer> {
  const { server, admission } = createParseServer(options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Once listening, what the server reports (a failed accept when out of file descriptors) is logged, and it
  // goes on accepting: no client can make it an unhandled 'error'.
  server.on('error', (error) => options.logger.error({ err: error }, 'parse server error'));
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    admission,
    url: `http://${host}:${address.port}`,
    close: () => drainAndClose(server, admission, options.drainMs ?? 0),
  };
}

/** Stops listening, answers what was admitted (for at most `drainMs`), then cuts every connection left. */
async function drainAndClose(server: Server, admission: Admission, drainMs: number): Promise<void> {
  const closed = new Promise<void>((resolveClosed) => server.close(() => resolveClosed()));
  const deadline = Date.now() + drainMs;
  while (admission.active + admission.queued > 0 && Date.now() < deadline) {
    // A keep-alive connection whose answer went out is idle: dropped, so no new request arrives on it.
    server.closeIdleConnections();
    await new Promise((resolveTick) => setTimeout(resolveTick, 50));
  }
  server.closeIdleConnections();
  // The last answers finish flushing (their connections then close as idle) before the rest are cut.
  if (drainMs > 0) await Promise.race([closed, new Promise((resolveFlush) => setTimeout(resolveFlush, 1000))]);
  server.closeAllConnections();
  await closed;
}

function isParseRequest(request: IncomingMessage): boolean {
  return request.method === 'POST' && (request.url ?? '/').split('?')[0] === '/v2/parse';
}

function expectsContinue(request: IncomingMessage): boolean {
  return /^100-continue$/i.test(request.headers.expect ?? '');
}

/** What a request refused by Node's HTTP layer is answered (see client-errors.ts). */
function clientErrorBody(status: number, duringParse: boolean): Record<string, unknown> {
  switch (status) {
    case 408:
      return { success: false, error: ERROR_MESSAGES.requestTimeout };
    case 413:
      return { success: false, code: 'PAYLOAD_TOO_LARGE', error: ERROR_MESSAGES.payloadTooLarge };
    case 431:
      return { success: false, error: 'Request Header Fields Too Large' };
    default:
      // A parse body cut off with its connection, or chunked framing that is not valid, is a body that is not valid.
      return { success: false, code: 'BAD_REQUEST', error: duringParse ? ERROR_MESSAGES.invalidMultipart : 'Bad Request' };
  }
}

function parseOptionsText(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`Bad Request: the options part is not valid JSON (${(error as Error).message})`, [
      { path: 'options', message: 'not valid JSON' },
    ]);
  }
}

/** Failures this module raised answer as they are; anything else is unexpected: 500 with nothing of its detail. */
function toHttpFailure(error: unknown): HttpFailure {
  if (error instanceof HttpFailure) return error;
  return new HttpFailure(500, { success: false, code: 'UNKNOWN_ERROR', error: ERROR_MESSAGES.unknown });
}

/** Writes a JSON answer, unless an answer has already started or the connection can no longer carry one. */
function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent || response.destroyed || response.socket?.writable === false) return;
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** Discards the rest of a request body without buffering it, within DISCARD_MS and DISCARD_BYTES. */
function discard(request: IncomingMessage): void {
  if (request.readableEnded || request.destroyed) return;
  let left = DISCARD_BYTES;
  const timer = setTimeout(() => request.destroy(), DISCARD_MS);
  timer.unref();
  request.once('close', () => clearTimeout(timer));
  request.on('data', (chunk: Buffer) => {
    left -= chunk.byteLength;
    if (left < 0) request.destroy();
  });
  request.resume();
}
