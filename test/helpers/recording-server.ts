/**
 * A loopback /v2/parse server for tests: records every request (method, path, headers, raw byte count and the
 * multipart body as busboy parses it) and answers as a handler or a scripted sequence says.
 *
 * File parts are hashed while they stream in, never buffered, so multi-megabyte uploads cost no memory.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { Transform } from 'node:stream';
import busboy from 'busboy';
import { listenOnLoopback, writeReply } from './loopback-http.js';
import { hashPart, parseThrough } from './multipart-reading.js';
import { catalogueEntryFor } from '../../src/contract/errors.js';

export interface RecordedPart {
  /** `field` for a part without a filename (busboy's view), `file` for one with. */
  kind: 'field' | 'file';
  name: string;
  filename: string | undefined;
  mimeType: string;
  encoding: string;
  /** Bytes of the part's value (file bytes for a file part, UTF-8 bytes of the value for a field). */
  size: number;
  /** sha256 (hex) of a file part's bytes. */
  sha256?: string;
  /** A field's value as text. */
  value?: string;
  /** A field's value parsed as JSON, when it is JSON. */
  json?: unknown;
}

export interface RecordedRequest {
  /** 0-based arrival order. */
  index: number;
  method: string;
  /** Path with query string, as sent on the request line. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Raw body bytes received. */
  bodyBytes: number;
  parts: RecordedPart[];
  /** Set when the body was not a parseable multipart body. */
  multipartError?: string;
}

/** What to send back: a JSON body (`json`), raw text (`body`), or nothing ever (`hang`). */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
  /** Never answer (the connection stays open until the server closes). */
  hang?: boolean;
}

export type ReplySpec = Reply | number;
export type Handler = (request: RecordedRequest) => ReplySpec | Promise<ReplySpec>;

export interface RecordingServer {
  /** Base URL, `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Completed requests (body fully received), in arrival order. */
  requests: RecordedRequest[];
  /** Requests that started arriving, complete or not. */
  readonly arrivals: number;
  close(): Promise<void>;
}

export interface ParseMetadataReply {
  [key: string]: unknown;
}

/** A 200 parse response: `{success:true, data:{markdown:'# ok', metadata}}`, plus any extra `data` fields. */
export function okReply(metadata: ParseMetadataReply = { numPages: 1, contentType: 'application/pdf' }, data: Record<string, unknown> = {}): Reply {
  return { status: 200, json: { success: true, data: { markdown: '# ok', metadata, ...data } } };
}

/**
 * An error reply in the contract's shape. The message and API code default to the catalogue's typical ones for
 * the status.
 */
export function errorReply(
  status: number,
  fields: { error?: string; code?: string; details?: unknown; headers?: Record<string, string> } = {},
): Reply {
  const entry = catalogueEntryFor(status);
  const json: Record<string, unknown> = { success: false, error: fields.error ?? entry?.message ?? `HTTP ${status}` };
  const code = fields.code ?? entry?.apiCode;
  if (code !== undefined) json.code = code;
  if (fields.details !== undefined) json.details = fields.details;
  return { status, json, ...(fields.headers ? { headers: fields.headers } : {}) };
}

/** A handler that plays `replies` in order (a number means that status with the catalogue's body), repeating the last. */
export function scripted(replies: readonly ReplySpec[]): Handler {
  if (replies.length === 0) throw new Error('scripted() needs at least one reply');
  let next = 0;
  return () => {
    const reply = replies[Math.min(next, replies.length - 1)] as ReplySpec;
    next++;
    return reply;
  };
}

function toReply(spec: ReplySpec): Reply {
  if (typeof spec !== 'number') return spec;
  return spec >= 200 && spec < 300 ? okReply() : errorReply(spec);
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Reads the whole body, parsing it as multipart when it says it is, hashing file parts as they stream. */
async function readBody(req: IncomingMessage, record: RecordedRequest): Promise<void> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.byteLength;
      callback(null, chunk);
    },
  });
  const isMultipart = (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
  if (!isMultipart) {
    req.pipe(counter);
    counter.resume();
    await new Promise<void>((resolve, reject) => {
      counter.on('end', resolve);
      req.on('error', reject);
    });
    record.bodyBytes = bytes;
    return;
  }

  const pending: Promise<void>[] = [];
  const counted = new Promise<void>((resolve) => {
    counter.on('end', resolve);
    // A client that gives up mid-upload: nothing more will come.
    req.on('close', () => {
      if (!req.complete) resolve();
    });
  });
  req.pipe(counter);
  try {
    const parser = busboy({ headers: req.headers, defParamCharset: 'utf8' });
    parser.on('field', (name, value, info) => {
      const part: RecordedPart = {
        kind: 'field',
        name,
        filename: undefined,
        mimeType: info.mimeType,
        encoding: info.encoding,
        size: Buffer.byteLength(value),
        value,
        json: tryJson(value),
      };
      record.parts.push(part);
    });
    parser.on('file', (name, stream, info) => {
      const part: RecordedPart = {
        kind: 'file',
        name,
        filename: info.filename,
        mimeType: info.mimeType,
        encoding: info.encoding,
        size: 0,
      };
      record.parts.push(part);
      pending.push(
        hashPart(stream, (bytes) => (part.size += bytes)).then((sha256) => {
          part.sha256 = sha256;
        }),
      );
    });
    await parseThrough(req, counter, parser);
    await Promise.all(pending);
  } catch (error) {
    record.multipartError = error instanceof Error ? error.message : String(error);
    // Drain (and count) whatever is left so the client is not left blocked on a full socket.
    counter.unpipe();
    counter.resume();
  }
  await counted;
  record.bodyBytes = bytes;
}


/**
 * Starts a server on 127.0.0.1 with an OS-chosen port. `handler` is a function of the recorded request, or a
 * scripted sequence of replies (e.g. `[429, 429, 200]`; the last one repeats).
 */
export async function startRecordingServer(handler: Handler | readonly ReplySpec[] = [200]): Promise<RecordingServer> {
  const decide: Handler = typeof handler === 'function' ? handler : scripted(handler);
  const requests: RecordedRequest[] = [];
  let arrivals = 0;

  const server: Server = createServer((req, res) => {
    const record: RecordedRequest = {
      index: arrivals++,
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      bodyBytes: 0,
      parts: [],
    };
    void (async () => {
      try {
        await readBody(req, record);
        requests.push(record);
        const reply = toReply(await decide(record));
        if (reply.hang) return;
        writeReply(res, { ...reply, status: reply.status ?? 200 });
      } catch (error) {
        if (!res.headersSent) {
          res.writeHead(599, { 'content-type': 'text/plain' });
          res.end(`recording server failure: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })();
  });

  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    port: listening.port,
    requests,
    get arrivals() {
      return arrivals;
    },
    close: listening.close,
  };
}

/** A loopback port with nothing listening on it (listen on port 0, note the port, close). */
export async function freePort(): Promise<number> {
  const listening = await listenOnLoopback(createServer());
  await listening.close();
  return listening.port;
}
