/**
 * Each engine thread beyond the first loads LiteParse's native module from a copy of its own, so that the threads'
 * PDFium calls do not wait on one lock: the copies are made once below the cache folder (or a private temporary
 * folder), whole or not at all, never in a folder another user could write to; where none can be made, the thread
 * shares the package's module and says so once, and the PDF comes out the same. Copies of other versions unused
 * for a month go when a copy is taken; recent ones, which another installation may still run, stay.
 */
import { chmod, mkdir, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { validateParseOptions } from '../../../src/contract/validation.js';
import type { ParseOptions } from '../../../src/contract/options.js';
import { nativeCopyPath, nativePackages, STALE_AFTER_MS, type NativePackage } from '../../../src/engine/pdf/liteparse/native-copies.js';
import { EngineThreadPool } from '../../../src/engine/thread-pool.js';
import { makeTempDir, removeTempDir } from '../../helpers/temp-files.js';
import { useNativeCopy } from '../../../src/engine/pdf/liteparse/load.js';
import { convertBytes, corpusBytes, mainMarkdown } from './helpers.js';

function fast(): ParseOptions {
  const result = validateParseOptions({ parsers: [{ type: 'pdf', mode: 'fast' }] });
  if (!result.ok) throw new Error('bad options');
  return result.options;
}

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await removeTempDir(dir);
});

/** A package of the native module's shape: a module file, a library beside it, a manifest. */
async function fakePackage(): Promise<NativePackage> {
  const pkgDir = join(dir, 'package');
  await mkdir(pkgDir);
  await writeFile(join(pkgDir, 'module.node'), 'module bytes');
  await writeFile(join(pkgDir, 'libpdfium.so'), 'library bytes, longer');
  await writeFile(join(pkgDir, 'package.json'), '{"name":"@llamaindex/liteparse-test","version":"9.9.9","main":"module.node"}');
  return { name: '@llamaindex/liteparse-test', version: '9.9.9', dir: pkgDir, main: 'module.node' };
}

