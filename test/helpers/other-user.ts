/**
 * Running a child process as another user, for permission tests that must hold when the tests run as root (who
 * reads everything): as root, children run as `nobody` (uid/gid 65534); as anyone else, as that user.
 *
 * `nobody` may not reach a clone kept below a folder closed to others (`mktemp -d` makes mode-700 folders), so
 * `prepareOtherUserRuntime` gives such a child a Node binary and the built package (package.json, bin/, dist/,
 * config/ and the production packages of node_modules/) in a temporary folder it can traverse: hard links where the
 * file system allows them, copies where it does not.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, copyFile, link, lstat, mkdir, mkdtemp, readdir, readlink, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeTempDir } from './temp-files.js';

export const NOBODY = 65534;
export const RUNNING_AS_ROOT = process.getuid?.() === 0;

const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  spawnError?: Error;
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Run as `nobody` (only possible as root). */
  asNobody: boolean;
  /** SIGKILL after this long; the result then has signal SIGKILL. */
  timeoutMs?: number;
}

export function runProcess(command: string, args: string[], options: RunOptions): Promise<ChildResult> {
  const child = spawn(command, args, {
    env: options.env,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.asNobody ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  return new Promise((resolve) => {
    child.once('error', (spawnError) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stdout, stderr, spawnError });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * A Node binary `nobody` may run: this one, unless it sits below a folder closed to other users (a Node kept in
 * root's home, say); then a hard link (or a copy) of it in `dir`, which must be open to other users.
 */
export async function nodeForNobody(dir: string): Promise<string> {
  const probe = await runProcess(process.execPath, ['-e', ''], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, cwd: '/', asNobody: true });
  if (probe.code === 0) return process.execPath;
  const local = join(dir, 'node');
  await link(process.execPath, local).catch(() => copyFile(process.execPath, local));
  await chmod(local, 0o755);
  return local;
}

/** Gives a folder and everything below it to `nobody` (as root), so a child running as it may write there. */
export async function giveToNobody(path: string): Promise<void> {
  if (!RUNNING_AS_ROOT) return;
  await chown(path, NOBODY, NOBODY);
  for (const entry of await readdir(path, { recursive: true, withFileTypes: true })) {
    await chown(join(entry.parentPath, entry.name), NOBODY, NOBODY);
  }
}

/** What a child running as the other user loads: a Node binary and the built package. */
export interface OtherUserRuntime {
  /** The Node binary to run the child with. */
  node: string;
  /** The package root the child loads: the repository itself, or a copy under os.tmpdir() when the user may not reach it. */
  root: string;
  /** `<root>/dist/`. */
  dist: string;
  /** `<root>/bin/docmill.js`. */
  bin: string;
  /** Why no child can run as the other user here; the tests that need one skip with this reason. */
  unavailable?: string;
  /** Removes the temporary copy (nothing when the repository was used in place). */
  remove(): Promise<void>;
}

/** Files the child reads first: if `nobody` may read these, it may reach the rest of the package in place. */
const PROBES = ['package.json', 'bin/docmill.js', 'dist/src/cli/main.js', 'node_modules/bullmq/package.json'];

/**
 * The Node binary and package a child of the other user runs. Not as root, the child runs as this user: the
 * repository as it is. As root, the repository when `nobody` may read it; else a copy of the built package in a
 * folder under os.tmpdir() opened to others (its files hard links to the repository's where they are readable by
 * others and on the same file system). When even that folder is out of reach (os.tmpdir() closed to others),
 * `unavailable` says so.
 */
export async function prepareOtherUserRuntime(): Promise<OtherUserRuntime> {
  const inPlace = (node: string, remove: () => Promise<void> = async () => undefined): OtherUserRuntime => ({
    node,
    root: REPO,
    dist: join(REPO, 'dist/'),
    bin: join(REPO, 'bin', 'docmill.js'),
    remove,
  });
  if (!RUNNING_AS_ROOT) return inPlace(process.execPath);

  const stage = await mkdtemp(join(tmpdir(), 'docmill-other-user-'));
  const remove = () => removeTempDir(stage);
  try {
    await chmod(stage, 0o755);
    const node = await nodeForNobody(stage);
    const closedTmp = await firstUnreadableByNobody(node, [stage]);
    if (closedTmp !== undefined) {
      return {
        ...inPlace(node, remove),
        unavailable: `nobody (uid ${NOBODY}) cannot reach a folder made in os.tmpdir() (${tmpdir()}: ${closedTmp}); set TMPDIR to a folder open to other users`,
      };
    }
    if ((await firstUnreadableByNobody(node, PROBES.map((path) => join(REPO, path)))) === undefined) return inPlace(node, remove);

    const root = join(stage, 'docmill');
    await copyPackage(REPO, root);
    const blocked = await firstUnreadableByNobody(node, PROBES.map((path) => join(root, path)));
    const runtime: OtherUserRuntime = { node, root, dist: join(root, 'dist/'), bin: join(root, 'bin', 'docmill.js'), remove };
    return blocked === undefined
      ? runtime
      : { ...runtime, unavailable: `nobody (uid ${NOBODY}) cannot read the copy of the package made for it (${blocked})` };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** The first of `paths` `nobody` may not read (with why), or undefined when it may read them all. */
async function firstUnreadableByNobody(node: string, paths: string[]): Promise<string | undefined> {
  const script = `
    const { accessSync, constants } = require('node:fs');
    for (const path of process.argv.slice(1)) {
      try { accessSync(path, constants.R_OK); } catch (error) { console.log(path + ': ' + error.code); process.exit(3); }
    }`;
  const probe = await runProcess(node, ['-e', script, ...paths], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, cwd: '/', asNobody: true });
  if (probe.code === 0) return undefined;
  if (probe.code === 3) return probe.stdout.trim();
  return `${node} does not run as nobody: ${probe.spawnError?.message ?? probe.stderr.trim()}`;
}

/** What `npm pack` would ship (package.json's `files`) plus the production packages npm ci installed. */
async function copyPackage(from: string, to: string): Promise<void> {
  await mkdir(to, { mode: 0o755 });
  await chmod(to, 0o755);
  const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')) as { files?: string[] };
  const entries = ['package.json', ...(manifest.files ?? ['bin', 'dist'])];
  await Promise.all(entries.map((entry) => copyTree(join(from, entry), join(to, entry))));
  await mkdir(join(to, 'node_modules'), { mode: 0o755 });
  await chmod(join(to, 'node_modules'), 0o755);
  const packages = productionPackages(from);
  // Scope folders (node_modules/@scope) first, so their packages may be copied side by side.
  const scopes = new Set(packages.filter((path) => path.startsWith('node_modules/@')).map((path) => path.slice(0, path.lastIndexOf('/'))));
  for (const scope of scopes) await mkdir(join(to, scope), { mode: 0o755 }).then(() => chmod(join(to, scope), 0o755));
  await Promise.all(packages.map((path) => copyTree(join(from, path), join(to, path))));
}

/** The top-level node_modules/<name> folders of package-lock.json not marked dev that are installed here. */
function productionPackages(repo: string): string[] {
  const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path.startsWith('node_modules/') && !path.slice('node_modules/'.length).includes('node_modules/') && entry.dev !== true)
    .map(([path]) => path)
    .filter((path) => existsSync(join(repo, path))); // optional packages for other platforms are not installed
}

/**
 * Copies a file or folder, keeping symbolic links as they are. Files others may read become hard links (a copy
 * across file systems); files closed to others become copies opened to them, so the repository's own modes are never
 * changed. Folders are made open to others (mode 755).
 */
async function copyTree(from: string, to: string): Promise<void> {
  const info = await lstat(from);
  if (info.isSymbolicLink()) return symlink(await readlink(from), to);
  if (info.isDirectory()) {
    await mkdir(to, { mode: 0o755 });
    await chmod(to, 0o755);
    const children = await readdir(from);
    await Promise.all(children.map((name) => copyTree(join(from, name), join(to, name))));
    return;
  }
  if (!info.isFile()) return;
  const readableByOthers = (info.mode & 0o004) !== 0;
  if (readableByOthers) {
    try {
      await link(from, to);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV' && (error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    }
  }
  await copyFile(from, to);
  // Read for everyone; executable for everyone when the owner may execute it.
  await chmod(to, (info.mode & 0o777) | 0o444 | ((info.mode & 0o100) !== 0 ? 0o111 : 0));
}
