/** Runs the oracle client (oracle-child.ts) in its own process and reads back its result line. */
import { join } from 'node:path';
import { runChild } from './child.js';
import type { OracleResult } from './oracle-child.js';

export interface OracleRun {
  result: OracleResult;
  wallMs: number;
  timedOut: boolean;
  exit: string;
}

export async function runOracle(options: {
  repo: string;
  url: string;
  dir: string;
  slots: number;
  files: number;
  timeoutMs: number;
  logs: string;
  tag: string;
}): Promise<OracleRun> {
  const { repo, url, dir, slots, files, timeoutMs, logs, tag } = options;
  const run = await runChild(process.execPath, ['--import', 'tsx', join(repo, 'bench/lib/oracle-child.ts'), '--url', url, '--dir', dir, '--slots', String(slots)], {
    cwd: repo,
    timeoutMs,
    stdoutPath: join(logs, `${tag}.stdout`),
    stderrPath: join(logs, `${tag}.stderr`),
  });
  // A child that printed no result lost everything.
  let result: OracleResult = { converted: 0, failed: files, failureCodes: { 'no result': files }, attempts: 0 };
  try {
    result = JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as OracleResult;
  } catch {
    // keep the "no result" default
  }
  return { result, wallMs: run.wallMs, timedOut: run.timedOut, exit: run.timedOut ? 'timeout' : String(run.code ?? run.signal) };
}
