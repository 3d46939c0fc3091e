/**
 * LiteParse's native module, one copy for each engine thread of a process. PDFium is not thread-safe, so LiteParse
 * holds one lock around the PDFium calls of its module: threads sharing the package's module read one PDF at a time
 * between them (on the PDF benchmark's pages, two threads read 1.35 × one thread's pages/s, two processes 1.93 ×).
 * A module loaded from another file is another instance, with its own statics and its own PDFium (LiteParse finds
 * `libpdfium` in its module's own folder), so its own lock: the thread given copy k (k ≥ 1) loads the module from a
 * folder of its own and reads PDFs beside the others. Copy 0 is the installed package itself.
 *
 * A copy is the platform package's files, copied (a link would be the same file, which the dynamic loader opens
 * once), into `<root>/liteparse/<package>@<version>/<k>/`. It is made once and kept: written under a temporary name
 * and renamed into place, so it is whole or absent, and two processes making the same copy at once both end with
 * it. Roots are tried in turn (the cache folder, then a folder of this user's own in the system's temporary folder);
 * a root another user could write to is refused, since the module in it is loaded as code. Linux only, where the
 * engine is measured; elsewhere every thread loads the package's module.
 *
 * A version's folder is marked used (its modification time) each time a copy of it is taken, and the folders of the
 * package's other versions not used for STALE_AFTER_MS are removed, once a process: an upgrade would otherwise
 * leave a copy per engine thread of every version ever run (some 30 MB each) for good, while another installation of
 * docmill on the same account that still runs an older version keeps its copies. A process still running with a
 * removed copy loaded is not disturbed (the files it mapped live on until it exits).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, type Stats } from 'node:fs';
import { copyFile, constants as fsConstants, lstat, mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The platform package LiteParse's wrapper would load its native module from. */
export interface NativePackage {
  /** e.g. `@llamaindex/liteparse-linux-x64-gnu`. */
  name: string;
  version: string;
  dir: string;
  /** The module's file name in `dir` (the package's `main`). */
  main: string;
}

/** The platform triples to try, in the order LiteParse's own loader tries them. */
function platformTriples(): string[] {
  const { platform, arch } = process;
  return platform === 'linux' ? [`linux-${arch}-gnu`, `linux-${arch}-musl`] : platform === 'win32' ? [`win32-${arch}-msvc`] : [`${platform}-${arch}`];
}

function readManifest(path: string): { version?: unknown; main?: unknown } {
  return JSON.parse(readFileSync(path, 'utf8')) as { version?: unknown; main?: unknown };
}

/**
 * Where the native module can be loaded from, in the order LiteParse's own loader tries: the platform packages
 * installed beside its wrapper (npm installs the one that matches the machine's libc), then a module the wrapper's
 * package ships itself (there for an install that left optional packages out).
 */
export function nativePackages(): NativePackage[] {
  let wrapperManifest: string;
  try {
    wrapperManifest = createRequire(import.meta.url).resolve('@llamaindex/liteparse/package.json');
  } catch {
    return [];
  }
  const requireFromWrapper = createRequire(wrapperManifest);
  const found: NativePackage[] = [];
  for (const triple of platformTriples()) {
    const name = `@llamaindex/liteparse-${triple}`;
    try {
      const manifestPath = requireFromWrapper.resolve(`${name}/package.json`);
      const manifest = readManifest(manifestPath);
      if (typeof manifest.version !== 'string' || typeof manifest.main !== 'string') continue;
      found.push({ name, version: manifest.version, dir: dirname(manifestPath), main: manifest.main });
    } catch {
      // Not installed for this platform.
    }
  }
  const wrapperDir = dirname(wrapperManifest);
  const { version } = readManifest(wrapperManifest);
  for (const triple of platformTriples()) {
    const main = `liteparse.${triple}.node`;
    if (typeof version === 'string' && existsSync(join(wrapperDir, main))) found.push({ name: '@llamaindex/liteparse', version, dir: wrapperDir, main });
  }
  return found;
}

/** Copies are made only where they were measured to read PDFs side by side. */
export function copiesSupported(): boolean {
  return process.platform === 'linux';
}

/**
 * Where copies may be made: below the cache folder, then below a folder of this user's own in the temporary
 * folder (created private: what is in it is loaded as code).
 */
