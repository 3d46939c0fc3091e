/**
 * Dead code stays gone: `npm run lint` runs knip with the project's knip.json, failing on unused files, exports and
 * dependencies. These checks run knip with that same configuration on a small tree shaped like the project (a CLI
 * entry, a module it uses, one it never imports) in a temporary folder, and expect each kind of dead code reported.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const KNIP = join(REPO, 'node_modules', 'knip', 'bin', 'knip.js');
const run = promisify(execFile);

interface KnipRun {
  code: number;
  output: string;
}

async function knip(directory: string): Promise<KnipRun> {
  try {
    const { stdout } = await run(process.execPath, [KNIP, '--no-progress', '--no-config-hints', '--directory', directory]);
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, output: failed.stdout ?? '' };
  }
}

async function writeProject(root: string, files: Record<string, string>, dependencies: Record<string, string> = {}): Promise<void> {
  await copyFile(join(REPO, 'knip.json'), join(root, 'knip.json'));
  await copyFile(join(REPO, 'tsconfig.json'), join(root, 'tsconfig.json'));
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'probe', type: 'module', dependencies }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

const LIVE = {
  'src/cli/main.ts': "import { used } from '../engine/used.js';\nconsole.log(used());\n",
  'src/engine/used.ts': 'export function used(): number {\n  return helper();\n}\nfunction helper(): number {\n  return 1;\n}\n',
};

let clean: string;
let dead: string;

beforeAll(async () => {
  [clean, dead] = await Promise.all([makeTempDir(), makeTempDir()]);
  await writeProject(clean, LIVE);
  await writeProject(
    dead,
    {
      ...LIVE,
      'src/engine/used.ts': `${LIVE['src/engine/used.ts']}export function neverCalled(): number {\n  return 2;\n}\n`,
      'src/engine/orphan.ts': 'export const orphan = 1;\n',
    },
    { 'left-pad': '1.3.0' },
  );
}, 30_000);

afterAll(async () => {
  await Promise.all([removeTempDir(clean), removeTempDir(dead)]);
});

describe('knip, as npm run lint runs it', () => {
  it('passes a tree whose every file, export and dependency is used', async () => {
    const result = await knip(clean);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  it('fails on a file nothing imports, an export nothing uses and a dependency nothing imports', async () => {
    const result = await knip(dead);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/Unused files \(1\)\s+src\/engine\/orphan\.ts/);
    expect(result.output).toMatch(/Unused exports \(1\)\s+neverCalled\s+function\s+src\/engine\/used\.ts/);
    expect(result.output).toMatch(/Unused dependencies \(1\)\s+left-pad/);
  }, 60_000);
});
