/**
 * The launcher's allocator settings: on Linux, a docmill process runs with glibc's MALLOC_ARENA_MAX and
 * MALLOC_MMAP_THRESHOLD_ set (a long batch's resident set then stays lower) where its node can re-execute itself in
 * place (Node 22.15 and later), unless the user set either; the process keeps its pid, so signals reach it as before.
 * Read from the running `docmill serve`'s own environment (/proc/<pid>/environ).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/docmill.js', import.meta.url));
const REEXECUTES = typeof (process as { execve?: unknown }).execve === 'function';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docmill-allocator-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The allocator variables of a running `docmill serve` started with `env`; it must then stop cleanly on SIGTERM. */
async function servedEnvironment(env: Record<string, string>): Promise<Record<string, string>> {
  const server = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: { PATH: process.env.PATH ?? '', HOME: dir, ...env } });
  let log = '';
  server.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start:\n${log}`)), 20_000);
      server.stderr.on('data', () => {
        if (!/"url":"http:\/\/[^"]+\/v2\/parse"/.test(log)) return;
        clearTimeout(timer);
        resolve();
      });
    });
    const environ = await readFile(`/proc/${server.pid}/environ`, 'utf8');
    return Object.fromEntries(
      environ
        .split('\0')
        .filter((line) => line.startsWith('MALLOC_'))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
  } finally {
    server.kill('SIGTERM');
    const code = await exited;
    expect(code, log).toBe(0);
  }
}

describe.runIf(process.platform === 'linux')('the launcher on Linux', () => {
  it(REEXECUTES ? 'runs docmill with the allocator settings, in the same process' : 'leaves the process as it is where node cannot re-execute itself', async () => {
    const settings = await servedEnvironment({});
    expect(settings).toEqual(REEXECUTES ? { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' } : {});
  }, 30_000);

  it("keeps the user's own allocator setting and adds none beside it", async () => {
    const settings = await servedEnvironment({ MALLOC_ARENA_MAX: '4' });
    expect(settings).toEqual({ MALLOC_ARENA_MAX: '4' });
  }, 30_000);
});
