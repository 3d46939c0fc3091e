/**
 * `docmill serve`: POST /v2/parse over HTTP exactly as the contract says, on the local engine.
 * Auth → admission (429 when full) → streamed multipart (50 MiB enforced while reading) → options validation →
 * parse in the thread pool (timeout → 408) → the contract's success or error body.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';
import type { Logger } from 'pino';
import { extensionOf, isSupportedExtension, SUPPORTED_EXTENSIONS } from '../contract/extensions.js';
import { ERROR_MESSAGES } from '../contract/errors.js';
import { MAX_FILE_BYTES } from '../contract/limits.js';
import type { ParseOptions } from '../contract/options.js';
import type { ParseData } from '../contract/response.js';
import { badRequestBody, validateParseOptions, type ValidationDetail } from '../contract/validation.js';
import { EngineError } from '../engine/engine-error.js';
import { EngineCrashError, EngineTimeoutError } from '../engine/thread-pool.js';
import { Admission } from './admission.js';
import { DashboardAccess, type DashboardMount } from './dashboard-access.js';

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
  logger: Logger;
}

export interface RunningServer {
  server: Server;
  url: string;
  admission: Admission;
  close(): Promise<void>;
}

interface UploadedRequest {
  fileName: string;
  bytes: Buffer;
  optionsText: string | undefined;
}

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.error));
  }
}

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
    const entry = admission.tryEnter();
    if (!entry) {
      throw new HttpFailure(429, { success: false, error: ERROR_MESSAGES.concurrencyLimited }, { 'retry-after': '1' });
    }
    const ticket = await entry;
    try {
      if (request.destroyed) return;
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
        if (error instanceof EngineError) {
          throw new HttpFailure(error.status, { success: false, code: error.apiCode, error: `${upload.fileName}: ${error.message}` });
        }
        throw error;
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

  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/healthz' && (request.method === 'GET' || request.method === 'HEAD')) {
      sendJson(response, 200, { ok: true, active: admission.active, queued: admission.queued });
      return;
    }
    if (dashboard && path !== undefined && dashboard.owns(path)) {
      dashboard.handle(request, response).catch((error: unknown) => {
        logger.error({ err: error }, 'dashboard request failed');
        if (!response.headersSent) sendJson(response, 500, { success: false, error: 'Internal Server Error' });
      });
      return;
    }
    if (path !== '/v2/parse') {
      drain(request);
      sendJson(response, 404, { success: false, error: 'Not Found' });
      return;
    }
    if (request.method !== 'POST') {
      drain(request);
      sendJson(response, 405, { success: false, error: 'Method Not Allowed: use POST' }, { allow: 'POST' });
      return;
    }
    handleParse(request, response).catch((error: unknown) => {
      const failure = toHttpFailure(error);
      if (failure.status >= 500) logger.error({ err: error }, 'parse failed');
      else logger.info({ status: failure.status, error: failure.body.error }, 'parse refused');
      // Whatever of the upload is still arriving is discarded, not buffered.
      drain(request);
      if (!response.headersSent) sendJson(response, failure.status, failure.body, failure.headers);
    });
  });
  server.requestTimeout = 0;
  return { server, admission };
}

export async function startParseServer(options: ParseServerOptions & { host: string; port: number }): Promise<RunningServer> {
  const { server, admission } = createParseServer(options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    admission,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function badRequest(message: string, details: ValidationDetail[] = []): HttpFailure {
  return new HttpFailure(400, details.length > 0 ? { ...badRequestBody(details), error: message } : { success: false, code: 'BAD_REQUEST', error: message });
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

/** Reads the multipart body as a stream, holding at most 50 MiB of file and refusing the rest as it arrives. */
function readUpload(request: IncomingMessage): Promise<UploadedRequest> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        defParamCharset: 'utf8',
        limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 8, fieldSize: 1024 * 1024, parts: 10 },
      });
    } catch {
      reject(badRequest(ERROR_MESSAGES.invalidMultipart));
      return;
    }
    let fileName: string | undefined;
    let optionsText: string | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (failure: HttpFailure) => {
      if (failed) return;
      failed = true;
      request.unpipe(parser);
      reject(failure);
    };
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        return;
      }
      fileName = info.filename;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        chunks.push(chunk);
      });
      stream.on('limit', () => {
        chunks.length = 0;
        fail(
          new HttpFailure(413, {
            success: false,
            code: 'PAYLOAD_TOO_LARGE',
            error: `${ERROR_MESSAGES.payloadTooLarge}: the file is over the ${MAX_FILE_BYTES / (1024 * 1024)} MiB limit`,
          }),
        );
      });
    });
    parser.on('field', (name, value) => {
      if (name === 'options') optionsText = value;
    });
    parser.on('error', () => fail(badRequest(ERROR_MESSAGES.invalidMultipart)));
    parser.on('close', () => {
      if (failed) return;
      if (fileName === undefined) {
        fail(badRequest('Bad Request: the request has no "file" part', [{ path: 'file', message: 'required' }]));
        return;
      }
      resolve({ fileName, bytes: Buffer.concat(chunks, size), optionsText });
    });
    request.on('aborted', () => fail(badRequest(ERROR_MESSAGES.invalidMultipart)));
    request.pipe(parser);
  });
}

function toHttpFailure(error: unknown): HttpFailure {
  if (error instanceof HttpFailure) return error;
  if (error instanceof EngineError) return new HttpFailure(error.status, { success: false, code: error.apiCode, error: error.message });
  if (error instanceof EngineTimeoutError) {
    return new HttpFailure(408, { success: false, error: `${ERROR_MESSAGES.requestTimeout}: ${error.message}` });
  }
  if (error instanceof EngineCrashError) {
    return new HttpFailure(500, { success: false, code: 'UNKNOWN_ERROR', error: ERROR_MESSAGES.unknown });
  }
  return new HttpFailure(500, { success: false, code: 'UNKNOWN_ERROR', error: ERROR_MESSAGES.unknown });
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** Discards the rest of a request body without buffering it; a client still sending after 30 s is cut off. */
function drain(request: IncomingMessage): void {
  if (request.readableEnded || request.destroyed) return;
  request.resume();
  const timer = setTimeout(() => request.destroy(), 30_000);
  timer.unref();
  request.once('end', () => clearTimeout(timer));
}