describe('copies of the native module', () => {
  it('copy 0 is the package itself; copy k is the package copied whole below the root, and made only once', async () => {
    const pkg = await fakePackage();
    const root = join(dir, 'cache');
    expect(await nativeCopyPath(pkg, 0, [root])).toBe(join(pkg.dir, 'module.node'));

    const path = await nativeCopyPath(pkg, 2, [root]);
    expect(path).toBe(join(root, 'liteparse', 'liteparse-test@9.9.9', '2', 'module.node'));
    const copyDir = join(root, 'liteparse', 'liteparse-test@9.9.9', '2');
    expect((await readdir(copyDir)).sort()).toEqual(['libpdfium.so', 'module.node', 'package.json']);
    expect(await readFile(join(copyDir, 'libpdfium.so'), 'utf8')).toBe('library bytes, longer');
    // A copy is its own file, not a link to the package's: the dynamic loader would open a link's file once.
    expect((await stat(path)).ino).not.toBe((await stat(join(pkg.dir, 'module.node'))).ino);
    expect((await stat(root)).mode & 0o077).toBe(0);

    const made = (await stat(path)).mtimeMs;
    expect(await nativeCopyPath(pkg, 2, [root])).toBe(path);
    expect((await stat(path)).mtimeMs).toBe(made);
    // Nothing left under a temporary name.
    expect(await readdir(join(root, 'liteparse', 'liteparse-test@9.9.9'))).toEqual(['2']);
  });

  it("removes other versions' copies unused for a month, keeps recent ones and other packages' folders", async () => {
    const pkg = await fakePackage();
    const root = join(dir, 'cache');
    const copies = join(root, 'liteparse');
    const aged = async (name: string, ageMs: number) => {
      await mkdir(join(copies, name, '1'), { recursive: true, mode: 0o700 });
      await writeFile(join(copies, name, '1', 'module.node'), 'old module');
      const then = new Date(Date.now() - ageMs);
      await utimes(join(copies, name), then, then);
    };
    await mkdir(root, { mode: 0o700 });
    await aged('liteparse-test@9.9.7', STALE_AFTER_MS + 24 * 3600_000);
    await aged('liteparse-test@9.9.8', STALE_AFTER_MS - 24 * 3600_000);
    await aged('liteparse-other@1.0.0', 2 * STALE_AFTER_MS);

    await nativeCopyPath(pkg, 1, [root]);
    expect((await readdir(copies)).sort()).toEqual(['liteparse-other@1.0.0', 'liteparse-test@9.9.8', 'liteparse-test@9.9.9']);

    // Taking a copy that is already there marks its version used, so a later run of another version keeps it.
    const longAgo = new Date(Date.now() - 2 * STALE_AFTER_MS);
    await utimes(join(copies, 'liteparse-test@9.9.9'), longAgo, longAgo);
    await nativeCopyPath(pkg, 1, [root]);
    expect(Date.now() - (await stat(join(copies, 'liteparse-test@9.9.9'))).mtimeMs).toBeLessThan(60_000);
  });

  it('two makers of the same copy at once both get it whole', async () => {
    const pkg = await fakePackage();
    const root = join(dir, 'cache');
    const paths = await Promise.all([1, 2, 3, 4].map(() => nativeCopyPath(pkg, 1, [root])));
    expect(new Set(paths).size).toBe(1);
    expect(await readFile(join(root, 'liteparse', 'liteparse-test@9.9.9', '1', 'libpdfium.so'), 'utf8')).toBe('library bytes, longer');
    expect(await readdir(join(root, 'liteparse', 'liteparse-test@9.9.9'))).toEqual(['1']);
  });

  it('replaces a folder in its place that is not a whole copy', async () => {
    const pkg = await fakePackage();
    const root = join(dir, 'cache');
    const copyDir = join(root, 'liteparse', 'liteparse-test@9.9.9', '1');
    await mkdir(copyDir, { recursive: true, mode: 0o700 });
    await chmod(root, 0o700);
    await writeFile(join(copyDir, 'module.node'), 'cut');
    await nativeCopyPath(pkg, 1, [root]);
    expect(await readFile(join(copyDir, 'module.node'), 'utf8')).toBe('module bytes');
    expect(await readFile(join(copyDir, 'libpdfium.so'), 'utf8')).toBe('library bytes, longer');
  });

  it('refuses a root other users may write to (what is in it runs as code), and takes the next', async () => {
    const pkg = await fakePackage();
    const shared = join(dir, 'shared');
    await mkdir(shared, { mode: 0o777 });
    await chmod(shared, 0o777);
    const own = join(dir, 'own');
    const path = await nativeCopyPath(pkg, 1, [shared, own]);
    expect(path.startsWith(own)).toBe(true);
    expect(await readdir(shared)).toEqual([]);
    await expect(nativeCopyPath(pkg, 1, [shared])).rejects.toThrow(/may be written by other users/);
  });

  it('says why when no root takes it', async () => {
    const pkg = await fakePackage();
    const notAFolder = join(dir, 'file');
    await writeFile(notAFolder, 'x');
    await expect(nativeCopyPath(pkg, 1, [join(notAFolder, 'below')])).rejects.toThrow(/no copy could be made \(.*file\/below: /);
  });
});

describe('a pool of two threads on Linux', () => {
  const pools: EngineThreadPool[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()));
  });

  const report = corpusBytes('multi-column-2p.pdf');

  it.runIf(process.platform === 'linux')('loads the module from two files, the package’s and a copy below the cache folder', async () => {
    const cacheDir = join(dir, 'cache');
    const pool = new EngineThreadPool({ size: 2, cacheDir });
    pools.push(pool);
    const results = await Promise.all([1, 2, 3, 4].map((n) => pool.run(report, `report-${n}.pdf`, fast())));
    for (const data of results) expect(data.markdown).toBe(results[0]?.markdown);
    const [pkg] = nativePackages();
    if (!pkg) throw new Error('no native package installed');
    const copy = join(cacheDir, 'docmill', 'liteparse', `${pkg.name.replace(/^@[^/]+\//, '')}@${pkg.version}`, '1', pkg.main);
    const mapped = new Set((await readFile('/proc/self/maps', 'utf8')).split('\n').map((line) => line.split(/\s+/).slice(5).join(' ')));
    expect(mapped.has(join(pkg.dir, pkg.main))).toBe(true);
    expect(mapped.has(copy)).toBe(true);
    await pool.close();
  });

  it.runIf(process.platform === 'linux')('shares the package’s module where no copy can be made: one line says so, the PDF comes out the same', async () => {
    const expected = mainMarkdown(await convertBytes(report, { mode: 'fast' }));
    const written: string[] = [];
    vi.spyOn(console, 'warn').mockImplementation((line: string) => void written.push(line));
    // A file where the folders should be: no copy can be made below it.
    const notAFolder = join(dir, 'not-a-folder');
    await writeFile(notAFolder, 'x');
    useNativeCopy(3, [join(notAFolder, 'cache'), join(notAFolder, 'tmp')]);
    try {
      expect(mainMarkdown(await convertBytes(report, { mode: 'fast' }))).toBe(expected);
      expect(mainMarkdown(await convertBytes(report, { mode: 'fast' }))).toBe(expected);
    } finally {
      useNativeCopy(0, []);
    }
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/LiteParse's native module could not be had for this engine thread \(no copy could be made \(.*not-a-folder\/cache: .*not-a-folder\/tmp: /);
  });
});
