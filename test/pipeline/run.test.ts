/**
 * `docmill run` end to end: the built CLI as a child process, a real Redis (the shared one on REDIS_URL with a
 * unique queue per test, or the embedded redis-server under <out>/_docmill/redis), and a loopback /v2/parse server
 * with latency and fault injection.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import {
  docmillEnv,
  listFiles,
  queueKeys,
  runDocmill,
  SHARED_REDIS_URL,
  startDocmill,
  waitFor,
} from '../helpers/docmill-cli.js';
import { expectedMarkdown, successData, type FaultParseServer } from '../helpers/fault-parse-server.js';
import {
  baseName,
  expectConvertedLine,
  expectOutputs,
  fileOf,
  lastLineByPath,
  manyFiles,
  readFailures,
  readManifest,
  temporaryFiles,
  writeTree,
  type TreeFile,
} from './pipeline-fixtures.js';

const KEY = 'dm-pipeline-key-7c1d';

const workspace = useCliWorkspace({ faultServer: { latencyMs: 20 }, queue: true });
let server: FaultParseServer;
let home: string;
let src: string;
let out: string;
let queue: string;

beforeEach(() => {
  ({ server, home, src, out, queue } = workspace);
});

/** Environment using the shared Redis (every command then also gets `--queue <unique>`). */
function sharedEnv(extra: Record<string, string> = {}) {
  return docmillEnv({ home, apiUrl: server.url, apiKey: KEY, redisUrl: SHARED_REDIS_URL, extra });
}

/** Environment without REDIS_URL: docmill starts its embedded redis-server under <out>/_docmill/redis. */
function embeddedEnv() {
  return docmillEnv({ home, apiUrl: server.url, apiKey: KEY });
}

function runShared(...extra: string[]) {
  return runDocmill(['run', src, '--out', out, '--queue', queue, ...extra], sharedEnv());
}

const TREE: TreeFile[] = [
  fileOf('Q1 report/Übersicht 1.html', '<html><body><h1>Übersicht</h1><p>Quartal 1</p></body></html>\n'),
  fileOf('Q1 report/deep/nested folder/plan b.docx', Buffer.from('PK\u0003\u0004 not really a docx, but bytes all the same')),
  fileOf('日本/報告.csv', '名前,値\nα,1\nβ,2\n'),
  fileOf('top level.pdf', '%PDF-1.4\n% a tiny stand-in\n%%EOF\n'),
];
const UNSUPPORTED = fileOf('Q1 report/readme.txt', 'plain text is not a supported extension');

