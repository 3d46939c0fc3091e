/**
 * Group commit for the local store's outputs: the files written at about the same time (a document's `.md` and
 * `.json`, and those of the other documents finishing beside it) are flushed to disk by one call, not one fsync each.
 *
 * Every temporary file of the store lives in one folder, so one `syncfs` of that folder's file system flushes them
 * all. Node has no binding for syncfs; `sync -f <folder>` (coreutils, busybox) makes that call, run by one shell kept
 * for the store's life, so a flush costs a small fork of the shell rather than a fork of this process. Where that is
 * not available (not Linux, no `sync -f`, the shell gone), each file is flushed with fdatasync as before: the
 * guarantee is the same, only the count of calls differs.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { open } from 'node:fs/promises';
import { createInterface, type Interface } from 'node:readline';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';

/** fdatasync of one file through a descriptor of its own (a closed file's dirty pages are the inode's, not the fd's). */
async function flushFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

interface Round {
  paths: string[];
  done: Promise<void>;
  settle: (error?: unknown) => void;
}

/** The shell loop: one line in (a folder), one line out (`ok` once its file system is flushed, else `fail`). */
const SYNC_LOOP = 'while IFS= read -r folder; do if sync -f "$folder" 2>/dev/null; then echo ok; else echo fail; fi; done';

/** Calls made to the operating system so far: the store's count of what its durability costs. */
export interface FlushCounts {
  /** syncfs calls, each flushing every file of a round. */
  fileSystem: number;
  /** fdatasync calls, one file each. */
  files: number;
}

export class GroupFlush {
  readonly counts: FlushCounts = { fileSystem: 0, files: 0 };
  readonly #folder: string;
  /** The round collecting files now; it starts once the round in flight (if any) is done. */
  #next: Round | undefined;
  /** The round in flight, if any. */
  #current: Promise<void> | undefined;
  #syncer: Syncer | undefined;
  /** Set once `sync -f` is found missing or failing: every later round flushes file by file. */
  #perFile: boolean;

  /** `folder`: where every temporary file this barrier flushes lives. */
  constructor(folder: string, options: { perFile?: boolean } = {}) {
    this.#folder = folder;
    // A folder name with a line break cannot be handed to the shell loop line by line.
    this.#perFile = (options.perFile ?? process.platform !== 'linux') || folder.includes('\n');
  }

  flush(temporaryPath: string): Promise<void> {
    const round = (this.#next ??= newRound());
    round.paths.push(temporaryPath);
    // Started on the next turn of the event loop, so the writes that finish together (a document's outputs written in
    // parallel, other documents' at the same moment) join one flush.
    if (this.#current === undefined) setImmediate(() => this.#runNext());
    return round.done;
  }

  /** Waits for the flushes asked for so far, then stops the shell. */
  async close(): Promise<void> {
    while (this.#current !== undefined || this.#next !== undefined) {
      await (this.#current ?? this.#next?.done)?.catch(() => undefined);
    }
    this.#syncer?.stop();
    this.#syncer = undefined;
  }

  #runNext(): void {
    if (this.#current !== undefined || this.#next === undefined) return;
    const round = this.#next;
    this.#next = undefined;
    this.#current = this.#flushRound(round.paths).then(
      () => round.settle(),
      (error: unknown) => round.settle(error),
    ).finally(() => {
      this.#current = undefined;
      if (this.#next !== undefined) this.#runNext();
    });
  }

  async #flushRound(paths: readonly string[]): Promise<void> {
    // One file: its own fdatasync is cheaper than a flush of the whole file system.
    if (!this.#perFile && paths.length > 1 && (await this.#syncFileSystem())) {
      this.counts.fileSystem += 1;
      return;
    }
    this.counts.files += paths.length;
    await Promise.all(paths.map(flushFile));
  }

  /** True once the folder's file system is flushed; false (and per-file from now on) when that cannot be done. */
  async #syncFileSystem(): Promise<boolean> {
    try {
      this.#syncer ??= new Syncer();
      if (await this.#syncer.sync(this.#folder)) return true;
    } catch {
      // the shell could not start or died: flushed file by file below
    }
    this.#perFile = true;
    this.#syncer?.stop();
    this.#syncer = undefined;
    return false;
  }
}

function newRound(): Round {
  let settle!: (error?: unknown) => void;
  const done = new Promise<void>((resolveRound, rejectRound) => {
    settle = (error) => (error === undefined ? resolveRound() : rejectRound(error));
  });
  // A round nobody awaits any more (its writers failed otherwise) must not end the process as an unhandled rejection.
  done.catch(() => undefined);
  return { paths: [], done, settle };
}

/** The kept shell: one request at a time (rounds never overlap), answered in order. */
class Syncer {
  readonly #child: ChildProcessByStdio<Writable, Readable, null>;
  readonly #lines: Interface;
  #waiting: ((line: string | undefined) => void) | undefined;
  #ended = false;

  constructor() {
    this.#child = spawn('sh', ['-c', SYNC_LOOP], { stdio: ['pipe', 'pipe', 'ignore'] });
    // The shell must not keep the process alive, nor its failure end it.
    this.#child.unref();
    this.#child.on('error', () => this.#end());
    this.#child.on('exit', () => this.#end());
    this.#child.stdin.on('error', () => this.#end());
    (this.#child.stdout as unknown as Socket).unref();
    (this.#child.stdin as unknown as Socket).unref();
    this.#lines = createInterface({ input: this.#child.stdout });
    this.#lines.on('line', (line) => {
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting?.(line);
    });
  }

  sync(folder: string): Promise<boolean> {
    if (this.#ended) return Promise.resolve(false);
    return new Promise<boolean>((resolveSync) => {
      this.#waiting = (line) => resolveSync(line === 'ok');
      this.#child.stdin.write(`${folder}\n`);
    });
  }

  stop(): void {
    this.#ended = true;
    this.#lines.close();
    this.#child.stdin.end();
    this.#child.kill();
  }

  #end(): void {
    this.#ended = true;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(undefined);
  }
}
