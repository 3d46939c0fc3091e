import { spawnSync } from 'node:child_process';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEMP_MARKER, writeFileAtomic } from '../../src/common/atomic-file.js';
import { sweepOrphanTemporaries } from '../../src/store/temp-sweep.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(dir);
});

/** A pid that surely belongs to no running process: one that has just exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid ?? 999_999;
}

describe('sweepOrphanTemporaries', () => {
  it('removes what a dead writer on this host left, keeps live writers\' files and other files', async () => {
    const staging = join(dir, '_docmill', 'tmp');
    await mkdir(staging, { recursive: true });
    const dead = `${TEMP_MARKER}${hostname()}~${deadPid()}~abc~report.pdf.md`;
    const live = `${TEMP_MARKER}${hostname()}~${process.pid}~def~notes.md`;
    const otherHostFresh = `${TEMP_MARKER}elsewhere~12345~ghi~a.md`;
    const otherHostStale = `${TEMP_MARKER}elsewhere~12345~jkl~b.md`;
    for (const name of [dead, live, otherHostFresh, otherHostStale, 'unrelated.txt']) await writeFile(join(staging, name), 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await utimes(join(staging, otherHostStale), twoDaysAgo, twoDaysAgo);
    expect(await sweepOrphanTemporaries(staging)).toBe(2);
    expect((await readdir(staging)).sort()).toEqual([live, otherHostFresh, 'unrelated.txt'].sort());
  });

  it('a missing staging folder is nothing to sweep', async () => {
    expect(await sweepOrphanTemporaries(join(dir, 'absent'))).toBe(0);
  });

  it('atomic writes staged in another folder land whole and leave nothing behind', async () => {
    const staging = join(dir, 'staging');
    const target = join(dir, 'out', 'a', 'b.md');
    await writeFileAtomic(target, '# b\n', { tempDir: staging });
    expect(await readdir(join(dir, 'out', 'a'))).toEqual(['b.md']);
    expect(await readdir(staging)).toEqual([]);
  });
});
