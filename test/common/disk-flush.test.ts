/**
 * Flushing files written without a flush of their own: one syncfs through a kept shell where `sync -f` exists, each
 * file and its folder fsynced where it does not; a file gone since is passed over; and the kept shell never keeps a
 * finished process alive.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiskFlusher } from '../../src/common/disk-flush.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

let dir: string;

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await removeTempDir(dir);
});

describe('DiskFlusher', () => {
  it('flushes files, again and again through the same shell', async () => {
    const flusher = new DiskFlusher(dir);
    try {
      for (let round = 0; round < 3; round++) {
        const paths = [join(dir, `a${round}.md`), join(dir, `b${round}.md`)];
        await Promise.all(paths.map((path) => writeFile(path, 'text')));
        await flusher.flush(paths);
      }
    } finally {
      flusher.close();
    }
  });

  it('fsyncs file by file where the file system cannot be synced whole, passing over files gone since', async () => {
    // `sync -f` fails on a folder that does not exist: the flusher falls back to one fsync a file.
    const flusher = new DiskFlusher(join(dir, 'no-such-folder'));
    try {
      await writeFile(join(dir, 'a.md'), 'text');
      await flusher.flush([join(dir, 'a.md'), join(dir, 'gone.md')]);
      await flusher.flush([join(dir, 'a.md')]);
    } finally {
      flusher.close();
    }
  });

  it('lets a process that flushed and forgot to close the flusher exit', () => {
    const module = pathToFileURL(join(import.meta.dirname, '../../src/common/disk-flush.ts')).href;
    const script = `
      import { writeFileSync } from 'node:fs';
      const { DiskFlusher } = await import(${JSON.stringify(module)});
      const file = ${JSON.stringify(join(dir, 'c.md'))};
      writeFileSync(file, 'text');
      await new DiskFlusher(${JSON.stringify(dir)}).flush([file]);
      console.log('flushed');
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(child.stdout.trim(), child.stderr).toBe('flushed');
    expect(child.status).toBe(0);
  });
});
