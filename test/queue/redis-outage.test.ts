/**
 * The outage watch on a real connection to a real redis-server that is killed (and restarted): it reports the
 * outage once after the grace period, reminds while it lasts, gives up (REDIS_UNAVAILABLE) after the wait when it
 * has one, and says so when Redis is back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger.js';
import { RedisOutage } from '../../src/queue/redis-outage.js';
import { waitFor } from '../helpers/docmill-cli.js';
import { freePort } from '../helpers/recording-server.js';

const servers: ChildProcess[] = [];
const clients: Redis[] = [];

afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
  for (const server of servers.splice(0)) if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
});

async function startRedis(port: number): Promise<ChildProcess> {
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  servers.push(server);
  let output = '';
  server.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text));
  await waitFor('redis-server to accept connections', () => output.includes('Ready to accept connections'), { timeoutMs: 10_000 });
  return server;
}

async function kill(server: ChildProcess): Promise<void> {
  const exited = new Promise((resolveExit) => server.once('exit', resolveExit));
  server.kill('SIGKILL');
  await exited;
}

function capturedLogger(): { logger: ReturnType<typeof createLogger>; messages: string[] } {
  const messages: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) messages.push((JSON.parse(line) as { msg: string }).msg);
      done();
    },
  });
  return { logger: createLogger({ level: 'info', destination, pretty: false }), messages };
}

async function connected(port: number): Promise<Redis> {
  const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: null, retryStrategy: () => 100 });
  client.on('error', () => undefined);
  clients.push(client);
  await client.ping();
  return client;
}

describe('RedisOutage', () => {
  it('reports a lasting outage once, reminds while it lasts, and gives up with REDIS_UNAVAILABLE after the wait', async () => {
    const port = await freePort();
    const server = await startRedis(port);
    const client = await connected(port);
    const { logger, messages } = capturedLogger();
    const outage = new RedisOutage(client, { target: `redis://127.0.0.1:${port}`, logger, giveUpAfterMs: 1500, reportAfterMs: 100, remindEveryMs: 400 });
    expect(outage.down).toBe(false);

    await kill(server);
    await waitFor('the outage to be known', () => outage.down, { timeoutMs: 5000, intervalMs: 10 });
    await new Promise<void>((resolveLost) => outage.lost.addEventListener('abort', () => resolveLost(), { once: true }));
    expect(outage.lost.reason).toMatchObject({ code: 'REDIS_UNAVAILABLE' });
    expect(String((outage.lost.reason as Error).message)).toContain('unreachable for 2 s');
    const lost = messages.filter((message) => message.startsWith('lost the connection to Redis'));
    expect(lost).toEqual([expect.stringContaining('waiting up to 2 s for it to return')]);
    expect(messages.filter((message) => message.startsWith('still waiting for Redis')).length).toBeGreaterThanOrEqual(2);
    outage.close();
  });

  it('waits on without a limit, then says Redis is back and calls its recovery listeners', async () => {
    const port = await freePort();
    const server = await startRedis(port);
    const client = await connected(port);
    const { logger, messages } = capturedLogger();
    const outage = new RedisOutage(client, { target: `redis://127.0.0.1:${port}`, logger, reportAfterMs: 100 });
    let recovered = 0;
    outage.onRecovered(() => recovered++);

    await kill(server);
    await waitFor('the outage to be reported', () => messages.some((message) => message.startsWith('lost the connection')), { timeoutMs: 5000 });
    expect(messages.find((message) => message.startsWith('lost the connection'))).toContain('waiting for it to return');
    await startRedis(port);
    await waitFor('Redis to be back', () => !outage.down, { timeoutMs: 10_000 });
    expect(await client.ping()).toBe('PONG');
    expect(recovered).toBe(1);
    expect(outage.lost.aborted).toBe(false);
    expect(messages.filter((message) => message.startsWith('lost the connection'))).toHaveLength(1);
    expect(messages.some((message) => message.startsWith('Redis is back after'))).toBe(true);
    outage.close();
  });

  it('does not report a blip shorter than the grace period', async () => {
    const port = await freePort();
    const server = await startRedis(port);
    const client = await connected(port);
    const { logger, messages } = capturedLogger();
    const outage = new RedisOutage(client, { target: `redis://127.0.0.1:${port}`, logger, reportAfterMs: 5000 });
    await kill(server);
    await waitFor('the outage to be known', () => outage.down, { timeoutMs: 5000, intervalMs: 10 });
    await startRedis(port);
    await waitFor('Redis to be back', () => !outage.down, { timeoutMs: 10_000 });
    expect(messages).toEqual([]);
    outage.close();
  });
});