describe('docmill run: a tree into a local folder', () => {
  it('converts every supported file of a nested Unicode tree, with a complete manifest and no temporary files (embedded Redis)', async () => {
    await writeTree(src, [...TREE, UNSUPPORTED]);

    const result = await runDocmill(['run', src, '--out', out], embeddedEnv());

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/4 converted, 0 skipped, 0 failed, 1 not converted/);
    expect(result.stderr).toMatch(/not converted: 1 unsupported extension \(\.txt 1\)/);
    // Each supported file was requested once, under its own name; the .txt never.
    expect(server.requests.map((request) => request.filename).sort()).toEqual(TREE.map((file) => baseName(file.path)).sort());
    expect(server.requests.every((request) => request.authorization === `Bearer ${KEY}`)).toBe(true);
    for (const file of TREE) await expectOutputs(out, file);
    const files = await listFiles(out);
    expect(files.some((path) => path.startsWith('Q1 report/readme.txt'))).toBe(false);
    expect(await temporaryFiles(out)).toEqual([]);
    expect((await listFiles(src)).filter((path) => path.includes('.docmill-tmp-'))).toEqual([]);

    // The file docmill does not convert is not passed over in silence: the manifest says why.
    const manifest = await readManifest(out);
    expect(manifest).toHaveLength(TREE.length + 1);
    const byPath = lastLineByPath(manifest);
    for (const file of TREE) expectConvertedLine(byPath.get(file.path), file);
    expect(byPath.get(UNSUPPORTED.path)).toMatchObject({ status: 'skipped', reason: 'unsupported extension', extension: '.txt', outputs: [] });
    expect(await readFailures(out)).toEqual([]);
  });

  it('reruns cost nothing for unchanged files, exactly one request for a changed one, and --force redoes all (embedded Redis)', async () => {
    await writeTree(src, [...TREE, UNSUPPORTED]);
    const args = ['run', src, '--out', out];
    const first = await runDocmill(args, embeddedEnv());
    expect(first.code, first.stderr).toBe(0);
    expect(server.requests).toHaveLength(TREE.length);

    server.clearRequests();
    const second = await runDocmill(args, embeddedEnv());
    expect(second.code, second.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(second.stderr).toMatch(/0 converted, 4 skipped, 0 failed/);
    for (const file of TREE) await expectOutputs(out, file);

    const changed = fileOf(TREE[2]!.path, `${TREE[2]!.content.toString('utf8')}γ,3\n`);
    await writeFile(join(src, ...changed.path.split('/')), changed.content);
    server.clearRequests();
    const third = await runDocmill(args, embeddedEnv());
    expect(third.code, third.stderr).toBe(0);
    expect(server.requests.map((request) => request.filename)).toEqual([baseName(changed.path)]);
    await expectOutputs(out, changed);
    expectConvertedLine(lastLineByPath(await readManifest(out)).get(changed.path), changed);

    server.clearRequests();
    const forced = await runDocmill([...args, '--force'], embeddedEnv());
    expect(forced.code, forced.stderr).toBe(0);
    expect(server.requests.map((request) => request.filename).sort()).toEqual(TREE.map((file) => baseName(file.path)).sort());
    expect(await temporaryFiles(out)).toEqual([]);
  }, 90_000);

  it('converts files whose names are not UTF-8 (an archive from Latin-1 days) under names with their bytes as %XX, and finds them unchanged on a rerun', async (context) => {
    const latin1 = (name: string): Buffer => Buffer.concat([Buffer.from(`${src}/`), Buffer.from(name, 'latin1')]);
    try {
      await mkdir(latin1('Dossier \xe9t\xe9'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EILSEQ') context.skip(); // a file system that takes UTF-8 names only
      throw error;
    }
    await writeFile(latin1('Dossier \xe9t\xe9/R\xe9sum\xe9.html'), '<html><body><p>the r\u00e9sum\u00e9</p></body></html>\n');
    await writeFile(latin1('Caf\xe9.html'), '<html><body><p>the caf\u00e9</p></body></html>\n');

    const first = await runShared();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/2 converted, 0 skipped, 0 failed/);
    expect(server.requests.map((request) => request.filename).sort()).toEqual(['Caf%E9.html', 'R%E9sum%E9.html']);
    const outputs = await listFiles(out);
    expect(outputs).toContain('Dossier %E9t%E9/R%E9sum%E9.html.md');
    expect(outputs).toContain('Caf%E9.html.md');
    expect(lastLineByPath(await readManifest(out)).get('Caf%E9.html')).toMatchObject({ status: 'converted' });

    server.clearRequests();
    const second = await runShared();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/0 converted, 2 skipped, 0 failed/);
    expect(server.requests).toHaveLength(0);
  });

  it('counts the files --include and --exclude leave out, and says how globs match when they leave out everything', async () => {
    await writeTree(src, TREE);

    const none = await runShared('--include', '*.html');
    expect(none.code, none.stderr).toBe(0);
    // `top level.pdf`, and the two folders whole: `*.html` matches nothing below them, so they are not entered.
    expect(none.stderr).toMatch(/0 converted, 0 skipped, 0 failed, 3 excluded by --include\/--exclude/);
    expect(none.stderr).toMatch(/every file was excluded: globs match the path below the source \(`\*\.pdf` at its top only, `\*\*\/\*\.pdf` at any depth\)/);
    expect(server.requests).toHaveLength(0);

    const some = await runShared('--include', '**/*.html', '--exclude', '日本/**');
    expect(some.code, some.stderr).toBe(0);
    // One HTML file converted; the PDF, the DOCX and the folder 日本 (once, not entered) left out.
    expect(some.stderr).toMatch(/1 converted, 0 skipped, 0 failed, 3 excluded by --include\/--exclude/);
    expect(some.stderr).not.toMatch(/every file was excluded/);
    expect(server.requests.map((request) => request.filename)).toEqual(['Übersicht 1.html']);
  });

  it('parses identical content at two paths once and writes both outputs', async () => {
    const content = '<html><body><p>the same bytes twice</p></body></html>\n';
    const first = fileOf('a/same.html', content);
    const second = fileOf('b/copy of same.html', content);
    const other = fileOf('c/other.html', '<p>different</p>\n');
    await writeTree(src, [first, second, other]);

    const result = await runShared();

    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(2);
    const parsedTwin = server.requests.find((request) => request.filename !== 'other.html');
    expect([baseName(first.path), baseName(second.path)]).toContain(parsedTwin?.filename);
    const [parsed, copied] = parsedTwin?.filename === baseName(first.path) ? [first, second] : [second, first];
    // Both outputs hold what the one parse returned.
    await expectOutputs(out, parsed);
    await expectOutputs(out, copied, baseName(parsed.path));

    const byPath = lastLineByPath(await readManifest(out));
    expectConvertedLine(byPath.get(parsed.path), parsed);
    expect(byPath.get(copied.path)).toMatchObject({
      status: 'skipped',
      outputs: [`${copied.path}.md`, `${copied.path}.json`],
    });
    expect(byPath.get(copied.path)?.reason).toContain(parsed.path);
    expect(byPath.get(copied.path)?.creditsUsed ?? 0).toBe(0);
  });

  it('writes .pages.json and .blocks.json with --pages --blocks', async () => {
    const pdf = fileOf('scans/report.pdf', '%PDF-1.4\n% pages and blocks\n%%EOF\n');
    await writeTree(src, [pdf]);

    const result = await runShared('--pages', '--blocks');

    expect(result.code, result.stderr).toBe(0);
    const options = server.requests[0]?.options as { parsers?: Array<Record<string, unknown>> };
    expect(options.parsers?.[0]).toMatchObject({ type: 'pdf', pages: true, blocks: true });
    const sent = successData('report.pdf', pdf.content.length, { pages: true, blocks: true });
    const base = join(out, 'scans', 'report.pdf');
    expect(await readFile(`${base}.md`, 'utf8')).toBe(expectedMarkdown('report.pdf', pdf.content.length));
    expect(JSON.parse(await readFile(`${base}.pages.json`, 'utf8'))).toEqual(sent.pages);
    expect(JSON.parse(await readFile(`${base}.blocks.json`, 'utf8'))).toEqual(sent.blocks);
    expect(JSON.parse(await readFile(`${base}.json`, 'utf8'))).toEqual({ metadata: { numPages: 1, creditsUsed: 1 } });
    expect(lastLineByPath(await readManifest(out)).get(pdf.path)?.outputs).toEqual([
      'scans/report.pdf.md',
      'scans/report.pdf.json',
      'scans/report.pdf.pages.json',
      'scans/report.pdf.blocks.json',
    ]);
  });
});

