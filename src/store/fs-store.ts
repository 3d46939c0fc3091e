/**
 * The output store for a local folder. Outputs are written atomically (writeFileAtomic: a temporary file in
 * `_docmill/tmp/`, then rename), so a reader or a crash never leaves half a file under a real name. Outputs are made
 * durable by group commit (group-commit.ts): their temporary files are flushed together with those of the documents
 * finishing about then, in one pass, and renamed into place after it;
 * a document's state and manifest line follow its outputs, so after a power loss neither names an output that is
 * not on disk, and no name holds bytes the loss took (docs/cli.md, "Outputs and the manifest"). Manifest lines are
 * appended with one O_APPEND write each (on a descriptor kept open), which the kernel places whole at the end of the
 * file: several worker processes can share one manifest without interleaving lines. Document states are lines of
 * the same kind, in `_docmill/records.jsonl` (record-log.ts); those of a store written before 2026-11-26 (a file a
 * state in `_docmill/state/`, one a content in `_docmill/index/`) are still read, and removed with their document.
 */
import { once } from 'node:events';
import { createReadStream, writeSync } from 'node:fs';
import { constants } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rm, rmdir, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { writeFileAtomic } from '../common/atomic-file.js';
import { DiskFlusher } from '../common/disk-flush.js';
import { InlineFileCalls } from '../common/inline-file-calls.js';
import { GroupCommit } from './group-commit.js';
import { KeyedOutputStore, liveState, type WriteKind } from './keyed-store.js';
import { sweepOrphanTemporaries } from './temp-sweep.js';
import { resolveInside } from './inside-root.js';
import { FAILURES_KEY, indexKey, keepsEmptyFolder, MANIFEST_KEY, META_DIR, parentFolder, RECORDS_KEY, shardedIndexKey, STATE_DIR, stateKey } from './layout.js';
import type { DocumentState, ManifestEntry } from './output-store.js';
import { RecordLog } from './record-log.js';
import { linesFromEnd } from './lines-from-end.js';
import { lookBack, manifestEntries, manifestLine, parseManifestLine } from './records.js';
import { InvalidLocationError, refusedWritesReason, StoreReadError, StoreWriteError } from './store-errors.js';

/** errno codes that mean "there is nothing at this path". */
const MISSING = new Set(['ENOENT', 'ENOTDIR']);
/**
 * The most of the manifest's end a look back for a recent entry reads (some 100,000 lines): an entry written minutes
 * ago lies far nearer the end, unless a fleet wrote that many lines since.
 */
const LOOK_BACK_BYTES = 32 * 1024 * 1024;
/** Tries of one atomic write whose folder a concurrent deletion pruned between its mkdir and its rename. */
const WRITE_TRIES = 3;
/**
 * The longest an output waits for the flush pass that makes it durable, and how many files waiting start one at
 * once (BENCHMARKS.md, section 15: passes closer together cost more than they save).
 */
const COMMIT_WINDOW_MS = 100;
const COMMIT_MAX_WAITING = 128;

export interface FsStoreOptions {
  /** Makes the files at these paths durable (default: one syncfs of the store's file system, common/disk-flush.ts). */
  flush?: (paths: readonly string[]) => Promise<void>;
  /** @default COMMIT_WINDOW_MS */
  commitWindowMs?: number;
  /** false: every file call through the thread pool, as on a network file system (default: inline-file-calls.ts). */
  inlineFileCalls?: false;
}

export class FsStore extends KeyedOutputStore {
  readonly location: string;
  /** Absolute path of the root folder. */
  readonly root: string;
  private metaDirReady: Promise<unknown> | undefined;
  /** Temporary files of atomic writes: one folder, swept of dead writers' leftovers. */
  readonly tempDir: string;
  #swept: Promise<unknown> | undefined;
  /**
   * Folders this store has made or found: each write's folder is made once, not on every write. A folder pruned
   * since (a removal in this process forgets it; one in another process is found by the write failing) is made again.
   */
  readonly #madeFolders = new Set<string>();
  /** The manifest's and the failures' append descriptors (see #appendHandle). */
  readonly #appendHandles = new Map<string, Promise<FileHandle>>();
  /** Outputs' and lines' writes, made inline on a local file system that answers fast (common/inline-file-calls.ts). */
  readonly #inlineCalls: InlineFileCalls;
  readonly #flusher: DiskFlusher;
  readonly #commit: GroupCommit;
  /** Document states and the content index (record-log.ts). */
  readonly #log: RecordLog;
  /** Whether the store holds records of the layout before 2026-11-26 (a file each): looked at once. */
  #former: Promise<boolean> | undefined;

