/**
 * `serve` opens its engine, parse server and metrics server through the composition root: a start that fails part
 * way leaves nothing listening behind it, so the same command can be run again at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serve } from '../../src/app/serve.js';

const opened: Server[] = [];

async function listening(host?: string): Promise<Server> {
  const server = createServer((_request, response) => response.end());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (host) server.listen(0, host, () => resolve());
    else server.listen(0, () => resolve());
  });
  opened.push(server);
  return server;
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;
const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

afterEach(async () => {
  await Promise.all(opened.splice(0).map(closeServer));
});

describe('serve', () => {
  it('closes the parse server it had opened when the metrics port is taken', async () => {
    const taken = await listening();
    const probe = await listening('127.0.0.1');
    const port = portOf(probe);
    await closeServer(opened.splice(opened.indexOf(probe), 1)[0] as Server);

    await expect(serve({ host: '127.0.0.1', port, maxConcurrency: 1, metricsPort: portOf(taken) })).rejects.toThrow(/EADDRINUSE/);

    // The parse port is free again: the failed start closed the server it had opened.
    const again = createServer();
    await new Promise<void>((resolve, reject) => {
      again.once('error', reject);
      again.listen(port, '127.0.0.1', () => resolve());
    });
    opened.push(again);
  });

  it('answers POST /v2/parse with the keys it is given, and stops listening when closed', async () => {
    const server = await serve({ host: '127.0.0.1', port: 0, maxConcurrency: 1, apiKeys: ['serve-test-key'] });
    try {
      const body = new FormData();
      body.append('file', new Blob(['city,people\nLyon,522000\n'], { type: 'text/csv' }), 'table.csv');
      const refused = await fetch(`${server.url}/v2/parse`, { method: 'POST', body });
      expect(refused.status).toBe(401);
      const parsed = await fetch(`${server.url}/v2/parse`, { method: 'POST', body, headers: { authorization: 'Bearer serve-test-key' } });
      expect(parsed.status).toBe(200);
      expect(((await parsed.json()) as { data: { markdown: string } }).data.markdown).toContain('| Lyon | 522000 |');
    } finally {
      await server.close();
    }
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});
