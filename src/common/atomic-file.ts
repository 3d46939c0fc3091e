/**
 * Writes a file so that readers see either the old content or the whole new content, never a part:
 * the bytes go to a temporary file on the same file system, are flushed, then renamed over the target.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm, mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { InlineFileCalls } from './inline-file-calls.js';

/** Temporary files carry this marker, so a crash leftover is recognisable (and skipped by sources). */
export const TEMP_MARKER = '.docmill-tmp-';

export interface AtomicWriteOptions {
  /**
   * Where the temporary file goes (same file system as the target, or rename is not atomic). Default: the
   * target's folder. A store gives its own folder, so that a writer killed mid-write leaves its debris in one
   * place that is swept (see temp-sweep.ts), not scattered through the output tree.
   */
  tempDir?: string;
  /**
   * Flush the bytes to disk before the rename (default). Without it a kill still never leaves half a file (the
   * rename is atomic, the page cache survives the process), but a power loss may leave the new name empty or torn:
   * only for what a reader can do without, or what its caller flushes itself (`beforeRename`).
   */
  durable?: boolean;
  /**
   * Awaited between the write and the rename, the temporary file closed (not with `durable`): a store's group commit
   * (store/group-commit.ts) flushes it there with the files of other writers, so the name never holds bytes a power
   * loss could take. A rejection removes the temporary file and fails the write.
   */
  beforeRename?: (temporaryPath: string) => Promise<void>;
  /**
   * Folders known to exist: made once, not again on every write. The caller forgets a folder when a write fails on
   * a missing one (a deletion pruned it), so the next try makes it again.
   */
  madeFolders?: Set<string>;
  /**
   * The calls made inline where these decide (common/inline-file-calls.ts): the writing and the rename of content up
   * to INLINE_WRITE_MAX, unless `durable` (a flush can take long on any disk).
   */
  inline?: InlineFileCalls;
}

/** The most content (bytes, or characters of a string) written inline. */
const INLINE_WRITE_MAX = 64 * 1024;

/** The host's name does not change while the process runs; asked once, not on every write. */
let hostName: string | undefined;
/**
 * This process's random tag, drawn once, then a counter: as unique as a draw per file (a restarted container has
 * the same host name and often the same pid, never the same tag), for a fraction of its cost on every write.
 */
let processTag: string | undefined;
let written = 0;

/** `<marker><host>~<pid>~<tag>-<n>~<name>`: the sweep can tell whose a leftover was, and whether they are gone. */
export function temporaryName(target: string): string {
  hostName ??= hostname();
  processTag ??= randomBytes(6).toString('hex');
  return `${TEMP_MARKER}${hostName}~${process.pid}~${processTag}-${(written++).toString(36)}~${basename(target).slice(0, 64)}`;
}

export async function writeFileAtomic(path: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const directory = dirname(path);
  const tempDir = options.tempDir ?? directory;
  await makeFolder(directory, options.madeFolders);
  if (tempDir !== directory) await makeFolder(tempDir, options.madeFolders);
  const temporary = join(tempDir, temporaryName(path));
  const durable = options.durable ?? true;
  const calls = !durable && content.length <= INLINE_WRITE_MAX ? options.inline : undefined;
  await (calls ? calls.call(() => writeInline(temporary, content), () => writeTemporary(temporary, content, false)) : writeTemporary(temporary, content, durable));
  try {
    await options.beforeRename?.(temporary);
    await (calls ? calls.call(() => renameSync(temporary, path), () => rename(temporary, path)) : rename(temporary, path));
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Writes the new temporary file through the thread pool, flushed when `durable`; removed again when it fails. */
async function writeTemporary(temporary: string, content: string | Uint8Array, durable: boolean): Promise<void> {
  const handle = await open(temporary, 'wx');
  try {
    await handle.writeFile(content);
    if (durable) await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
}

/** writeTemporary's open, write and close, inline (not flushed); removed again when the write fails (a full disk). */
function writeInline(temporary: string, content: string | Uint8Array): void {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const fd = openSync(temporary, 'wx');
  try {
    for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at, bytes.byteLength - at);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
}

/** Makes `folder` (and its parents) unless `made` holds it, then notes it there. */
export async function makeFolder(folder: string, made: Set<string> | undefined): Promise<void> {
  if (made?.has(folder)) return;
  await mkdir(folder, { recursive: true });
  made?.add(folder);
}
