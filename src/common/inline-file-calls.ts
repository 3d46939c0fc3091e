/**
 * Small file-system calls made inline, synchronously on the calling thread, on a local file system that answers them
 * fast.
 *
 * A call of fs/promises is a round trip through libuv's thread pool: the request is queued and a pool thread woken,
 * the answer is posted back and the event loop woken in turn, and on a busy machine each wake-up is a context switch.
 * A small document costs a dozen such calls (reading it, writing its two outputs, its records), where on a local disk
 * each call takes microseconds: the trip costs more than the call. Made inline, `docmill run` over 1,000 small HTML
 * pages and over the PDF benchmark's pages took about a tenth less CPU, with half the context switches (BENCHMARKS.md
 * §15).
 *
 * An inline call holds the thread until it returns, though. On a network file system (NFS, EFS, SMB, a FUSE mount of
 * a bucket) a call waits for a server, and the lock renewals, uploads and progress of every other document would wait
 * with it, where the pool overlaps them. So calls are made inline only on Linux, on a file system of a kind that
 * lives on the machine (its statfs type), and they are timed: once a window of calls took more than SLOW_MEAN_MS each
 * on average (a cold spinning disk), or one call more than SLOW_CALL_MS (a disk waking up), the calls go through the
 * pool from then on. The times are wall time, which a loaded machine stretches (a call preempted counts whole: on 2
 * busy cores, windows of local calls averaged up to 1.4 ms), hence thresholds well above a local call's own time.
 */
import { statfsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** Calls timed together. */
const WINDOW = 32;
/** A window whose calls took more than this each on average (ms) is slow. */
const SLOW_MEAN_MS = 3;
/** A single call this long (ms) is enough. */
const SLOW_CALL_MS = 50;

/** statfs(2) `f_type` of the Linux file systems that live on the machine: ext2/3/4, XFS, Btrfs, tmpfs, overlayfs, ZFS, F2FS. */
const LOCAL_FILE_SYSTEMS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0x2fc12fc1, 0xf2f52010]);

/** Whether `path` (an existing file or folder) is on a local file system of a kind in LOCAL_FILE_SYSTEMS. */
export function onLocalFileSystem(path: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return LOCAL_FILE_SYSTEMS.has(statfsSync(path).type);
  } catch {
    return false;
  }
}

export class InlineFileCalls {
  /** Undefined until the first call looks at the file system. */
  #inline: boolean | undefined;
  readonly #place: () => string | undefined;
  #calls = 0;
  #spentMs = 0;

  /**
   * `place`: a path on the file system the calls go to, existing by the first call (looked at then, once); undefined
   * for calls always through the pool.
   */
  constructor(place: () => string | undefined) {
    this.#place = place;
  }

  /** Whether calls are made inline (looked at on the first call: false before it). */
  get inline(): boolean {
    return this.#inline === true;
  }

  /**
   * `inline()` timed while calls are made inline, else `pooled()`. The caller awaits the answer either way; a call
   * made inline has returned (or thrown) before this does.
   */
  call<T>(inline: () => T, pooled: () => Promise<T>): T | Promise<T> {
    if (this.#inline === undefined) {
      const place = this.#place();
      this.#inline = place !== undefined && onLocalFileSystem(place);
    }
    if (!this.#inline) return pooled();
    const started = performance.now();
    try {
      return inline();
    } finally {
      this.#spent(performance.now() - started);
    }
  }

  #spent(ms: number): void {
    if (ms > SLOW_CALL_MS) this.#inline = false;
    this.#calls++;
    this.#spentMs += ms;
    if (this.#calls < WINDOW) return;
    if (this.#spentMs / this.#calls > SLOW_MEAN_MS) this.#inline = false;
    this.#calls = 0;
    this.#spentMs = 0;
  }
}
