/**
 * The `prepare` script (scripts/build-if-stale.mjs), which `npx docmill` runs again on its first call in a checkout:
 * it builds only when a source file is newer than the last build. A folder made and removed under src/ (the lint
 * probe of the test suite does so) is no change to build, so the call after `npm test` does not wait for a build;
 * an edited source is.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, rmdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/build-if-stale.mjs', import.meta.url));

let root: string;
beforeEach(async () => {
  // A checkout built an hour after its sources were written; no TypeScript in it, so a build attempted fails.
  root = await mkdtemp(join(tmpdir(), 'docmill-build-if-stale-'));
  const written = new Date(Date.now() - 2 * 3600_000);
  const built = new Date(Date.now() - 3600_000);
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(root, 'dist', 'src', 'cli'), { recursive: true });
  await writeFile(join(root, 'package.json'), '{"name":"probe","private":true}');
  await writeFile(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  await writeFile(join(root, 'dist', 'src', 'cli', 'main.js'), 'export {};\n');
  await utimes(join(root, 'src', 'a.ts'), written, written);
  await utimes(join(root, 'package.json'), written, written);
  await utimes(join(root, 'dist', 'src', 'cli', 'main.js'), built, built);
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** Whether the script tried to build (it finds no TypeScript here, so a build attempted fails). */
function triedToBuild(): boolean {
  try {
    execFileSync(process.execPath, [SCRIPT], { cwd: root, stdio: 'pipe' });
    return false;
  } catch {
    return true;
  }
}

describe('build-if-stale', () => {
  it('does not build after a folder under src/ came and went', async () => {
    await mkdir(join(root, 'src', 'lint-probe'));
    await rmdir(join(root, 'src', 'lint-probe'));
    expect(triedToBuild()).toBe(false);
  });

  it('builds when a source file is newer than the build', async () => {
    await writeFile(join(root, 'src', 'a.ts'), 'export const a = 2;\n');
    expect(triedToBuild()).toBe(true);
  });
});