describe('docmill run: the API pushes back', () => {
  it('waits out every Retry-After of a 429 storm and still converts every file', async () => {
    const files = manyFiles(30);
    await writeTree(src, files);
    server.setMode({ latencyMs: 50, concurrencyCap: 2, retryAfterSeconds: 2 });

    const result = await runShared('--concurrency', '8');

    expect(result.code, result.stderr).toBe(0);
    for (const file of files) await expectOutputs(out, file);
    const manifest = await readManifest(out);
    expect(manifest.filter((line) => line.status === 'failed')).toEqual([]);
    expect(new Set(manifest.filter((line) => line.status === 'converted').map((line) => line.path))).toEqual(
      new Set(files.map((file) => file.path)),
    );
    expect(await readFailures(out)).toEqual([]);

    const throttled = server.requests.filter((request) => request.status === 429);
    expect(throttled.length, 'the cap should have been hit at --concurrency 8').toBeGreaterThan(0);
    expect(server.maxInFlight).toBeLessThanOrEqual(2);
    const early: string[] = [];
    for (const refusal of throttled) {
      const next = server.requests.find((request) => request.filename === refusal.filename && request.index > refusal.index);
      expect(next, `a retry of ${refusal.filename}`).toBeDefined();
      const waited = next!.arrivedAt - refusal.answeredAt!;
      if (waited < 2000) early.push(`${refusal.filename}: retried ${waited.toFixed(0)} ms after a 429 with Retry-After: 2`);
    }
    expect(early).toEqual([]);
  }, 120_000);

  it('pauses on 402 without failing anything, shows it in status, and finishes after resume', async () => {
    const files = manyFiles(16);
    await writeTree(src, files);
    server.setMode({
      latencyMs: 150,
      faults: [{ afterSuccesses: 5, reply: { status: 402, json: { success: false, error: 'Payment required to access this resource.' } } }],
    });
    const env = sharedEnv();
    const run = startDocmill(['run', src, '--out', out, '--queue', queue, '--concurrency', '2'], env);

    const status = await waitFor(
      'docmill status to report the credits pause',
      async () => {
        const result = await runDocmill(['status', '--out', out, '--queue', queue, '--json'], env);
        if (result.code !== 0) throw new Error(result.stderr);
        const report = JSON.parse(result.stdout) as { paused: false | { kind: string; message: string }; counts: Record<string, number> };
        return report.paused ? report : undefined;
      },
      { timeoutMs: 45_000, intervalMs: 500 },
    );
    expect(status.paused).toMatchObject({ kind: 'credits' });
    expect(run.running, `run exited while paused:\n${run.stderr}`).toBe(true);
    expect(server.requests.filter((request) => request.status === 402).length).toBeGreaterThan(0);
    // Paused, nothing failed; that the run waited rather than gave up shows below: once resumed, it converts every
    // file and exits 0.
    expect((await readManifest(out)).filter((line) => line.status === 'failed')).toEqual([]);
    expect(await readFailures(out)).toEqual([]);
    expect(status.counts.failed ?? 0).toBe(0);

    server.setMode({ latencyMs: 20 });
    const resumed = await runDocmill(['resume', '--out', out, '--queue', queue], env);
    expect(resumed.code, resumed.stderr).toBe(0);

    const result = await waitForExit(run, 60_000);
    expect(result.code, result.stderr).toBe(0);
    for (const file of files) await expectOutputs(out, file);
    const manifest = await readManifest(out);
    expect(manifest.filter((line) => line.status === 'failed')).toEqual([]);
    expect(new Set(manifest.map((line) => line.path))).toEqual(new Set(files.map((file) => file.path)));
    expect(await readFailures(out)).toEqual([]);
  }, 150_000);

  it('stops on 401 with exit code 3 and the API message, failing no document', async () => {
    await writeTree(src, manyFiles(6));
    server.setMode({ faults: [{ reply: { status: 401, json: { success: false, error: 'Unauthorized: Invalid token' } } }] });

    const result = await runShared('--concurrency', '2');

    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('HTTP 401');
    expect(result.stderr).toContain('Unauthorized: Invalid token');
    expect(result.stderr).not.toContain(KEY);
    expect((await readManifest(out)).filter((line) => line.status === 'failed')).toEqual([]);
    expect(await readFailures(out)).toEqual([]);
  }, 60_000);

  it('stops with exit 3 when the API URL answers 404 (it names no parse API), failing no document, and resumes once it does', async () => {
    const files = manyFiles(30);
    await writeTree(src, files);
    server.setMode({ faults: [{ reply: { status: 404, body: '<html><body><h1>Not Found</h1></body></html>' } }] });

    const stopped = await runShared('--concurrency', '2');

    expect(stopped.code, stopped.stderr).toBe(3);
    expect(stopped.stderr).toContain("docmill: run stopped: the parse API's URL answered HTTP 404 to POST /v2/parse");
    expect(stopped.stderr).toContain('check --api-url (or DOCMILL_API_URL): it should be the API base');
    // Not every document was sent to learn the same thing.
    expect(server.requests.length).toBeLessThan(files.length);
    expect(await readFailures(out)).toEqual([]);

    server.setMode({});
    const resumed = await runShared('--concurrency', '2');
    expect(resumed.code, resumed.stderr).toBe(0);
    for (const file of files) await expectOutputs(out, file);
  }, 60_000);

  // /dev/full answers every write with ENOSPC, as a full disk does; Linux has it (the CI's machines are Linux).
  it.skipIf(!existsSync('/dev/full'))('stops at an output that takes no more writes with exit 3, failing nothing, and resumes once there is room', async () => {
    const files = manyFiles(40);
    await writeTree(src, files);
    const manifest = join(out, '_docmill', 'manifest.jsonl');
    await mkdir(dirname(manifest), { recursive: true });
    await symlink('/dev/full', manifest);

    const stopped = await runShared('--concurrency', '2');

    expect(stopped.code, stopped.stderr).toBe(3);
    expect(stopped.stderr).toContain('docmill: run stopped: the output cannot be written: no space left on the device (writing _docmill/manifest.jsonl)');
    expect(stopped.stderr).toContain('no document was marked failed');
    // Sending stopped at the first refused write: not every document was parsed only to be lost.
    expect(server.requests.length).toBeLessThan(files.length);
    const status = await runDocmill(['status', '--out', out, '--queue', queue, '--json'], sharedEnv());
    const report = JSON.parse(status.stdout) as { counts: Record<string, number> };
    expect(report.counts.failed ?? 0).toBe(0);
    expect(report.counts.waiting).toBe(files.length);

    await rm(manifest);
    const resumed = await runShared('--concurrency', '2');
    expect(resumed.code, resumed.stderr).toBe(0);
    for (const file of files) await expectOutputs(out, file);
    // Those whose outputs were written before the first refused line are found unchanged; none failed, none lost.
    const lines = await readManifest(out);
    expect(lines.filter((line) => line.status !== 'converted' && line.status !== 'skipped')).toEqual([]);
    expect(new Set(lines.map((line) => line.path))).toEqual(new Set(files.map((file) => file.path)));
  }, 60_000);

  it('fails one document on a non-retryable 400, records it, lists it, and converts it on a rerun', async () => {
    const files = manyFiles(5);
    const bad = files[2]!;
    await writeTree(src, files);
    const message = 'Invalid multipart form-data request.';
    server.setMode({
      latencyMs: 20,
      faults: [{ filename: baseName(bad.path), reply: { status: 400, json: { success: false, code: 'BAD_REQUEST', error: message } } }],
    });

    const result = await runShared();

    expect(result.code, result.stderr).toBe(1);
    expect(server.requestsFor(baseName(bad.path)), 'a 400 is not retried').toHaveLength(1);
    for (const file of files) if (file !== bad) await expectOutputs(out, file);
    const byPath = lastLineByPath(await readManifest(out));
    expect(byPath.get(bad.path)).toMatchObject({ status: 'failed', outputs: [], error: { status: 400, message } });
    expect(byPath.get(bad.path)?.error?.code).toMatch(/BAD_REQUEST/);
    for (const file of files) if (file !== bad) expect(byPath.get(file.path)?.status).toBe('converted');
    const failures = await readFailures(out);
    expect(failures.map((line) => line.path)).toEqual([bad.path]);
    expect(failures[0]?.error).toMatchObject({ status: 400, message });

    const listed = await runDocmill(['failed', '--out', out, '--queue', queue], sharedEnv());
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(bad.path);

    server.setMode({ latencyMs: 20 });
    server.clearRequests();
    const rerun = await runShared();
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(server.requests.map((request) => request.filename)).toEqual([baseName(bad.path)]);
    await expectOutputs(out, bad);
    expect(lastLineByPath(await readManifest(out)).get(bad.path)?.status).toBe('converted');
  }, 90_000);

  it('a rerun with other options tries a failed document once, with the new options, and records it once', async () => {
    const files = manyFiles(3);
    const bad = files[1]!;
    await writeTree(src, files);
    server.setMode({
      latencyMs: 20,
      faults: [{ filename: baseName(bad.path), reply: { status: 400, json: { success: false, code: 'BAD_REQUEST', error: 'Invalid multipart form-data request.' } } }],
    });
    expect((await runShared()).code).toBe(1);
    const failedBefore = (await readFailures(out)).length;

    // Still refused, now under a 45-s timeout: the job queued under the first options is not tried as well.
    server.clearRequests();
    const rerun = await runShared('--timeout', '45000');
    expect(rerun.code, rerun.stderr).toBe(1);
    const sent = server.requests.filter((request) => request.filename === baseName(bad.path));
    expect(sent.map((request) => (request.options as { timeout?: number } | undefined)?.timeout)).toEqual([45000]);
    expect((await readFailures(out)).slice(failedBefore).map((line) => line.path)).toEqual([bad.path]);
    expect(rerun.stderr).toMatch(/\b1 failed\b/);
  }, 90_000);
});

