/**
 * The local store's group commit: documents written at the same moment share one flush of the file system instead
 * of an fsync per file, and where that flush cannot be made the files are flushed one by one, never left unflushed.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsStore } from '../../src/store/fs-store.js';
import { GroupFlush } from '../../src/store/group-flush.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { SAMPLE_OUTPUTS } from './samples.js';

let parent: string;

beforeEach(async () => {
  parent = await makeTempDir();
});

afterEach(async () => {
  await removeTempDir(parent);
});

const onLinux = process.platform === 'linux';

describe('FsStore group commit', () => {
  it.runIf(onLinux)('flushes twenty documents written together with far fewer calls than their forty files', async () => {
    const store = new FsStore(join(parent, 'out'));
    try {
      const names = Array.from({ length: 20 }, (_, index) => `batch/doc-${index}.html`);
      await Promise.all(names.map((name) => store.writeDocument(name, { markdown: `# ${name}\n`, json: { name } })));

      for (const name of names) {
        expect(await readFile(join(parent, 'out', `${name}.md`), 'utf8')).toBe(`# ${name}\n`);
        expect(JSON.parse(await readFile(join(parent, 'out', `${name}.json`), 'utf8'))).toEqual({ name });
      }
      const { fileSystem, files } = store.flushes.counts;
      expect(fileSystem).toBeGreaterThan(0);
      expect(fileSystem + files).toBeLessThanOrEqual(10);
      expect(await readdir(store.tempDir)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('flushes a lone file with an fsync of its own', async () => {
    const store = new FsStore(join(parent, 'out'));
    try {
      await store.writeDocument('one.html', { markdown: SAMPLE_OUTPUTS.markdown });
      expect(store.flushes.counts).toEqual({ fileSystem: 0, files: 1 });
    } finally {
      await store.close();
    }
  });
});

describe('GroupFlush without a file-system flush', () => {
  it('flushes every file one by one when told to', async () => {
    const flushes = new GroupFlush(parent, { perFile: true });
    try {
      const paths = await Promise.all(
        Array.from({ length: 6 }, async (_, index) => {
          const path = join(parent, `file-${index}`);
          await writeFile(path, `content ${index}`);
          return path;
        }),
      );
      await Promise.all(paths.map((path) => flushes.flush(path)));
      expect(flushes.counts).toEqual({ fileSystem: 0, files: 6 });
    } finally {
      await flushes.close();
    }
  });

  it.runIf(onLinux)('falls back to one fsync a file, from then on, when the file system cannot be flushed', async () => {
    // `sync -f` fails on a folder that does not exist: the round is flushed file by file, and so are later ones.
    const flushes = new GroupFlush(join(parent, 'no-such-folder'));
    const paths = await Promise.all(
      Array.from({ length: 4 }, async (_, index) => {
        const path = join(parent, `file-${index}`);
        await writeFile(path, `content ${index}`);
        return path;
      }),
    );
    try {
      await Promise.all(paths.map((path) => flushes.flush(path)));
      await Promise.all(paths.map((path) => flushes.flush(path)));
      expect(flushes.counts).toEqual({ fileSystem: 0, files: 8 });
    } finally {
      await flushes.close();
    }
  });

  it('rejects the round of a file that cannot be flushed, and goes on with the next', async () => {
    const flushes = new GroupFlush(parent, { perFile: true });
    try {
      await expect(flushes.flush(join(parent, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
      await writeFile(join(parent, 'present'), 'x');
      await expect(flushes.flush(join(parent, 'present'))).resolves.toBeUndefined();
    } finally {
      await flushes.close();
    }
  });
});