  /** `root` is the folder (made absolute); `location` is what the user typed, when that was not the path itself. */
  constructor(root: string, location: string = root, options: FsStoreOptions = {}) {
    super();
    this.location = location;
    this.root = resolve(root);
    this.tempDir = join(this.root, '_docmill', 'tmp');
    // Its shell starts at the first flush, when outputs, and so the root, exist.
    this.#flusher = new DiskFlusher(this.root);
    const flush = options.flush ?? ((paths: readonly string[]) => this.#flusher.flush(paths));
    this.#commit = new GroupCommit({ flush, windowMs: options.commitWindowMs ?? COMMIT_WINDOW_MS, maxWaiting: COMMIT_MAX_WAITING });
    this.#log = new RecordLog({ path: resolveInside(this.root, RECORDS_KEY), key: RECORDS_KEY, append: (line) => this.appendLine(RECORDS_KEY, line) });
    // Looked at by the first call, a write that has made the root.
    this.#inlineCalls = new InlineFileCalls(() => (options.inlineFileCalls === false ? undefined : this.root));
  }

  /**
   * Makes the root folder when it is missing and checks that this process may write in it: InvalidLocationError,
   * saying why, before a command queues anything or starts the Redis it would keep there.
   */
  async checkWritable(): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true });
      await access(this.root, constants.W_OK | constants.X_OK);
    } catch (error) {
      throw new InvalidLocationError(this.location, `cannot write there: ${whyNotWritable(error)}`);
    }
  }

  /** Leftovers of writers killed mid-write are removed before this store's first write and when it closes. */
  #sweepOnce(): Promise<unknown> {
    this.#swept ??= sweepOrphanTemporaries(this.tempDir).catch(() => 0);
    return this.#swept;
  }


  async appendManifest(entry: ManifestEntry): Promise<void> {
    const line = manifestLine(entry);
    await this.appendLine(MANIFEST_KEY, line);
    if (entry.status === 'failed') await this.appendLine(FAILURES_KEY, line);
  }

  async recordedSince(relativePath: string, since: string): Promise<ManifestEntry | undefined> {
    const sinceMs = Date.parse(since);
    if (!Number.isFinite(sinceMs)) return undefined;
    let handle: FileHandle;
    try {
      handle = await open(resolveInside(this.root, MANIFEST_KEY), 'r');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw new StoreReadError(MANIFEST_KEY, error);
    }
    try {
      for await (const line of linesFromEnd(handle, LOOK_BACK_BYTES)) {
        const entry = parseManifestLine(line);
        if (entry === undefined) continue;
        const seen = lookBack(entry, relativePath, sinceMs);
        if (seen === 'match') return entry;
        if (seen === 'before') return undefined;
      }
      return undefined;
    } catch (error) {
      throw new StoreReadError(MANIFEST_KEY, error);
    } finally {
      await handle.close();
    }
  }

  async *readFailures(): AsyncGenerator<ManifestEntry> {
    const stream = createReadStream(resolveInside(this.root, FAILURES_KEY));
    try {
      await once(stream, 'open');
    } catch (error) {
      if (isMissing(error)) return;
      throw new StoreReadError(FAILURES_KEY, error);
    }
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    try {
      yield* manifestEntries(lines);
    } catch (error) {
      throw new StoreReadError(FAILURES_KEY, error);
    } finally {
      lines.close();
      stream.destroy();
    }
  }

  async close(): Promise<void> {
    // Outputs written and not yet flushed are flushed now; nothing else is buffered: every write has completed by the
    // time its promise resolves, only the line files' descriptors are held open. A worker that outlived a killed one
    // removes what that one left mid-write.
    await this.#commit.flush().catch(() => undefined);
    this.#flusher.close();
    const handles = [...this.#appendHandles.values()];
    this.#appendHandles.clear();
    await Promise.all(handles.map((handle) => handle.then((opened) => opened.close()).catch(() => undefined)));
    this.#log.close();
    await sweepOrphanTemporaries(this.tempDir).catch(() => 0);
  }

  commitWaiting(): void {
    this.#commit.passNow();
  }

  override async readState(relativePath: string): Promise<DocumentState | undefined> {
    return (await this.#log.state(relativePath)) ?? ((await this.#holdsFormer()) ? super.readState(relativePath) : undefined);
  }

  override async writeState(state: DocumentState): Promise<void> {
    await this.#log.write(liveState(state));
  }

  override async findByContent(sha256: string, optionsFingerprint: string): Promise<DocumentState | undefined> {
    const indexed = await this.#log.byContent(sha256, optionsFingerprint);
    if (indexed !== undefined) return indexed;
    return (await this.#holdsFormer()) ? super.findByContent(sha256, optionsFingerprint) : undefined;
  }

  override async *documentStates(skip?: (stateKey: string) => boolean): AsyncGenerator<DocumentState> {
    for await (const state of this.#log.states()) if (!skip?.(stateKey(state.relativePath))) yield state;
    if (!(await this.#holdsFormer())) return;
    // A former record of a path the log has a state for was replaced by it.
    for await (const state of super.documentStates(skip)) if ((await this.#log.state(state.relativePath)) === undefined) yield state;
  }

  protected override async forgetState(relativePath: string, state: DocumentState | undefined): Promise<void> {
    if (await this.#holdsFormer()) await super.forgetState(relativePath, state);
    if (state !== undefined) await this.#log.forget(state);
  }

  protected override async markRemoved(state: DocumentState): Promise<void> {
    await this.#log.write(state);
  }

  /** A store written before 2026-11-26 kept its content index in 256 folders (layout.ts shardedIndexKey)... */
  protected override indexKeyOf(sha256: string, optionsFingerprint: string): string {
    return shardedIndexKey(sha256, optionsFingerprint);
  }

  /** ...and before 2026-11-25 in a folder a content. */
  protected override async formerIndexKeyOf(sha256: string, optionsFingerprint: string): Promise<string | undefined> {
    return indexKey(sha256, optionsFingerprint);
  }

  /**
   * Whether `_docmill/state/` or `_docmill/index/` exists: records of an earlier version, read where the log has
   * none. Looked at once: a process of an earlier version writing to the same store meanwhile adds records this one
   * may not read (a document is then converted again, not skipped).
   */
  #holdsFormer(): Promise<boolean> {
    this.#former ??= Promise.all([STATE_DIR, `${META_DIR}/index/`].map((folder) => this.#exists(folder)))
      .then((found) => found.includes(true))
      .catch((error: unknown) => {
        this.#former = undefined; // looked at again next time
        throw error;
      });
    return this.#former;
  }

  async #exists(key: string): Promise<boolean> {
    try {
      await stat(resolveInside(this.root, key.replace(/\/+$/, '')));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw new StoreReadError(key, error);
    }
  }

  /** The bytes stored under `key`, or undefined when there is no such file. */
  protected async readKey(key: string): Promise<Buffer | undefined> {
    const path = resolveInside(this.root, key);
    try {
      return await readFile(path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw new StoreReadError(key, error);
    }
  }

  protected async writeKey(key: string, body: string | Uint8Array, kind: WriteKind = 'output', onWait?: () => void, after?: Promise<void>): Promise<void> {
    // Outputs are flushed by the group commit before their rename, a work file by itself (records go to the log).
    const beforeRename = kind === 'output' || after ? (temporary: string) => this.#beforeRename(temporary, kind, onWait, after) : undefined;
    await this.#writeFile(key, body, kind === 'work', beforeRename);
  }

  /** An atomic write of `key` (writeFileAtomic), made again when a concurrent deletion pruned its folder. */
  async #writeFile(key: string, body: string | Uint8Array, durable: boolean, beforeRename?: (temporary: string) => Promise<void>): Promise<void> {
    const path = resolveInside(this.root, key);
    try {
      await this.#sweepOnce();
      await this.#againIfPruned(
        path,
        () => writeFileAtomic(path, body, { tempDir: this.tempDir, durable, madeFolders: this.#madeFolders, inline: this.#inlineCalls, ...(beforeRename ? { beforeRename } : {}) }),
        this.tempDir,
      );
    } catch (error) {
      throw new StoreWriteError(key, error);
    }
  }

  /**
   * Runs `attempt`, a write whose rename lands in `path`'s folder, again when it found no folder: a deletion in the
   * same folder (another document's removal) may prune the folder the attempt just made, before its rename lands
   * there (ENOENT). The folders are made again, first, on the next try (`alsoMade`: another folder the attempt makes).
   */
  async #againIfPruned(path: string, attempt: () => Promise<void>, alsoMade?: string): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        await attempt();
        return;
      } catch (error) {
        if (tries >= WRITE_TRIES || !isMissing(error)) throw error;
        this.#madeFolders.delete(dirname(path));
        if (alsoMade !== undefined) this.#madeFolders.delete(alsoMade);
      }
    }
  }

  /**
   * An output waits for the group commit's next pass to flush its temporary file (`onWait` first:
   * OutputStore.writeDocument); then, or at once, for `after` (writeKey).
   */
  async #beforeRename(temporary: string, kind: WriteKind, onWait: (() => void) | undefined, after: Promise<void> | undefined): Promise<void> {
    if (kind === 'output') {
      // Waiting first, then said so: whoever hears it may start the pass (OutputStore.commitWaiting) with this file in it.
      const flushed = this.#commit.whenFlushed(temporary);
      onWait?.();
      await flushed;
    }
    await after;
  }

  /** Deletes the file, then the folders its deletion left empty (pruneEmptyFolders). */
  protected async deleteKey(key: string): Promise<void> {
    try {
      await rm(resolveInside(this.root, key), { force: true });
    } catch (error) {
      throw new StoreWriteError(key, error);
    }
    await this.#pruneEmptyFolders(parentFolder(key));
  }

  /**
   * Removes `folder` and then each folder above it while they are empty, stopping at the first that is not, and
   * before the root and the bookkeeping folders (layout.ts keepsEmptyFolder). rmdir removes only an empty folder, so
   * a file another writer has put there meanwhile stops the pruning; a writer whose folder went first makes it again.
   */
  async #pruneEmptyFolders(folder: string): Promise<void> {
    for (let current = folder; !keepsEmptyFolder(current); current = parentFolder(current)) {
      const path = resolveInside(this.root, current);
      // Forgotten before it goes: a write in flight here then makes it again rather than trusting it is there.
      this.#madeFolders.delete(path);
      try {
        await rmdir(path);
      } catch {
        return; // not empty, already gone, or not ours to remove: the folders above hold it, or something else
      }
    }
  }

  protected async *keysBelow(folder: string): AsyncGenerator<string> {
    const directory = resolveInside(this.root, folder.replace(/\/+$/, ''));
    let entries;
    try {
      entries = await readdir(directory, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw new StoreReadError(folder, error);
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      yield path.slice(this.root.length + 1).split('\\').join('/');
    }
  }

  /**
   * Appends one whole line with a single write on an O_APPEND descriptor. Writes to a local file system are not
   * split for lines of this size, and O_APPEND makes seek-to-end and write one step, so lines from concurrent
   * writers (in this or other processes) never interleave. A short write is reported rather than retried,
   * since finishing it later could land after another writer's line.
   */
  private async appendLine(key: string, line: string): Promise<void> {
    const bytes = Buffer.from(line, 'utf8');
    let handle: Promise<FileHandle> | undefined;
    try {
      handle = this.#appendHandle(key);
      const opened = await handle;
      const bytesWritten = await this.#inlineCalls.call(
        () => writeSync(openFd(opened), bytes, 0, bytes.length),
        async () => (await opened.write(bytes, 0, bytes.length)).bytesWritten,
      );
      if (bytesWritten !== bytes.length) {
        throw new Error(`short append: ${bytesWritten} of ${bytes.length} bytes`);
      }
    } catch (error) {
      // A failed write or open is not retried on the same descriptor: the next line opens the file afresh.
      if (handle !== undefined && this.#appendHandles.get(key) === handle) {
        this.#appendHandles.delete(key);
        handle.then((opened) => opened.close()).catch(() => undefined);
      }
      this.metaDirReady = undefined;
      throw new StoreWriteError(key, error);
    }
  }

  /**
   * The O_APPEND descriptor of a line file, opened on its first line and kept until the store closes: one write per
   * line instead of an open, a write and a close. Every write still goes to the end of the file as it is then.
   */
  #appendHandle(key: string): Promise<FileHandle> {
    let handle = this.#appendHandles.get(key);
    if (handle === undefined) {
      const path = resolveInside(this.root, key);
      this.metaDirReady ??= mkdir(resolveInside(this.root, META_DIR), { recursive: true });
      handle = this.metaDirReady.then(() => open(path, 'a'));
      this.#appendHandles.set(key, handle);
    }
    return handle;
  }
}

/**
 * The descriptor of an open FileHandle, for a call made on it inline. A handle being closed has none (-1), so an inline
 * write never reaches a descriptor number the system has since given to another file.
 */
function openFd(handle: FileHandle): number {
  if (handle.fd < 0) throw Object.assign(new Error('the file was closed'), { code: 'EBADF' });
  return handle.fd;
}

function isMissing(error: unknown): boolean {
  return MISSING.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** A file system error as a reason a user reads. */
function whyNotWritable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'a file, not a folder, is in the way';
  return refusedWritesReason(error) ?? (error instanceof Error ? error.message : String(error));
}
