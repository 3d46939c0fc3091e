/**
 * `docmill serve` as a user runs it: a real process on loopback, parsed through by `docmill parse --api-url`.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/docmill.js', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docmill-serve-'));
  await writeFile(join(dir, 'table.csv'), 'city,people\nLyon,522000\nNantes,320000\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: dir, ...env }, cwd: dir }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('docmill serve', () => {
  it('refuses a public address without keys unless --no-auth', async () => {
    const result = await run(['serve', '--host', '0.0.0.0', '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('DOCMILL_SERVER_API_KEYS');
  });

  it('serves /v2/parse with bearer keys, answers docmill parse, and stops cleanly on SIGTERM', async () => {
    const server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--max-concurrency', '1'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, DOCMILL_SERVER_API_KEYS: 'k-one,k-two' },
    });
    let log = '';
    server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve did not start:\n${log}`)), 20_000);
        server.stderr.on('data', () => {
          const match = /"url":"(http:\/\/[^"]+)\/v2\/parse"/.exec(log);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      const parsed = await run(['parse', 'table.csv', '--api-url', url, '--api-key', 'k-two']);
      expect(parsed.code, parsed.stderr).toBe(0);
      expect(parsed.stdout).toContain('| Lyon | 522000 |');
      const refused = await run(['parse', 'table.csv', '--api-url', url, '--api-key', 'wrong']);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('HTTP 401');
      expect(log).not.toContain('k-two');
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
