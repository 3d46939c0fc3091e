/**
 * `docmill run` on its embedded Redis, SIGKILLed mid-run (its whole process group, as a crash or an OOM kill of the
 * session would), then run again with the same command: the rerun finishes the job. Every output is present and
 * byte-identical to a clean run's, documents finished before the kill are not parsed again (only those in flight
 * at the kill may be), the manifest ends complete, and no temporary file is left.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useCliWorkspace } from '../helpers/cli-workspace.js';
import {
  DOCMILL_BIN,
  docmillEnv,
  listFiles,
  runDocmill,
  stopEmbeddedRedis,
  waitFor,
  type ManifestLine,
} from '../helpers/docmill-cli.js';
import type { FaultParseServer, FaultRecord } from '../helpers/fault-parse-server.js';
import {
  baseName,
  expectConvertedLine,
  fileOf,
  lastLineByPath,
  manyFiles,
  readFailures,
  readManifest,
  temporaryFiles,
  writeTree,
  type TreeFile,
} from './pipeline-fixtures.js';

const CONCURRENCY = 3;
const FILES: TreeFile[] = [
  ...manyFiles(24),
  fileOf('Berichte/Übersicht Q1.html', '<html><body><h1>Übersicht</h1><p>Quartal 1</p></body></html>\n'),
  fileOf('日本/報告.csv', '名前,値\nα,1\nβ,2\n'),
];

let server: FaultParseServer;
let home: string;
let src: string;
let out: string;
let clean: string;
let group: ChildProcess | undefined;

const workspace = useCliWorkspace({ faultServer: { latencyMs: 20 }, afterChildren: () => stopEmbeddedRedis(clean) });

beforeEach(() => {
  ({ server, home, src, out } = workspace);
  clean = join(workspace.outParent, 'clean');
});

afterEach(() => {
  if (group?.pid !== undefined && group.exitCode === null && group.signalCode === null) killGroup(group.pid);
  group = undefined;
});

/** No REDIS_URL: docmill starts its embedded redis-server under <out>/_docmill/redis. */
function embeddedEnv() {
  return docmillEnv({ home, apiUrl: server.url, apiKey: 'dm-crash-key' });
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** `docmill run` as the leader of its own process group, so the whole group can be killed at once. */
function startRunInOwnGroup(args: string[]): { child: ChildProcess; exited: Promise<{ signal: NodeJS.Signals | null; stderr: string }> } {
  const child = spawn(process.execPath, [DOCMILL_BIN, ...args], { env: embeddedEnv(), detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<{ signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.once('close', (_code, signal) => resolve({ signal, stderr })),
  );
  return { child, exited };
}

/** Every output (the mirrored tree, not docmill's own `_docmill/` folder) with its bytes. */
async function outputsOf(root: string): Promise<Map<string, Buffer>> {
  const paths = (await listFiles(root)).filter((path) => !path.startsWith('_docmill/'));
  return new Map(await Promise.all(paths.map(async (path) => [path, await readFile(join(root, ...path.split('/')))] as const)));
}

function converted(lines: readonly ManifestLine[]): Set<string> {
  return new Set(lines.filter((line) => line.status === 'converted').map((line) => line.path));
}

function successfulParses(requests: readonly FaultRecord[], filename: string): number {
  return requests.filter((request) => request.filename === filename && request.status === 200).length;
}

describe('docmill run: SIGKILLed mid-run on the embedded Redis, then run again', () => {
  it('finishes on the rerun with outputs identical to a clean run, re-parsing only what was in flight', async () => {
    await writeTree(src, FILES);
    // Distinct base names: the server records requests by the uploaded file's name.
    expect(new Set(FILES.map((file) => baseName(file.path))).size).toBe(FILES.length);

    const cleanRun = await runDocmill(['run', src, '--out', clean], embeddedEnv(), 120_000);
    expect(cleanRun.code, cleanRun.stderr).toBe(0);
    const reference = await outputsOf(clean);
    expect(reference.size).toBe(FILES.length * 2);

    // The crashed run: a slow API, so the kill lands with documents done, documents in flight, and documents queued.
    server.clearRequests();
    server.setMode({ latencyMs: 400 });
    const args = ['run', src, '--out', out, '--concurrency', String(CONCURRENCY)];
    const crashed = startRunInOwnGroup(args);
    group = crashed.child;
    // Killed once a request is out, so that the kill lands on one in flight (a loaded machine can otherwise catch the
    // run between its requests, and the case this test is about would not be tried).
    const inFlight = () => server.requests.some((request) => request.status === undefined && request.aborted !== true);
    await waitFor('about a quarter of the documents converted, and a request in flight', async () => converted(await readManifest(out)).size >= 6 && inFlight(), {
      timeoutMs: 90_000,
      intervalMs: 50,
    });
    killGroup(crashed.child.pid!);
    const killed = await crashed.exited;
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    const doneAtKill = converted(await readManifest(out));
    const requestedBeforeKill = [...server.requests];
    expect(doneAtKill.size, 'the kill should land mid-run').toBeLessThan(FILES.length);

    server.setMode({ latencyMs: 100 });
    const rerun = await runDocmill(args, embeddedEnv(), 120_000);
    expect(rerun.code, rerun.stderr).toBe(0);
    const rerunRequests = server.requests.slice(requestedBeforeKill.length);

    // Every output present and byte-identical to the clean run's; nothing half-written anywhere.
    const outputs = await outputsOf(out);
    expect([...outputs.keys()].sort()).toEqual([...reference.keys()].sort());
    const differing = [...reference].filter(([path, bytes]) => !outputs.get(path)?.equals(bytes)).map(([path]) => path);
    expect(differing).toEqual([]);
    expect(await temporaryFiles(out)).toEqual([]);
    expect((await listFiles(src)).filter((path) => path.includes('.docmill-tmp-'))).toEqual([]);

    // Nothing recorded as converted before the kill was parsed again. A document parsed twice had a request out
    // before the kill (its job was open: in flight, or answered but not yet recorded), so there are at most as many
    // as --concurrency; every other document was parsed exactly once.
    const reparsedDone = FILES.filter((file) => doneAtKill.has(file.path) && rerunRequests.some((r) => r.filename === baseName(file.path)));
    expect(reparsedDone.map((file) => file.path)).toEqual([]);
    expect(requestedBeforeKill.some((request) => request.status !== 200), 'a request in flight at the kill').toBe(true);
    const requestedBefore = new Set(requestedBeforeKill.map((request) => request.filename));
    const parseCounts = FILES.map((file) => ({ path: file.path, parses: successfulParses(server.requests, baseName(file.path)) }));
    const parsedTwice = parseCounts.filter(({ parses }) => parses === 2).map(({ path }) => path);
    const unexpected = parseCounts.filter(
      ({ path, parses }) => parses === 0 || parses > 2 || (parses === 2 && !requestedBefore.has(baseName(path))),
    );
    expect(unexpected).toEqual([]);
    expect(parsedTwice.length, `parsed twice: ${parsedTwice.join(', ')}`).toBeLessThanOrEqual(CONCURRENCY);

    // The manifest is final: every document converted (by one run or the other) with its outputs, none failed.
    // (The next test makes sure of the narrowest window: a kill between a document's state and its manifest line.)
    const manifest = await readManifest(out);
    expect(manifest.filter((line) => line.status === 'failed')).toEqual([]);
    expect(await readFailures(out)).toEqual([]);
    const convertedLines = new Map(manifest.filter((line) => line.status === 'converted').map((line) => [line.path, line]));
    for (const file of FILES) expectConvertedLine(convertedLines.get(file.path), file);
    const last = lastLineByPath(manifest);
    expect(new Set(last.keys())).toEqual(new Set(FILES.map((file) => file.path)));
    for (const file of FILES) {
      expect(['converted', 'skipped'], file.path).toContain(last.get(file.path)?.status);
      expect(last.get(file.path)?.outputs, file.path).toEqual([`${file.path}.md`, `${file.path}.json`]);
    }

    // A third run finds nothing left to do.
    server.clearRequests();
    const again = await runDocmill(args, embeddedEnv(), 60_000);
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests).toEqual([]);
  }, 300_000);

  it('keeps the record of a conversion when the kill lands after its outputs were written but before its manifest line', async () => {
    await writeTree(src, FILES);
    // The manifest is a FIFO nobody reads: appending a line blocks in open(), so every document stops right after
    // its outputs (and what docmill keeps to skip it next time) are written, before its manifest line is. The kill
    // then lands exactly in that window, as it can by chance in the test above.
    await mkdir(join(out, '_docmill'), { recursive: true });
    const manifestPath = join(out, '_docmill', 'manifest.jsonl');
    const made = spawnSync('mkfifo', [manifestPath]);
    expect(made.status, made.stderr?.toString()).toBe(0);

    server.setMode({ latencyMs: 50 });
    const args = ['run', src, '--out', out, '--concurrency', String(CONCURRENCY)];
    const crashed = startRunInOwnGroup(args);
    group = crashed.child;
    const written = await waitFor(
      'outputs of the first documents, stuck before their manifest lines',
      async () => {
        const outputs = await outputsOf(out);
        const done = FILES.filter((file) => outputs.has(`${file.path}.md`) && outputs.has(`${file.path}.json`));
        return done.length >= 1 ? done : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    // Time for what follows the outputs (the skip state) to be written too; the manifest append stays blocked.
    await delay(1000);
    killGroup(crashed.child.pid!);
    expect((await crashed.exited).signal).toBe('SIGKILL');
    await unlink(manifestPath);

    server.clearRequests();
    const rerun = await runDocmill(args, embeddedEnv(), 120_000);
    expect(rerun.code, rerun.stderr).toBe(0);

    const manifest = await readManifest(out);
    const convertedLines = new Map(manifest.filter((line) => line.status === 'converted').map((line) => [line.path, line]));
    const parsedOnlyBeforeKill = written.filter((file) => !server.requests.some((request) => request.filename === baseName(file.path)));
    // A document parsed (and paid for) before the kill and not parsed again must still have its `converted` line,
    // with its pages and credits: otherwise the manifest under-reports what the run did.
    expect(
      parsedOnlyBeforeKill.filter((file) => !convertedLines.has(file.path)).map((file) => `${file.path}: ${JSON.stringify(lastLineByPath(manifest).get(file.path))}`),
    ).toEqual([]);
    for (const file of FILES) expectConvertedLine(convertedLines.get(file.path), file);
  }, 300_000);
});
