/**
 * The parent's side of a benchmark child that answers line by line (bench/lib/pdf-bench-child.ts): start it and
 * wait for `ready`, ask for timed rounds one at a time, then end it and read its report. Its stderr goes to a file.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';

export class EngineChild {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: AsyncIterator<string>;
  readonly #stderrPath: string;
  readonly #timeoutMs: number;

  private constructor(child: ChildProcessWithoutNullStreams, stderrPath: string, timeoutMs: number) {
    this.#child = child;
    this.#stderrPath = stderrPath;
    this.#timeoutMs = timeoutMs;
    this.#lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }

  /** Starts `command args` and resolves once it has said `ready`. */
  static async start(command: string, args: string[], options: { cwd: string; stderrPath: string; timeoutMs: number }): Promise<EngineChild> {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.pipe(createWriteStream(options.stderrPath));
    const handle = new EngineChild(child, options.stderrPath, options.timeoutMs);
    const line = await handle.#next();
    if (line !== 'ready') throw new Error(`the child said "${line}" instead of ready`);
    return handle;
  }

  /** One timed pass over every document; its wall time in ms as the child measured it. */
  async round(): Promise<number> {
    return (await this.timedRound()).ms;
  }

  /** One timed pass over every document: its wall time and, where the child measures it, its CPU time (ms). */
  async timedRound(): Promise<{ ms: number; cpuMs?: number | undefined }> {
    this.#child.stdin.write('go\n');
    return JSON.parse(await this.#next()) as { ms: number; cpuMs?: number };
  }

  /** Ends the child and returns its report (the last line it prints). */
  async finish<T>(): Promise<T> {
    const exited = new Promise<void>((resolve) => this.#child.once('close', () => resolve()));
    this.#child.stdin.end('end\n');
    const report = JSON.parse(await this.#next()) as T;
    await exited;
    return report;
  }

  kill(): void {
    this.#child.kill('SIGKILL');
  }

  async #next(): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from the child within ${this.#timeoutMs / 1000} s`)), this.#timeoutMs);
    });
    try {
      const { value, done } = await Promise.race([this.#lines.next(), timeout]);
      if (done) {
        const stderr = await readFile(this.#stderrPath, 'utf8').catch(() => '');
        throw new Error(`the child exited (${this.#child.exitCode ?? this.#child.signalCode}): ${stderr.trim().slice(-800)}`);
      }
      return String(value);
    } finally {
      clearTimeout(timer);
    }
  }
}