describe('docmill run: refused before anything is sent', () => {
  it('exits 2 on invalid options, sending and queueing nothing', async () => {
    await writeTree(src, manyFiles(3));

    const result = await runShared('--max-pages', '0');

    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/maxPages/);
    expect(server.requests).toHaveLength(0);
    expect(await queueKeys(queue)).toEqual([]);
  });

  it('exits 2 naming a source that does not exist', async () => {
    const missing = join(src, 'no such folder');

    const result = await runDocmill(['run', missing, '--out', out, '--queue', queue], sharedEnv());

    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(missing);
    expect(result.stderr).toMatch(/does not exist/);
    expect(server.requests).toHaveLength(0);
    expect(await queueKeys(queue)).toEqual([]);
  });

  it('exits 2 when the output folder is the source folder itself, and converts into a folder that holds the source', async () => {
    const holder = join(home, 'archive');
    const docs = join(holder, 'docs');
    const files = manyFiles(2);
    await writeTree(docs, files);

    const same = await runDocmill(['run', docs, '--out', docs, '--queue', queue], sharedEnv());
    expect(same.code, same.stderr).toBe(2);
    expect(same.stderr).toContain(`docmill: Invalid output location ${JSON.stringify(docs)}: it is the source folder itself`);
    expect(server.requests).toHaveLength(0);

    // `docmill run ./docs --out .`: the outputs go beside the source, which is listed whole.
    const beside = await runDocmill(['run', docs, '--out', holder, '--queue', queue], sharedEnv());
    expect(beside.code, beside.stderr).toBe(0);
    expect(beside.stderr).toContain('docmill: 2 converted');
    expect(server.requests).toHaveLength(2);
    for (const file of files) await expectOutputs(holder, file);
  });

  it('exits 2 naming an output folder it cannot write, before starting a Redis there (embedded Redis)', async () => {
    await writeTree(src, manyFiles(2));
    const blocker = join(home, 'a file');
    await writeFile(blocker, 'not a folder');
    const unwritable = join(blocker, 'out');

    const result = await runDocmill(['run', src, '--out', unwritable], embeddedEnv());

    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trim()).toBe(`docmill: Invalid output location ${JSON.stringify(unwritable)}: cannot write there: a file, not a folder, is in the way`);
    expect(server.requests).toHaveLength(0);
  });
});

async function waitForExit(proc: ReturnType<typeof startDocmill>, timeoutMs: number) {
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  try {
    const result = await proc.exited;
    if (result.signal === 'SIGKILL') throw new Error(`docmill did not exit within ${timeoutMs} ms:\n${result.stderr.slice(-4000)}`);
    return result;
  } finally {
    clearTimeout(timer);
  }
}
