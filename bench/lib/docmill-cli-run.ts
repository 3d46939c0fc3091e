/** `node <root>/bin/docmill.js <args>` as a benchmark runs it: on the embedded engine, timed, its peak RSS sampled. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { peakRssKb, reapedChildrenCpuMs } from './process-memory.js';

export interface DocmillCliRun {
  code: number | null;
  wallMs: number;
  /** VmHWM of the docmill process (its engine threads included). */
  peakRssKb: number | undefined;
  /** CPU time (user + system) of the process and what it waited for, in ms; undefined without /proc. */
  cpuMs: number | undefined;
  /** The summary line (`docmill: N converted…`), or the last lines of stderr when there is none. */
  summary: string;
}

/** The variables that would send the run to a remote API or a shared Redis: the benchmark measures the embedded ones. */
const REMOTE_SETTINGS = ['DOCMILL_API_URL', 'FIRECRAWL_API_URL', 'DOCMILL_API_KEY', 'FIRECRAWL_API_KEY', 'REDIS_URL'];

export async function runDocmillCli(root: string, args: string[]): Promise<DocmillCliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of REMOTE_SETTINGS) delete env[key];
  const cpuBefore = reapedChildrenCpuMs();
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'bin/docmill.js'), ...args], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let peak: number | undefined;
  // VmHWM only grows: its last reading before the process ends is its peak (to within one interval).
  const sampler = setInterval(() => {
    const kb = child.pid === undefined ? undefined : peakRssKb(child.pid);
    if (kb !== undefined) peak = kb;
  }, 100);
  const code = await new Promise<number | null>((resolveExit) => child.once('close', (c) => resolveExit(c)));
  clearInterval(sampler);
  const wallMs = performance.now() - started;
  const cpuAfter = reapedChildrenCpuMs();
  const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  const summary = stderr.split('\n').find((line) => line.startsWith('docmill: ')) ?? stderr.trim().split('\n').slice(-3).join(' / ');
  return { code, wallMs, peakRssKb: peak, cpuMs, summary };
}
