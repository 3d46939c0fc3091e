/**
 * The loopback HTTP servers tests talk to, started from one place:
 * - `startFaultParseServer`: a /v2/parse API with latency, a concurrency cap and scripted faults (pipeline tests);
 * - `startRecordingServer` (in recording-server.ts, on the same plumbing): a /v2/parse API that records each multipart
 *   part and answers as scripted (client tests);
 * - `startHandlerServer`: any other endpoint, answered by a handler given the whole body (an LLM endpoint, or a parse
 *   API whose raw body a test reads).
 * Each listens on 127.0.0.1 at a port the OS picks; `close()` drops open connections.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback, writeReply, type HttpReply } from './loopback-http.js';

export { startFaultParseServer, type FaultMode, type FaultParseServer } from './fault-parse-server.js';

export interface ReceivedRequest {
  method: string;
  /** Path with query string, as sent on the request line. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body as UTF-8 text. */
  text: string;
}

export interface HandlerServer {
  /** Base URL, `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request answered so far, in arrival order. */
  readonly requests: readonly ReceivedRequest[];
  close(): Promise<void>;
}

/** A server that reads each request's whole body, then answers what `handle` returns. */
export async function startHandlerServer(handle: (request: ReceivedRequest) => HttpReply | Promise<HttpReply>): Promise<HandlerServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const request: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, text: body.toString('utf8') };
      requests.push(request);
      void (async () => writeReply(res, await handle(request)))().catch((error: unknown) => {
        if (res.headersSent) return;
        writeReply(res, { status: 599, body: `handler server failure: ${error instanceof Error ? error.message : String(error)}` });
      });
    });
  });
  const listening = await listenOnLoopback(server);
  return { url: listening.url, requests, close: listening.close };
}
