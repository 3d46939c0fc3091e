/**
 * The plumbing every loopback test server shares: listen on 127.0.0.1 at a port the OS picks, close without waiting
 * for idle keep-alive connections, and write a reply.
 */
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Drops every open connection and stops listening; a second call does nothing. */
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closed = false;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A JSON body (`json`), or raw text (`body`, sent as text/plain unless `headers` say otherwise). */
export interface HttpReply {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
}

export function writeReply(res: ServerResponse, reply: HttpReply): void {
  if (reply.json !== undefined) {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.json));
    return;
  }
  res.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8', ...reply.headers });
  res.end(reply.body ?? '');
}
