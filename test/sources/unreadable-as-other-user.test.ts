/**
 * Unreadable folders and files, checked even when the tests run as root (who reads everything): the listing runs
 * in a child Node process as `nobody` (uid/gid 65534) on a temp tree that user may read except for one folder and
 * one file. As any other user, the child simply runs as that user.
 *
 * The child loads the built LocalDirSource (dist/), as the CLI does.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, copyFile, link, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const NOBODY = 65534;
const RUNNING_AS_ROOT = process.getuid?.() === 0;

/** Lists the root, then opens every listed file; prints what it saw as JSON. */
const LISTER = `
const [distUrl, root] = process.argv.slice(1);
const { LocalDirSource } = await import(new URL('src/sources/local-dir-source.js', distUrl).href);
const source = new LocalDirSource({ location: root });
const entries = [];
for await (const entry of source.list()) entries.push(entry);
const opens = [];
for (const entry of entries) {
  if (entry.kind !== 'file') continue;
  try {
    const stream = await source.open(entry.file);
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    opens.push({ path: entry.file.relativePath, ok: true, text: Buffer.concat(chunks).toString('utf8') });
  } catch (error) {
    opens.push({ path: entry.file.relativePath, ok: false, name: error.name, code: error.code, failure: error.failure, message: error.message });
  }
}
await source.close();
console.log(JSON.stringify({ uid: process.getuid(), entries, opens }));
`;

interface Listing {
  uid: number;
  entries: Array<
    | { kind: 'file'; file: { relativePath: string; size: number } }
    | { kind: 'skipped'; relativePath: string; reason: string; detail?: string }
  >;
  opens: Array<{ path: string; ok: boolean; text?: string; name?: string; code?: string; failure?: string; message?: string }>;
}

let base: string;
let root: string;

beforeAll(() => {
  if (!existsSync(join(DIST, 'src', 'sources', 'local-dir-source.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before this test');
  }
});

beforeEach(async () => {
  base = await makeTempDir();
  root = join(base, 'root');
  // Every folder on the way, and every file, readable by the other user...
  await chmod(base, 0o755);
  for (const [path, content] of Object.entries({
    'open.pdf': 'open to all',
    'locked/inside.pdf': 'behind a folder nobody may list',
    'private.pdf': 'owner only',
    'sub/visible.docx': 'deeper, open to all',
  })) {
    await mkdir(dirname(join(root, path)), { recursive: true, mode: 0o755 });
    await writeFile(join(root, path), content, { mode: 0o644 });
  }
  // ...except these two.
  await chmod(join(root, 'locked'), 0o000);
  await chmod(join(root, 'private.pdf'), 0o000);
});

afterEach(async () => {
  await chmod(join(root, 'locked'), 0o755).catch(() => undefined);
  await removeTempDir(base);
});

interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  spawnError?: Error;
}

function runNode(node: string, args: string[], asOtherUser: boolean): Promise<ChildResult> {
  const child = spawn(node, args, {
    cwd: base,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: base },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(asOtherUser ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve) => {
    child.once('error', (spawnError) => resolve({ code: null, stdout, stderr, spawnError }));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A Node binary `nobody` may run: this one, unless it sits below a folder closed to other users (a Node kept in
 * root's home, say); then a hard link (or copy) of it in the temp tree.
 */
async function nodeForOtherUser(): Promise<string> {
  const probe = await runNode(process.execPath, ['-e', ''], true);
  if (probe.code === 0) return process.execPath;
  const local = join(base, 'node');
  await link(process.execPath, local).catch(() => copyFile(process.execPath, local));
  await chmod(local, 0o755);
  return local;
}

async function listAs(asOtherUser: boolean): Promise<Listing> {
  const node = asOtherUser ? await nodeForOtherUser() : process.execPath;
  const result = await runNode(node, ['--input-type=module', '-e', LISTER, pathToFileURL(DIST).href, root], asOtherUser);
  expect(result.spawnError, result.stderr).toBeUndefined();
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Listing;
}

function summarise(listing: Listing): string[] {
  return listing.entries.map((entry) =>
    entry.kind === 'file' ? `file:${entry.file.relativePath}` : `skipped:${entry.relativePath}:${entry.reason}`,
  );
}

describe('LocalDirSource as a user who may not read everything', () => {
  it('reports the folder it may not list as unreadable (EACCES) and lists the rest', async () => {
    const listing = await listAs(RUNNING_AS_ROOT);

    expect(listing.uid).toBe(RUNNING_AS_ROOT ? NOBODY : process.getuid?.());
    expect(summarise(listing)).toEqual(['skipped:locked:unreadable', 'file:open.pdf', 'file:private.pdf', 'file:sub/visible.docx']);
    expect(listing.entries[0]).toMatchObject({ kind: 'skipped', relativePath: 'locked', reason: 'unreadable', detail: 'EACCES' });
  });

  it('lists a file it may not read, then fails opening it with SOURCE_UNREADABLE (permission denied), the others readable', async () => {
    const listing = await listAs(RUNNING_AS_ROOT);

    expect(listing.opens).toEqual([
      { path: 'open.pdf', ok: true, text: 'open to all' },
      {
        path: 'private.pdf',
        ok: false,
        name: 'SourceReadError',
        code: 'SOURCE_UNREADABLE',
        failure: 'io',
        message: 'Cannot read private.pdf: permission denied (EACCES)',
      },
      { path: 'sub/visible.docx', ok: true, text: 'deeper, open to all' },
    ]);
  });

  it.runIf(RUNNING_AS_ROOT)('(control) as root the same tree reads whole: the permissions alone prove nothing there', async () => {
    const listing = await listAs(false);

    expect(listing.uid).toBe(0);
    expect(summarise(listing)).toEqual(['file:locked/inside.pdf', 'file:open.pdf', 'file:private.pdf', 'file:sub/visible.docx']);
    expect(listing.opens.every((open) => open.ok)).toBe(true);
  });
});
