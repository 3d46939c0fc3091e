/**
 * The one shutdown order: whatever order an entry point opened its resources in, they close in SHUTDOWN_ORDER (what
 * uses a resource before it), two of a kind newest first, and one that fails to close does not keep the rest open.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Resources } from '../../src/app/resources.js';

describe('Resources', () => {
  it('closes in SHUTDOWN_ORDER whatever the order of opening, newest first within a kind', async () => {
    const closed: string[] = [];
    const resources = new Resources();
    for (const [kind, name] of [
      ['parse backend', 'engine'],
      ['queue', 'queue'],
      ['store', 'store'],
      ['metrics server', 'metrics'],
      ['parse worker', 'worker'],
      ['sources', 'first sources'],
      ['sources', 'second sources'],
      ['S3 client', 's3'],
    ] as const) {
      resources.add(kind, name, (value) => void closed.push(value));
    }
    await resources.close();
    expect(closed).toEqual(['worker', 'metrics', 'queue', 'second sources', 'first sources', 'store', 's3', 'engine']);
    await resources.close();
    expect(closed).toHaveLength(8);
  });

  it('goes on closing after one fails', async () => {
    const closed: string[] = [];
    const resources = new Resources();
    resources.add('parse backend', 'engine', (value) => void closed.push(value));
    resources.add('queue', 'queue', () => Promise.reject(new Error('Redis is gone')));
    resources.add('parse server', 'server', (value) => void closed.push(value));
    await expect(resources.close()).resolves.toBeUndefined();
    expect(closed).toEqual(['server', 'engine']);
  });

  it('logs a close step that is still running, naming its resource, and goes on waiting for it', async () => {
    const lines: { msg: string; resource?: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as { msg: string; resource?: string });
        done();
      },
    });
    const resources = new Resources(pino({ level: 'warn' }, sink), 40);
    const closed: string[] = [];
    resources.add('store', 'store', () => new Promise<void>((resolve) => setTimeout(() => resolve(void closed.push('store')), 150)));
    resources.add('parse backend', 'engine', (value) => void closed.push(value));
    await resources.close();
    expect(closed).toEqual(['store', 'engine']);
    const stillClosing = lines.filter((line) => line.msg === 'still closing');
    expect(stillClosing.length).toBeGreaterThanOrEqual(1);
    expect(stillClosing.every((line) => line.resource === 'store')).toBe(true);
  });
});