export function defaultCopyRoots(cacheDir: string): string[] {
  const uid = process.getuid?.();
  return [join(cacheDir, 'docmill'), join(tmpdir(), `docmill-${uid ?? 'user'}`)];
}

/** The root is a real folder of this user that nobody else may write to. */
async function checkPrivate(root: string): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  const info = await lstat(root);
  const uid = process.getuid?.();
  if (!info.isDirectory()) throw new Error(`${root} is not a folder`);
  if (uid !== undefined && info.uid !== uid) throw new Error(`${root} belongs to another user`);
  if ((info.mode & 0o022) !== 0) throw new Error(`${root} may be written by other users`);
}

/** The package's regular files: the module, its `libpdfium`, the manifest. */
async function packageFiles(dir: string): Promise<{ name: string; size: number }[]> {
  const files: { name: string; size: number }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isFile()) files.push({ name: entry.name, size: (await stat(join(dir, entry.name))).size });
  }
  return files;
}

/** `dir` holds every file of the package, each of its size: a copy made whole. */
async function holdsCopy(dir: string, files: readonly { name: string; size: number }[]): Promise<boolean> {
  for (const file of files) {
    let info: Stats;
    try {
      info = await stat(join(dir, file.name));
    } catch {
      return false;
    }
    if (!info.isFile() || info.size !== file.size) return false;
  }
  return true;
}

/** Another version's copies unused for this long are removed (see the header). */
export const STALE_AFTER_MS = 30 * 24 * 60 * 60 * 1000;

/** The roots whose other versions this process has already looked at. */
const prunedRoots = new Set<string>();

/**
 * Marks `versionDir` used, and once a process removes the folders of the package's other versions below
 * `copiesDir` whose last use is older than STALE_AFTER_MS. A folder that cannot be removed is left for a later run.
 */
async function markUsedAndPrune(copiesDir: string, versionDir: string, packageBase: string): Promise<void> {
  const now = new Date();
  await utimes(versionDir, now, now).catch(() => undefined);
  if (prunedRoots.has(copiesDir)) return;
  prunedRoots.add(copiesDir);
  const entries = await readdir(copiesDir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(copiesDir, entry.name);
    if (!entry.isDirectory() || path === versionDir || !entry.name.startsWith(`${packageBase}@`)) continue;
    const info = await stat(path).catch(() => undefined);
    if (info && now.getTime() - info.mtimeMs > STALE_AFTER_MS) await rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Makes copy `index` below `root` unless it is there; returns its folder. */
async function copyBelow(root: string, pkg: NativePackage, index: number): Promise<string> {
  await checkPrivate(root);
  const packageBase = pkg.name.replace(/^@[^/]+\//, '');
  const copiesDir = join(root, 'liteparse');
  const versionDir = join(copiesDir, `${packageBase}@${pkg.version}`);
  const target = join(versionDir, String(index));
  const files = await packageFiles(pkg.dir);
  if (await holdsCopy(target, files)) {
    await markUsedAndPrune(copiesDir, versionDir, packageBase);
    return target;
  }
  await mkdir(versionDir, { recursive: true, mode: 0o700 });
  const temporary = `${target}.${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(temporary, { mode: 0o700 });
  try {
    // A clone where the file system can make one (its own inode all the same), a plain copy elsewhere.
    for (const file of files) await copyFile(join(pkg.dir, file.name), join(temporary, file.name), fsConstants.COPYFILE_FICLONE);
    try {
      await rename(temporary, target);
    } catch (error) {
      // Another process made it meanwhile (the rename finds a folder there): its copy serves as well as this one.
      if (!(await holdsCopy(target, files))) {
        // A folder left there that is not a whole copy (not one of docmill's): replaced.
        await rm(target, { recursive: true, force: true });
        await rename(temporary, target).catch(() => {
          throw error;
        });
      }
    }
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
  await markUsedAndPrune(copiesDir, versionDir, packageBase);
  return target;
}

/**
 * The path of the module file of copy `index` (0: the package's own), made below the first root that takes it;
 * rejects with each root's reason when none does.
 */
export async function nativeCopyPath(pkg: NativePackage, index: number, roots: readonly string[]): Promise<string> {
  if (index === 0) return join(pkg.dir, pkg.main);
  const reasons: string[] = [];
  for (const root of roots) {
    try {
      return join(await copyBelow(root, pkg, index), pkg.main);
    } catch (error) {
      reasons.push(`${root}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`no copy could be made (${reasons.join('; ')})`);
}
