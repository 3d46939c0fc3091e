/**
 * When small file calls are made inline (synchronously) and when they go through libuv's thread pool: only on a
 * local file system, and no longer once calls turn slow. A slow call is simulated by a synchronous wait.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEMP_MARKER, writeFileAtomic } from '../../src/common/atomic-file.js';
import { InlineFileCalls, onLocalFileSystem } from '../../src/common/inline-file-calls.js';
import { readSmallLocalFile } from '../../src/sources/local-file.js';
import type { SourceFile } from '../../src/sources/source.js';
import { makeTempDir, rejectionOf, removeTempDir } from '../helpers/temp-files.js';

let dir: string;

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await removeTempDir(dir);
});

function waitSync(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Which way each of `n` calls went. */
async function ways(calls: InlineFileCalls, n: number, inlineWork: () => void = () => undefined): Promise<string[]> {
  const taken: string[] = [];
  for (let i = 0; i < n; i++) {
    await calls.call(
      () => {
        inlineWork();
        taken.push('inline');
      },
      async () => {
        taken.push('pooled');
      },
    );
  }
  return taken;
}

describe.runIf(process.platform === 'linux' && onLocalFileSystem(process.cwd()))('InlineFileCalls on a local file system', () => {
  it('makes calls inline, and through the pool when told no place', async () => {
    expect(await ways(new InlineFileCalls(() => dir), 3)).toEqual(['inline', 'inline', 'inline']);
    expect(await ways(new InlineFileCalls(() => undefined), 2)).toEqual(['pooled', 'pooled']);
  });

  it('turns to the pool for good after one very slow call', async () => {
    const calls = new InlineFileCalls(() => dir);
    let first = true;
    const taken = await ways(calls, 3, () => {
      if (first) waitSync(60);
      first = false;
    });
    expect(taken).toEqual(['inline', 'pooled', 'pooled']);
    expect(calls.inline).toBe(false);
  });

  it('turns to the pool once a window of calls was slow on average, not before the window ends', async () => {
    const calls = new InlineFileCalls(() => dir);
    const taken = await ways(calls, 34, () => waitSync(4));
    expect(taken.slice(0, 32).every((way) => way === 'inline')).toBe(true);
    expect(taken.slice(32)).toEqual(['pooled', 'pooled']);
  });

  it('passes an inline call’s error to the caller, and keeps making calls inline', async () => {
    const calls = new InlineFileCalls(() => dir);
    const failing = (async () =>
      calls.call(
        () => {
          throw new Error('EIO');
        },
        async () => 'pooled',
      ))();
    await expect(failing).rejects.toThrow('EIO');
    expect(calls.inline).toBe(true);
  });
});

describe('onLocalFileSystem', () => {
  it('is false for a path that does not exist, and for /proc', () => {
    expect(onLocalFileSystem(join(dir, 'missing'))).toBe(false);
    expect(onLocalFileSystem('/proc')).toBe(false);
  });
});

// The same results whichever way the calls go: inline where the temporary folder is local, else pooled both times.
describe.each([
  { way: 'inline', place: () => dir },
  { way: 'pooled', place: () => undefined },
])('calls $way', ({ place }) => {
  const source = (path: string): SourceFile => ({ uri: pathToFileURL(path).href, relativePath: 'doc.html', size: 0, changeToken: '0-0' });

  it('reads a small file whole, leaves a larger one to a stream, and types a missing file, a folder and a FIFO', async () => {
    const calls = new InlineFileCalls(place);
    const path = join(dir, 'doc.html');
    await writeFile(path, 'the bytes');
    expect((await readSmallLocalFile(source(path), 64, calls))?.toString()).toBe('the bytes');
    expect(await readSmallLocalFile(source(path), 8, calls)).toBeUndefined();
    expect(await rejectionOf(readSmallLocalFile(source(join(dir, 'gone.html')), 64, calls))).toMatchObject({ code: 'SOURCE_UNREADABLE', failure: 'missing' });
    await mkdir(join(dir, 'folder.html'));
    expect(await rejectionOf(readSmallLocalFile(source(join(dir, 'folder.html')), 64, calls))).toMatchObject({ failure: 'not-a-file' });
    const fifo = join(dir, 'pipe.html');
    if (spawnSync('mkfifo', [fifo]).status === 0) {
      expect(await rejectionOf(readSmallLocalFile(source(fifo), 64, calls))).toMatchObject({ failure: 'not-a-file' });
    }
  });

  it('writes a file atomically, leaving no temporary file, and fails with the cause when its folder is gone', async () => {
    const calls = new InlineFileCalls(place);
    const staging = join(dir, 'tmp');
    const target = join(dir, 'out', 'doc.md');
    await writeFileAtomic(target, '# doc\n', { tempDir: staging, durable: false, inline: calls });
    expect(await readFile(target, 'utf8')).toBe('# doc\n');
    await writeFileAtomic(target, new Uint8Array(Buffer.from('# doc, again\n')), { tempDir: staging, durable: false, inline: calls });
    expect(await readFile(target, 'utf8')).toBe('# doc, again\n');
    expect((await readdir(staging)).filter((name) => name.includes(TEMP_MARKER))).toEqual([]);
    // The folder known as made (madeFolders) was removed since: the rename fails with ENOENT, nothing is left behind.
    const made = new Set([join(dir, 'out'), staging]);
    await rm(join(dir, 'out'), { recursive: true });
    await expect(writeFileAtomic(target, '# lost\n', { tempDir: staging, durable: false, inline: calls, madeFolders: made })).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readdir(staging)).filter((name) => name.includes(TEMP_MARKER))).toEqual([]);
  });
});
