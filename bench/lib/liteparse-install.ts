/**
 * LiteParse (`@llamaindex/liteparse`, Apache-2.0: Rust + PDFium, a native module with prebuilt packages per
 * platform) for the PDF benchmark, run alone as a user runs it. docmill's engine depends on the same pinned version;
 * the benchmark still installs its own copy with npm into ~/.cache/docmill-bench/liteparse, outside the repository,
 * so the LiteParse row measures the package as published, in its own process pool.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const LITEPARSE_VERSION = '2.14.7';
export const LITEPARSE_CACHE = join(homedir(), '.cache', 'docmill-bench', 'liteparse');
const PACKAGE = join(LITEPARSE_CACHE, 'node_modules', '@llamaindex', 'liteparse');

/** The module entry of the pinned LiteParse, installed first when absent or of another version. */
export async function ensureLiteParse(log: (line: string) => void = () => {}): Promise<string> {
  const entry = join(PACKAGE, 'dist', 'lib.js');
  if (existsSync(entry) && (await installedVersion()) === LITEPARSE_VERSION) return entry;
  log(`installing @llamaindex/liteparse@${LITEPARSE_VERSION} into ${LITEPARSE_CACHE} (npm)`);
  await mkdir(LITEPARSE_CACHE, { recursive: true });
  const manifest = { name: 'docmill-bench-liteparse', private: true, dependencies: { '@llamaindex/liteparse': LITEPARSE_VERSION } };
  await writeFile(join(LITEPARSE_CACHE, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await promisify(execFile)('npm', ['install', '--prefix', LITEPARSE_CACHE, '--no-audit', '--no-fund'], { timeout: 600_000 });
  if ((await installedVersion()) !== LITEPARSE_VERSION) throw new Error(`npm did not install @llamaindex/liteparse@${LITEPARSE_VERSION} in ${LITEPARSE_CACHE}`);
  return entry;
}

async function installedVersion(): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(join(PACKAGE, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}
