/**
 * The launcher's memory settings: on Linux, a docmill process runs with glibc's MALLOC_ARENA_MAX set and V8's
 * young generation capped (`--max-semi-space-size`), so a long batch's resident set stays lower and flat, where its
 * node can re-execute itself in place (Node 22.15 and later); the user's own setting of either kind (any malloc
 * variable or tunable of glibc's) is kept, with nothing of that kind added beside it. The process keeps its pid, so
 * signals reach it as before. Read from the running `docmill serve`'s own environment and command line
 * (/proc/<pid>/environ, cmdline).
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

interface Served {
  /** Its MALLOC_ variables. */
  allocator: Record<string, string>;
  /** Its node's options from the command line and NODE_OPTIONS that set the young generation. */
  youngGeneration: string[];
}

/** The memory settings of a running `docmill serve` started with `env`; it must then stop cleanly on SIGTERM. */
async function servedSettings(env: Record<string, string>): Promise<Served> {
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
    const environ = (await readFile(`/proc/${server.pid}/environ`, 'utf8')).split('\0');
    const allocator = Object.fromEntries(
      environ.filter((line) => line.startsWith('MALLOC_')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const nodeOptions = environ.find((line) => line.startsWith('NODE_OPTIONS='))?.slice('NODE_OPTIONS='.length).split(' ') ?? [];
    const commandLine = (await readFile(`/proc/${server.pid}/cmdline`, 'utf8')).split('\0');
    const youngGeneration = [...commandLine, ...nodeOptions].filter((option) => option.startsWith('--max-semi-space-size'));
    return { allocator, youngGeneration };
  } finally {
    server.kill('SIGTERM');
    const code = await exited;
    expect(code, log).toBe(0);
  }
}

describe.runIf(process.platform === 'linux')('the launcher on Linux', () => {
  it(REEXECUTES ? 'runs docmill with the memory settings, in the same process' : 'leaves the process as it is where node cannot re-execute itself', async () => {
    const served = await servedSettings({});
    expect(served).toEqual(
      REEXECUTES ? { allocator: { MALLOC_ARENA_MAX: '2' }, youngGeneration: ['--max-semi-space-size=2'] } : { allocator: {}, youngGeneration: [] },
    );
  }, 30_000);

  it("keeps the user's own allocator setting and adds none beside it", async () => {
    const served = await servedSettings({ MALLOC_ARENA_MAX: '4' });
    expect(served).toEqual({ allocator: { MALLOC_ARENA_MAX: '4' }, youngGeneration: REEXECUTES ? ['--max-semi-space-size=2'] : [] });
  }, 30_000);

  it("takes any malloc setting of the user's as their choice of allocator, and adds no arena limit to it", async () => {
    const threshold = await servedSettings({ MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(threshold.allocator).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072' });
    const tunable = await servedSettings({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' });
    expect(tunable.allocator).toEqual({});
  }, 60_000);

  it("keeps the user's own young generation, in NODE_OPTIONS, and adds none beside it", async () => {
    const served = await servedSettings({ NODE_OPTIONS: '--max-semi-space-size=8' });
    expect(served).toEqual({
      allocator: REEXECUTES ? { MALLOC_ARENA_MAX: '2' } : {},
      youngGeneration: ['--max-semi-space-size=8'],
    });
  }, 30_000);
});
