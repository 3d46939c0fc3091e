/**
 * Removes temporary files left by writers that died mid-write (SIGKILL, power loss). A file is an orphan when its
 * writer ran on this host and that process is gone, or when it is older than a day (a writer on another host
 * sharing the folder). Live writers' files are never touched.
 */
import { hostname } from 'node:os';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { TEMP_MARKER } from '../common/atomic-file.js';

const STALE_MS = 24 * 3600 * 1000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Returns how many orphans were removed. A missing folder has none. */
export async function sweepOrphanTemporaries(tempDir: string, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tempDir);
  } catch {
    return 0;
  }
  const host = hostname();
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(TEMP_MARKER)) continue;
    const [writerHost, pidText] = name.slice(TEMP_MARKER.length).split('~');
    const pid = Number(pidText);
    let orphan = writerHost === host && Number.isInteger(pid) && pid !== process.pid && !isAlive(pid);
    if (!orphan) {
      const stats = await stat(join(tempDir, name)).catch(() => undefined);
      orphan = stats !== undefined && now - stats.mtimeMs > STALE_MS;
    }
    if (orphan) {
      await rm(join(tempDir, name), { force: true });
      removed++;
    }
  }
  return removed;
}
