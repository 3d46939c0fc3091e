/**
 * defuddle (MIT, npm) for the web-page main-content benchmark. It is not a dependency of docmill: the benchmark
 * installs the pinned version with npm into ~/.cache/docmill-bench/defuddle, outside the repository, as
 * bench/lib/liteparse-install.ts does for LiteParse.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const DEFUDDLE_VERSION = '0.19.4';
export const DEFUDDLE_CACHE = join(homedir(), '.cache', 'docmill-bench', 'defuddle');
const PACKAGE = join(DEFUDDLE_CACHE, 'node_modules', 'defuddle');

/** The `defuddle/node` module entry of the pinned defuddle, installed first when absent or of another version. */
export async function ensureDefuddle(log: (line: string) => void = () => {}): Promise<string> {
  const entry = join(PACKAGE, 'dist', 'node.js');
  if (existsSync(entry) && (await installedVersion()) === DEFUDDLE_VERSION) return entry;
  log(`installing defuddle@${DEFUDDLE_VERSION} into ${DEFUDDLE_CACHE} (npm)`);
  await mkdir(DEFUDDLE_CACHE, { recursive: true });
  const manifest = { name: 'docmill-bench-defuddle', private: true, dependencies: { defuddle: DEFUDDLE_VERSION } };
  await writeFile(join(DEFUDDLE_CACHE, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await promisify(execFile)('npm', ['install', '--prefix', DEFUDDLE_CACHE, '--no-audit', '--no-fund'], { timeout: 600_000 });
  if ((await installedVersion()) !== DEFUDDLE_VERSION) throw new Error(`npm did not install defuddle@${DEFUDDLE_VERSION} in ${DEFUDDLE_CACHE}`);
  return entry;
}

async function installedVersion(): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(join(PACKAGE, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}
