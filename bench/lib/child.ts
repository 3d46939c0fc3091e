/** Child processes for benchmarks: bounded in time, output kept in files, wall time measured. */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  wallMs: number;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

export interface ChildOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** SIGTERM after this, SIGKILL 10 s later. */
  timeoutMs: number;
  stdoutPath: string;
  stderrPath: string;
  /** Called with the pid once the child has started (for /proc sampling). */
  onSpawn?: (pid: number) => void;
}

export async function runChild(command: string, args: string[], options: ChildOptions): Promise<ChildRun> {
  const out = createWriteStream(options.stdoutPath);
  const err = createWriteStream(options.stderrPath);
  const started = performance.now();
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) options.onSpawn?.(child.pid);
  child.stdout.pipe(out);
  child.stderr.pipe(err);
  let timedOut = false;
  let killTimer: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
    killTimer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  }, options.timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c, s) => resolve([c, s]));
  });
  const wallMs = performance.now() - started;
  clearTimeout(timer);
  if (killTimer) clearTimeout(killTimer);
  await Promise.all([new Promise((r) => out.end(r)), new Promise((r) => err.end(r))]);
  return {
    code,
    signal,
    wallMs,
    timedOut,
    stdout: await readFile(options.stdoutPath, 'utf8'),
    stderr: await readFile(options.stderrPath, 'utf8'),
  };
}

/** Shell-quotes an argument for display. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@,+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function commandLine(env: Record<string, string>, command: string, args: string[]): string {
  const prefix = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)} `).join('');
  return prefix + [command, ...args].map(shellQuote).join(' ');
}
