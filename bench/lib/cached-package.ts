/**
 * A comparison tool from npm that is not a dependency of docmill, installed at a pinned version into
 * ~/.cache/docmill-bench/<folder>, outside the repository, the first time a benchmark needs it (and again when the
 * version there is another).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface CachedPackage {
  /** The npm package name (`@llamaindex/liteparse`). */
  name: string;
  version: string;
  /** The folder under ~/.cache/docmill-bench. */
  folder: string;
  /** The module file to import, relative to the package's folder (`dist/lib.js`). */
  entry: string;
}

function cacheFolder(pkg: CachedPackage): string {
  return join(homedir(), '.cache', 'docmill-bench', pkg.folder);
}

/** The absolute path of the package's entry, installed first when absent or of another version. */
export async function ensureCachedPackage(pkg: CachedPackage, log: (line: string) => void = () => {}): Promise<string> {
  const cache = cacheFolder(pkg);
  const installed = join(cache, 'node_modules', ...pkg.name.split('/'));
  const entry = join(installed, pkg.entry);
  if (existsSync(entry) && (await versionIn(installed)) === pkg.version) return entry;
  log(`installing ${pkg.name}@${pkg.version} into ${cache} (npm)`);
  await mkdir(cache, { recursive: true });
  const manifest = { name: `docmill-bench-${pkg.folder}`, private: true, dependencies: { [pkg.name]: pkg.version } };
  await writeFile(join(cache, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await promisify(execFile)('npm', ['install', '--prefix', cache, '--no-audit', '--no-fund'], { timeout: 600_000 });
  if ((await versionIn(installed)) !== pkg.version) throw new Error(`npm did not install ${pkg.name}@${pkg.version} in ${cache}`);
  return entry;
}

async function versionIn(folder: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}
