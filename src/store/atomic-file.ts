/**
 * Writes a file so that readers see either the old content or the whole new content, never a part:
 * the bytes go to a temporary name in the same directory, are flushed, then renamed over the target.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm, mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Temporary files carry this marker, so a crash leftover is recognisable (and skipped by sources). */
export const TEMP_MARKER = '.docmill-tmp-';

export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  const directory = dirname(path);
  await mkdir(directory, { recursive: true });
  const temporary = join(directory, `${TEMP_MARKER}${basename(path).slice(0, 64)}.${randomBytes(6).toString('hex')}`);
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
