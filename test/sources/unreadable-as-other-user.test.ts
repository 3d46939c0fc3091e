/**
 * Unreadable folders and files, checked even when the tests run as root (who reads everything): the listing, and
 * `docmill run`, run in a child Node process as `nobody` (uid/gid 65534) on a temp tree that user may read except
 * for one folder and one file. As any other user, the child simply runs as that user.
 *
 * The children load the built code (dist/), as the CLI does. `nobody` may not reach a clone kept below a folder closed
 * to others (a `mktemp -d` folder is mode 700): its children then load a copy of the built package made for them
 * under os.tmpdir() (see prepareOtherUserRuntime), removed afterwards.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, type TestContext } from 'vitest';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import { docmillEnv, listFiles, SHARED_REDIS_URL, type ManifestLine } from '../helpers/docmill-cli.js';
import type { FaultParseServer } from '../helpers/fault-parse-server.js';
import {
  giveToNobody,
  NOBODY,
  prepareOtherUserRuntime,
  RUNNING_AS_ROOT,
  runProcess,
  type ChildResult,
  type OtherUserRuntime,
} from '../helpers/other-user.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { expectOutputs, fileOf, lastLineByPath, readFailures, readManifest, writeTree } from '../pipeline/pipeline-fixtures.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

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

const OPEN = fileOf('open.pdf', 'open to all');
const DEEPER = fileOf('sub/visible.docx', 'deeper, open to all');
const PRIVATE = fileOf('private.pdf', 'owner only');
const INSIDE_LOCKED = fileOf('locked/inside.pdf', 'behind a folder nobody may list');

/** A tree below `base` (made open to other users) that they may read, except the folder `locked` and `private.pdf`. */
async function makeTree(base: string): Promise<string> {
  const root = join(base, 'root');
  await chmod(base, 0o755);
  await mkdir(root, { mode: 0o755 });
  await writeTree(root, [OPEN, DEEPER, PRIVATE, INSIDE_LOCKED]);
  await chmod(join(root, 'locked'), 0o000);
  await chmod(join(root, 'private.pdf'), 0o000);
  return root;
}

async function removeTree(base: string | undefined, root: string | undefined): Promise<void> {
  if (root) await chmod(join(root, 'locked'), 0o755).catch(() => undefined);
  await removeTempDir(base);
}

/** The Node binary and built package the other user's children load; made once for the file. */
let runtime: OtherUserRuntime;

