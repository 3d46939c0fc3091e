/**
 * Answers for what Node's HTTP layer refuses before a handler could: bytes that are not HTTP, headers over the
 * limit, a deadline passed, a body that ends with the connection. Node's own answers are bare status lines; the
 * contract wants a JSON error body on every non-2xx, so `docmill serve` writes them, and only where nothing of a
 * response has gone out yet (anything else would corrupt what the client is reading). A client that is gone (a
 * reset, a broken pipe) gets nothing: its socket is closed.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';

/** The body of a refusal, given its status and the request that was being read on the connection (if any). */
export type ClientErrorBody = (status: number, inFlight: IncomingMessage | undefined) => Record<string, unknown>;

/** How long a refused client gets to take the answer before the socket is closed regardless. */
const ANSWER_GRACE_MS = 5_000;

export function statusOfClientError(error: NodeJS.ErrnoException): number | undefined {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 431;
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 413;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408;
    default:
      // Every other parser error is a request that is not valid HTTP; anything else is the connection failing.
      return error.code?.startsWith('HPE_') ? 400 : undefined;
  }
}

/**
 * Installs the server's 'clientError' answer. Returns `track`, which the request handler calls for each request
 * so a refusal in the middle of one knows whether its response has started.
 */
export function answerClientErrors(
  server: Server,
  bodyFor: ClientErrorBody,
  logger: Logger,
): (request: IncomingMessage, response: ServerResponse) => void {
  // The requests on each connection whose responses have not finished (more than one when a client pipelines).
  const inFlight = new WeakMap<Socket, Set<{ request: IncomingMessage; response: ServerResponse }>>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const open = [...(inFlight.get(socket) ?? [])];
    const status = statusOfClientError(error);
    if (status === undefined || !socket.writable || open.length > 1 || open.some(({ response }) => response.headersSent)) {
      logger.debug({ code: error.code }, 'connection closed');
      socket.destroy();
      return;
    }
    logger.info({ status, code: error.code }, 'request refused by the HTTP layer');
    const text = JSON.stringify(bodyFor(status, open[0]?.request));
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(text)}`,
      'connection: close',
    ];
    const grace = setTimeout(() => socket.destroy(), ANSWER_GRACE_MS);
    grace.unref();
    socket.end(`${head.join('\r\n')}\r\n\r\n${text}`, () => {
      clearTimeout(grace);
      socket.destroy();
    });
  });
  return (request, response) => {
    const socket = request.socket;
    const entry = { request, response };
    let open = inFlight.get(socket);
    if (!open) inFlight.set(socket, (open = new Set()));
    open.add(entry);
    response.once('close', () => open.delete(entry));
  };
}
