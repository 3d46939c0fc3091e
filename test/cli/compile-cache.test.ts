/**
 * The launcher keeps V8's compiled code of docmill's modules in the user's cache folder, where its node has a compile
 * cache (Node 22.8 and later; the test is skipped on an older node): the main thread's and the engine threads' code
 * is there after a first run, none is written when the user turned the cache off, and a cache folder that cannot be
 * made changes nothing of what the command does or prints.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import nodeModule from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const BIN = fileURLToPath(new URL('../../bin/docmill.js', import.meta.url));
const HAS_COMPILE_CACHE = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

let home: string;

beforeEach(async () => {
  home = await makeTempDir();
});

afterEach(async () => {
  await removeTempDir(home);
});

function docmill(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: home, ...env }, cwd: home }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The compiled entries written below `folder` (one folder per node version), none when it does not exist. */
async function entriesBelow(folder: string): Promise<number> {
  const versions = await readdir(folder).catch(() => []);
  let entries = 0;
  for (const version of versions) entries += (await readdir(join(folder, version))).length;
  return entries;
}

describe.runIf(HAS_COMPILE_CACHE)('the compile cache', () => {
  it('is written below XDG_CACHE_HOME (else ~/.cache) by a run, the engine threads’ code with the main thread’s', async () => {
    const src = join(home, 'src');
    await mkdir(src);
    await writeFile(join(src, 'page.html'), '<html><body><h1>Cached</h1><p>Compiled once.</p></body></html>');

    const version = await docmill(['--version']);
    expect(version.code, version.stderr).toBe(0);
    const cache = join(home, '.cache', 'docmill', 'compile-cache');
    const launcherOnly = await entriesBelow(cache);
    expect(launcherOnly).toBeGreaterThan(0);

    const run = await docmill(['run', src, '--out', join(home, 'out')]);
    expect(run.code, run.stderr).toBe(0);
    // The engine threads load the converters, which `--version` never does.
    expect(await entriesBelow(cache)).toBeGreaterThan(launcherOnly);

    const elsewhere = join(home, 'xdg');
    expect((await docmill(['--version'], { XDG_CACHE_HOME: elsewhere })).code).toBe(0);
    expect(await entriesBelow(join(elsewhere, 'docmill', 'compile-cache'))).toBeGreaterThan(0);
  }, 60_000);

  it('writes nothing when NODE_DISABLE_COMPILE_CACHE is set, and goes on silently where it cannot make its folder', async () => {
    const off = await docmill(['--version'], { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(off.code, off.stderr).toBe(0);
    expect(await entriesBelow(join(home, '.cache', 'docmill', 'compile-cache'))).toBe(0);

    // A file where the cache folder would go.
    await rm(join(home, '.cache'), { recursive: true, force: true });
    await writeFile(join(home, '.cache'), 'not a folder');
    const blocked = await docmill(['--version']);
    expect(blocked).toMatchObject({ code: 0, stderr: '' });
    expect(blocked.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  }, 60_000);
});