beforeAll(async () => {
  if (!existsSync(join(DIST, 'src', 'sources', 'local-dir-source.js')) || !existsSync(join(DIST, 'src', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before this test');
  }
  runtime = await prepareOtherUserRuntime();
}, 120_000);

afterAll(async () => {
  await runtime?.remove();
});

/** Skips a test that needs a child of the other user where none can run, saying why. */
function skipWithoutOtherUser(context: TestContext): void {
  if (runtime.unavailable) context.skip(runtime.unavailable);
}

function summarise(listing: Listing): string[] {
  return listing.entries.map((entry) =>
    entry.kind === 'file' ? `file:${entry.file.relativePath}` : `skipped:${entry.relativePath}:${entry.reason}`,
  );
}

describe('LocalDirSource as a user who may not read everything', () => {
  let base: string;
  let root: string;

  beforeEach(async () => {
    base = await makeTempDir();
    root = await makeTree(base);
  });

  afterEach(async () => {
    await removeTree(base, root);
  });

  async function listAs(asNobody: boolean): Promise<Listing> {
    const [node, dist] = asNobody ? [runtime.node, runtime.dist] : [process.execPath, DIST];
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: base };
    const result = await runProcess(node, ['--input-type=module', '-e', LISTER, pathToFileURL(dist).href, root], { env, cwd: base, asNobody });
    expect(result.spawnError, result.stderr).toBeUndefined();
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as Listing;
  }

  it('reports the folder it may not list as unreadable (EACCES) and lists the rest', async (context) => {
    skipWithoutOtherUser(context);
    const listing = await listAs(RUNNING_AS_ROOT);

    expect(listing.uid).toBe(RUNNING_AS_ROOT ? NOBODY : process.getuid?.());
    expect(summarise(listing)).toEqual(['skipped:locked:unreadable', 'file:open.pdf', 'file:private.pdf', 'file:sub/visible.docx']);
    expect(listing.entries[0]).toMatchObject({ kind: 'skipped', relativePath: 'locked', reason: 'unreadable', detail: 'EACCES' });
  });

  it('lists a file it may not read, then fails opening it with SOURCE_UNREADABLE (permission denied), the others readable', async (context) => {
    skipWithoutOtherUser(context);
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

describe('docmill run as a user who may not read everything', () => {
  const workspace = useCliWorkspace({ lifetime: 'suite', faultServer: { latencyMs: 20 }, queue: true });
  let base: string;
  let root: string | undefined;
  let home: string;
  let out: string;
  let queue: string;
  let server: FaultParseServer;
  let run: ChildResult;

  beforeAll(async () => {
    ({ src: base, home, out, queue, server } = workspace);
    if (runtime.unavailable) return;
    root = await makeTree(base);
    // The child, as nobody, writes its HOME and the output folder (made in outParent).
    await giveToNobody(home);
    await giveToNobody(workspace.outParent);
    const env = docmillEnv({ home, apiUrl: server.url, apiKey: 'dm-unreadable-key', redisUrl: SHARED_REDIS_URL });
    run = await runProcess(runtime.node, [runtime.bin, 'run', root, '--out', out, '--queue', queue], {
      env,
      cwd: base,
      asNobody: RUNNING_AS_ROOT,
      timeoutMs: 90_000,
    });
  }, 120_000);

  afterAll(async () => {
    // Open again for the workspace to remove it.
    if (root) await chmod(join(root, 'locked'), 0o755).catch(() => undefined);
  });

  it('converts what it may read, fails the file it may not (SOURCE_UNREADABLE, permission denied), exits 1', async (context) => {
    skipWithoutOtherUser(context);
    expect(run.spawnError, run.stderr).toBeUndefined();
    expect(run.signal, run.stderr.slice(-2000)).toBeNull();
    expect(run.code, run.stderr.slice(-2000)).toBe(1);

    // Only the readable files were sent; nothing of the locked folder, nothing of the private file.
    expect(server.requests.map((request) => request.filename).sort()).toEqual(['open.pdf', 'visible.docx']);
    await expectOutputs(out, OPEN);
    await expectOutputs(out, DEEPER);
    const outputs = await listFiles(out);
    expect(outputs.filter((path) => path.startsWith('private.pdf') || path.startsWith('locked/'))).toEqual([]);

    const byPath = lastLineByPath(await readManifest(out));
    expect(byPath.get(OPEN.path)?.status).toBe('converted');
    expect(byPath.get(DEEPER.path)?.status).toBe('converted');
    expect(byPath.get(PRIVATE.path)).toMatchObject({ status: 'failed', outputs: [], error: { code: 'SOURCE_UNREADABLE' } });
    expect(byPath.get(PRIVATE.path)?.error?.message).toContain('permission denied (EACCES)');
    expect((await readFailures(out)).map((line: ManifestLine) => line.path)).toContain(PRIVATE.path);
  });

  it('records the folder it may not list as failed (SOURCE_UNREADABLE, EACCES), naming it', async (context) => {
    skipWithoutOtherUser(context);
    const locked = lastLineByPath(await readManifest(out)).get('locked');
    expect(locked, `a manifest line for the folder "locked"; stderr:\n${run.stderr.slice(-1500)}`).toBeDefined();
    expect(locked).toMatchObject({ status: 'failed', outputs: [], error: { code: 'SOURCE_UNREADABLE' } });
    expect(locked?.error?.message).toContain('EACCES');
    expect((await readFailures(out)).map((line) => line.path)).toContain('locked');
  });
});
