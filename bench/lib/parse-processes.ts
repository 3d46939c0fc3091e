/**
 * N warmed-up docmill processes (bench/lib/parse-files-child.ts) that parse their share of a file list together
 * on command: the control for the engine thread pool in bench/pdf-extraction.ts.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CHILD = resolve(REPO, 'bench/lib/parse-files-child.ts');

interface Member {
  child: ChildProcessWithoutNullStreams;
  lines: Interface;
  next: () => Promise<string>;
}

function member(nodeArgs: string[], files: string[], warm: number): Member {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', CHILD, `--warm=${warm}`, ...files], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const lines = createInterface({ input: child.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await iterator.next();
    if (done) throw new Error(`parse child exited (${child.exitCode ?? child.signalCode}): ${stderr.trim()}`);
    return String(value);
  };
  return { child, lines, next };
}

export class ParseProcesses {
  private constructor(private readonly members: Member[]) {}

  /**
   * Starts `count` processes, file i going to process i mod count, and waits until each has warmed up by
   * parsing its share `warm` times (so each process has compiled as many documents as a pool thread has).
   */
  static async start(files: string[], count: number, nodeArgs: string[], warm: number): Promise<ParseProcesses> {
    const shares = Array.from({ length: count }, (_, i) => files.filter((_, j) => j % count === i));
    const members = shares.map((share) => member(nodeArgs, share, warm));
    for (const m of members) {
      const line = await m.next();
      if (line !== 'ready') throw new Error(`parse child said "${line}" instead of ready`);
    }
    return new ParseProcesses(members);
  }

  /** Every process parses its share once, all at the same time; wall clock from the go to the last reply. */
  async run(): Promise<{ wallMs: number; cpuMs: number }> {
    const started = performance.now();
    for (const m of this.members) m.child.stdin.write('go\n');
    const replies = await Promise.all(this.members.map((m) => m.next()));
    const wallMs = performance.now() - started;
    const cpuMs = replies.map((line) => (JSON.parse(line) as { cpuMs: number }).cpuMs).reduce((a, b) => a + b, 0);
    return { wallMs, cpuMs };
  }

  async close(): Promise<void> {
    await Promise.all(
      this.members.map(
        (m) =>
          new Promise<void>((done) => {
            m.child.once('close', () => done());
            m.child.stdin.end();
          }),
      ),
    );
  }
}
