/**
 * The embedded server's launch without setpriv (macOS, minimal images): the shell watchdog kills redis-server when
 * the pipe from docmill closes, as it does when docmill dies, and exits with the server when the server dies.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchCommand, pings } from '../../src/queue/redis-supervisor.js';
import { waitFor } from '../helpers/docmill-cli.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

let dir: string;

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await removeTempDir(dir);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function startWatched(): Promise<{ child: ReturnType<typeof spawn>; pid: number }> {
  const socket = join(dir, 'redis.sock');
  const pidFile = join(dir, 'redis.pid');
  const args = ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--pidfile', pidFile, '--dir', dir];
  const [command, argv] = launchCommand(args, false);
  const child = spawn(command, argv, { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  await waitFor('redis-server to answer', () => pings(socket), { timeoutMs: 10_000 });
  const pid = Number((await readFile(pidFile, 'utf8')).trim());
  return { child, pid };
}

describe('the redis-server watchdog (no setpriv)', () => {
  it('kills the server when the pipe from its owner closes', async () => {
    const { child, pid } = await startWatched();
    expect(isAlive(pid)).toBe(true);
    child.stdin?.end();
    await waitFor('the server to be gone', () => !isAlive(pid), { timeoutMs: 5000 });
  });

  it('exits when the server dies, so the owner can restart it', async () => {
    const { child, pid } = await startWatched();
    const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
    process.kill(pid, 'SIGKILL');
    expect(await exited).toBe(137);
    child.stdin?.end();
  });
});
