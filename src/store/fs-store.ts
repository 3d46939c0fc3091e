/**
 * The output store for a local folder. Outputs, state and index records are written atomically
 * (writeFileAtomic: a temporary file in `_docmill/tmp/`, then rename), so a reader or a crash never leaves half a
 * file under a real name. Manifest lines are appended with one O_APPEND write each, which the kernel places
 * whole at the end of the file: several worker processes can share one manifest without interleaving lines.
 */
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { writeFileAtomic } from '../common/atomic-file.js';
import { KeyedOutputStore } from './keyed-store.js';
import { sweepOrphanTemporaries } from './temp-sweep.js';
import { resolveInside } from './inside-root.js';
import { FAILURES_KEY, MANIFEST_KEY, META_DIR } from './layout.js';
import type { ManifestEntry } from './output-store.js';
import { manifestEntries, manifestLine } from './records.js';
import { StoreReadError, StoreWriteError } from './store-errors.js';

/** errno codes that mean "there is nothing at this path". */
const MISSING = new Set(['ENOENT', 'ENOTDIR']);

export class FsStore extends KeyedOutputStore {
  readonly location: string;
  /** Absolute path of the root folder. */
  readonly root: string;
  private metaDirReady: Promise<unknown> | undefined;
  /** Temporary files of atomic writes: one folder, swept of dead writers' leftovers. */
  readonly tempDir: string;
  #swept: Promise<unknown> | undefined;

  /** `root` is the folder (made absolute); `location` is what the user typed, when that was not the path itself. */
  constructor(root: string, location: string = root) {
    super();
    this.location = location;
    this.root = resolve(root);
    this.tempDir = join(this.root, '_docmill', 'tmp');
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
    // Nothing is buffered or held open: every write has completed by the time its promise resolves. A worker that
    // outlived a killed one removes what that one left mid-write.
    await sweepOrphanTemporaries(this.tempDir).catch(() => 0);
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

  protected async writeKey(key: string, body: string | Uint8Array): Promise<void> {
    const path = resolveInside(this.root, key);
    try {
      await this.#sweepOnce();
      await writeFileAtomic(path, body, { tempDir: this.tempDir });
    } catch (error) {
      throw new StoreWriteError(key, error);
    }
  }

  protected async deleteKey(key: string): Promise<void> {
    try {
      await rm(resolveInside(this.root, key), { force: true });
    } catch (error) {
      throw new StoreWriteError(key, error);
    }
  }

  /**
   * Appends one whole line with a single write on an O_APPEND descriptor. Writes to a local file system are not
   * split for lines of this size, and O_APPEND makes seek-to-end and write one step, so lines from concurrent
   * writers (in this or other processes) never interleave. A short write is reported rather than retried,
   * since finishing it later could land after another writer's line.
   */
  private async appendLine(key: string, line: string): Promise<void> {
    const path = resolveInside(this.root, key);
    const bytes = Buffer.from(line, 'utf8');
    try {
      this.metaDirReady ??= mkdir(resolveInside(this.root, META_DIR), { recursive: true });
      await this.metaDirReady;
      const handle = await open(path, 'a');
      try {
        const { bytesWritten } = await handle.write(bytes, 0, bytes.length);
        if (bytesWritten !== bytes.length) {
          throw new Error(`short append: ${bytesWritten} of ${bytes.length} bytes`);
        }
      } finally {
        await handle.close();
      }
    } catch (error) {
      this.metaDirReady = undefined;
      throw new StoreWriteError(key, error);
    }
  }
}

function isMissing(error: unknown): boolean {
  return MISSING.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}
