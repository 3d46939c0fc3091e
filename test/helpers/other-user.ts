/**
 * Running a child process as another user, for permission tests that must hold when the tests run as root (who
 * reads everything): as root, children run as `nobody` (uid/gid 65534); as anyone else, as that user.
 */
import { spawn } from 'node:child_process';
import { chmod, chown, copyFile, link, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export const NOBODY = 65534;
export const RUNNING_AS_ROOT = process.getuid?.() === 0;

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  spawnError?: Error;
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run as `nobody` (only possible as root). */
  asNobody: boolean;
  /** SIGKILL after this long; the result then has signal SIGKILL. */
  timeoutMs?: number;
}

export function runProcess(command: string, args: string[], options: RunOptions): Promise<ChildResult> {
  const child = spawn(command, args, {
    env: options.env,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.asNobody ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  return new Promise((resolve) => {
    child.once('error', (spawnError) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stdout, stderr, spawnError });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * A Node binary `nobody` may run: this one, unless it sits below a folder closed to other users (a Node kept in
 * root's home, say); then a hard link (or a copy) of it in `dir`, which must be open to other users.
 */
export async function nodeForNobody(dir: string): Promise<string> {
  const probe = await runProcess(process.execPath, ['-e', ''], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, cwd: dir, asNobody: true });
  if (probe.code === 0) return process.execPath;
  const local = join(dir, 'node');
  await link(process.execPath, local).catch(() => copyFile(process.execPath, local));
  await chmod(local, 0o755);
  return local;
}

/** Gives a folder and everything below it to `nobody` (as root), so a child running as it may write there. */
export async function giveToNobody(path: string): Promise<void> {
  if (!RUNNING_AS_ROOT) return;
  await chown(path, NOBODY, NOBODY);
  for (const entry of await readdir(path, { recursive: true, withFileTypes: true })) {
    await chown(join(entry.parentPath, entry.name), NOBODY, NOBODY);
  }
}
