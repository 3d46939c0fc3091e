/**
 * Makes files written without a flush durable, together: one `syncfs(2)` of the file system that holds them (with
 * every other change made on it so far, folder entries included). Node has no binding for syncfs, so it goes through coreutils'
 * `sync -f`, run by a shell kept open for the purpose (starting `sync` from a small shell costs a millisecond, from
 * Node's large process several). Where that cannot be had (no shell, a `sync` without `-f`), each file and its folder
 * get an fsync of their own instead: slower, as safe.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { open } from 'node:fs/promises';
import { Socket } from 'node:net';
import { dirname } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** The shell's loop: one `sync -f` of the folder given as `$1` per line read, answering with its exit status. */
const SYNC_LOOP = 'while read -r _; do sync -f -- "$1" 2>/dev/null; echo $?; done';

type SyncShell = ChildProcessByStdio<Writable, Readable, null>;

export class DiskFlusher {
  readonly #folder: string;
  #shell: SyncShell | undefined;
  /** Set once syncfs proved unavailable: every later flush fsyncs file by file. */
  #fileByFile = false;
  /** Answers awaited from the shell, one per line sent, in order. */
  readonly #answers: Array<(status: number | undefined) => void> = [];
  #unread = '';

  /** `folder`: any folder on the file system the flushed files live on. */
  constructor(folder: string) {
    this.#folder = folder;
  }

  /** Resolves once the files at `paths` (and the names they have) are on disk; rejects with the file system's error. */
  async flush(paths: readonly string[]): Promise<void> {
    if (paths.length === 0) return;
    if (!this.#fileByFile && (await this.#syncFileSystem())) return;
    this.#fileByFile = true;
    await syncEach(paths);
  }

  /** Ends the kept shell. */
  close(): void {
    const shell = this.#shell;
    this.#shell = undefined;
    if (shell === undefined) return;
    shell.stdin.end();
    shell.kill();
  }

  /** One syncfs through the kept shell: true once done, false when this system cannot do it that way. */
  async #syncFileSystem(): Promise<boolean> {
    const shell = this.#shell ?? this.#startShell();
    if (shell === undefined) return false;
    const answer = new Promise<number | undefined>((resolve) => this.#answers.push(resolve));
    // Held while a flush is under way (a flush awaited is work the process must not exit under); let go between.
    holdProcess(shell, true);
    shell.stdin.write('\n');
    const status = await answer;
    if (this.#answers.length === 0) holdProcess(shell, false);
    if (status === 0) return true;
    // Not done: `sync -f` is missing or unknown here (GNU sync answers 1 for an unknown option and for a failed syncfs
    // alike). The files are then fsynced one by one, which reports a write error of their own if there is one.
    this.close();
    return false;
  }

  #startShell(): SyncShell | undefined {
    let shell: SyncShell;
    try {
      shell = spawn('sh', ['-c', SYNC_LOOP, 'sh', this.#folder], { stdio: ['pipe', 'pipe', 'ignore'] });
    } catch {
      return undefined;
    }
    shell.on('error', () => this.#shellGone(shell));
    shell.on('exit', () => this.#shellGone(shell));
    shell.stdin.on('error', () => this.#shellGone(shell));
    shell.stdout.setEncoding('utf8');
    shell.stdout.on('data', (text: string) => {
      this.#unread += text;
      for (let end = this.#unread.indexOf('\n'); end >= 0; end = this.#unread.indexOf('\n')) {
        const line = this.#unread.slice(0, end);
        this.#unread = this.#unread.slice(end + 1);
        this.#answers.shift()?.(Number.parseInt(line, 10));
      }
    });
    holdProcess(shell, false);
    this.#shell = shell;
    return shell;
  }

  /** The shell died or never started: whatever waits on it is answered "not done", and the next flush goes file by file. */
  #shellGone(shell: SyncShell): void {
    if (this.#shell === shell) this.#shell = undefined;
    this.#fileByFile = true;
    for (const answer of this.#answers.splice(0)) answer(undefined);
  }
}

/** Whether the kept shell keeps the process alive (only while a flush waits on it). */
function holdProcess(shell: SyncShell, hold: boolean): void {
  for (const handle of [shell.stdin, shell.stdout]) {
    if (handle instanceof Socket) {
      if (hold) handle.ref();
      else handle.unref();
    }
  }
  if (hold) shell.ref();
  else shell.unref();
}

/** fsync of each file, then of each folder holding one (its rename is in the folder). Files gone since are passed over. */
async function syncEach(paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((path) => syncPath(path)));
  await Promise.all([...new Set(paths.map((path) => dirname(path)))].map((folder) => syncPath(folder)));
}

async function syncPath(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
