/**
 * Writes a file so that readers see either the old content or the whole new content, never a part:
 * the bytes go to a temporary file on the same file system, are flushed, then renamed over the target.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { open, rename, rm, mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Temporary files carry this marker, so a crash leftover is recognisable (and skipped by sources). */
export const TEMP_MARKER = '.docmill-tmp-';

export interface AtomicWriteOptions {
  /**
   * Where the temporary file goes (same file system as the target, or rename is not atomic). Default: the
   * target's folder. A store gives its own folder, so that a writer killed mid-write leaves its debris in one
   * place that is swept (see temp-sweep.ts), not scattered through the output tree.
   */
  tempDir?: string;
}

/** `<marker><host>~<pid>~<random>~<name>`: the sweep can tell whose a leftover was, and whether they are gone. */
export function temporaryName(target: string): string {
  return `${TEMP_MARKER}${hostname()}~${process.pid}~${randomBytes(6).toString('hex')}~${basename(target).slice(0, 64)}`;
}

export async function writeFileAtomic(path: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const directory = dirname(path);
  const tempDir = options.tempDir ?? directory;
  await mkdir(directory, { recursive: true });
  if (tempDir !== directory) await mkdir(tempDir, { recursive: true });
  const temporary = join(tempDir, temporaryName(path));
  const handle = await open(temporary, 'wx');
  try {
    await handle.writeFile(content);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
