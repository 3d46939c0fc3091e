/**
 * Outputs that follow their sources, end to end with the built CLI: `docmill run` after a file of the previous run
 * vanished or was renamed, and `docmill watch <folder>` seeing a file unlinked and another renamed. With
 * `--removed delete` every output of the file goes (Markdown, JSON, pages, blocks, chunks) with its state and the
 * folders it leaves empty; with `keep` (the default) they stay. Either way the manifest records the file as `removed`,
 * once, and the summary counts it. A renamed file's outputs are copied to its new name, never parsed again.
 */
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  builtCliExists,
  deleteQueueKeys,
  docmillEnv,
  killAllDocmill,
  runDocmill,
  SHARED_REDIS_URL,
  startDocmill,
  uniqueQueueName,
  waitFor,
} from '../helpers/docmill-cli.js';
import { startFaultParseServer, type FaultParseServer } from '../helpers/fault-parse-server.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { fileOf, lastLineByPath, manyFiles, readFailures, readManifest, recordedState, writeTree } from './pipeline-fixtures.js';

const OUTPUT_SUFFIXES = ['.md', '.json', '.pages.json', '.blocks.json', '.chunks.jsonl'];
let server: FaultParseServer;
let home: string;
let src: string;
let outParent: string;
let out: string;
let queue: string;

beforeAll(() => {
  if (!builtCliExists()) throw new Error('dist/ is missing: run `npm run build` before the pipeline tests');
});

beforeEach(async () => {
  [home, src, outParent] = await Promise.all([makeTempDir(), makeTempDir(), makeTempDir()]);
  out = join(outParent, 'out');
  queue = uniqueQueueName();
  server = await startFaultParseServer({ latencyMs: 5 });
});

afterEach(async () => {
  await killAllDocmill();
  await server.close();
  await deleteQueueKeys(queue);
  await Promise.all([removeTempDir(home), removeTempDir(src), removeTempDir(outParent)]);
});

function env() {
  return docmillEnv({ home, apiUrl: server.url, redisUrl: SHARED_REDIS_URL });
}

async function exists(path: string): Promise<boolean> {
  return stat(join(out, path)).then(() => true, () => false);
}

const FILES = [fileOf('kept.html', '<h1>kept</h1><p>stays</p>'), fileOf('sub dir/gone é.html', '<h1>gone</h1><p>vanishes</p>')];
const GONE = 'sub dir/gone é.html';

describe('docmill run after a source file vanished', () => {
  for (const removed of ['keep', 'delete'] as const) {
    it(`records it as removed, and with --removed ${removed} ${removed === 'delete' ? 'deletes' : 'keeps'} every output of it`, async () => {
      await writeTree(src, FILES);
      const args = ['run', src, '--out', out, '--queue', queue, '--pages', '--blocks', '--chunks'];
      const first = await runDocmill(args, env());
      expect(first.code, first.stderr).toBe(0);
      for (const suffix of OUTPUT_SUFFIXES) expect(await exists(`${GONE}${suffix}`), suffix).toBe(true);

      await rm(join(src, ...GONE.split('/')));
      const second = await runDocmill([...args, '--removed', removed], env());
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toContain('1 removed');

      const byPath = lastLineByPath(await readManifest(out));
      expect(byPath.get(GONE)).toMatchObject({
        status: 'removed',
        reason: removed === 'delete' ? 'source removed; outputs deleted' : 'source removed; outputs kept',
        outputs: OUTPUT_SUFFIXES.map((suffix) => `${GONE}${suffix}`),
      });
      expect(byPath.get('kept.html')).toMatchObject({ status: 'skipped', reason: 'unchanged' });
      for (const suffix of OUTPUT_SUFFIXES) {
        expect(await exists(`${GONE}${suffix}`), suffix).toBe(removed === 'keep');
        expect(await exists(`kept.html${suffix}`), suffix).toBe(true);
      }
      // Kept: the state stays, marked removed; deleted: no state is left to skip by.
      const state = await recordedState(out, GONE);
      expect(state === undefined ? 'none' : state.removedAt === undefined ? 'live' : 'marked removed').toBe(removed === 'keep' ? 'marked removed' : 'none');
      expect(server.requestsFor('gone é.html')).toHaveLength(1);
      // The folders the deleted outputs emptied are gone; the output root and its bookkeeping stay.
      expect(await exists('sub dir'), 'sub dir').toBe(removed === 'keep');
      expect(await exists('_docmill/records.jsonl')).toBe(true);

      // A third run: the removal is recorded once (with `keep` the state stays, marked removed), and nothing is parsed.
      const third = await runDocmill([...args, '--removed', removed], env());
      expect(third.code, third.stderr).toBe(0);
      expect(third.stderr).not.toMatch(/\d+ removed/);
      const removals = (await readManifest(out)).filter((line) => line.path === GONE && line.status === 'removed');
      expect(removals).toHaveLength(1);
      expect(server.requests).toHaveLength(FILES.length);
      if (removed === 'keep') {
        expect((await recordedState(out, GONE))?.removedAt).toBe(removals[0]!.at);
      }

      // The file back, with other content: it is converted again, and its removal can be recorded anew.
      await writeTree(src, [fileOf(GONE, '<h1>back</h1><p>again</p>')]);
      const fourth = await runDocmill([...args, '--removed', removed], env());
      expect(fourth.code, fourth.stderr).toBe(0);
      expect(lastLineByPath(await readManifest(out)).get(GONE)).toMatchObject({ status: 'converted' });
      expect(server.requestsFor('gone é.html')).toHaveLength(2);
      for (const suffix of OUTPUT_SUFFIXES) expect(await exists(`${GONE}${suffix}`), suffix).toBe(true);
      await rm(join(src, ...GONE.split('/')));
      const fifth = await runDocmill([...args, '--removed', removed], env());
      expect(fifth.code, fifth.stderr).toBe(0);
      expect((await readManifest(out)).filter((line) => line.path === GONE && line.status === 'removed')).toHaveLength(2);
    }, 180_000);
  }

  it('keeps the removal of a file back with the same content recorded once, and converts it without a parse', async () => {
    await writeTree(src, FILES);
    const args = ['run', src, '--out', out, '--queue', queue];
    expect((await runDocmill(args, env())).code).toBe(0);
    const gonePath = join(src, ...GONE.split('/'));
    const { mtime } = await stat(gonePath);
    const body = await readFile(gonePath);
    await rm(gonePath);
    expect((await runDocmill(args, env())).code).toBe(0);
    // Put back exactly as it was, modification time included: the change token the kept state holds.
    await writeFile(gonePath, body);
    await utimes(gonePath, mtime, mtime);
    const back = await runDocmill(args, env());
    expect(back.code, back.stderr).toBe(0);
    const line = lastLineByPath(await readManifest(out)).get(GONE);
    expect(line?.status).not.toBe('removed');
    expect(line?.outputs).toEqual([`${GONE}.md`, `${GONE}.json`]);
    expect(server.requestsFor('gone é.html')).toHaveLength(1);
    // Live again: a later removal is a new one, recorded.
    await rm(gonePath);
    expect((await runDocmill(args, env())).code).toBe(0);
    expect((await readManifest(out)).filter((entry) => entry.path === GONE && entry.status === 'removed')).toHaveLength(2);
  }, 180_000);
});

describe('docmill run after a rename, --removed delete', () => {
  it('copies the outputs to the new name without parsing it, then deletes those of the old name', async () => {
    const renamed = [fileOf('old name.html', '<h1>renamed</h1><p>text</p>'), ...manyFiles(12, 'others')];
    await writeTree(src, renamed);
    const args = ['run', src, '--out', out, '--queue', queue, '--chunks', '--removed', 'delete', '--concurrency', '4'];
    expect((await runDocmill(args, env())).code).toBe(0);
    await mkdir(join(src, 'moved'));
    await rename(join(src, 'old name.html'), join(src, 'moved', 'new name.html'));

    const second = await runDocmill(args, env());
    expect(second.code, second.stderr).toBe(0);
    const byPath = lastLineByPath(await readManifest(out));
    expect(byPath.get('moved/new name.html')).toMatchObject({ status: 'skipped', reason: 'same content as old name.html' });
    expect(byPath.get('old name.html')).toMatchObject({ status: 'removed', reason: 'source removed; outputs deleted' });
    expect(server.requestsFor('new name.html')).toHaveLength(0);
    expect(server.requestsFor('old name.html')).toHaveLength(1);
    for (const suffix of ['.md', '.json', '.chunks.jsonl']) {
      expect(await exists(`moved/new name.html${suffix}`), suffix).toBe(true);
      expect(await exists(`old name.html${suffix}`), suffix).toBe(false);
    }
    expect(await readFailures(out)).toEqual([]);
  }, 120_000);
});

describe('docmill watch <folder> --removed delete', () => {
  it('deletes the outputs of a file unlinked, and of a file renamed those of its old name once copied to the new one', async () => {
    await writeTree(src, [...FILES, fileOf('old name.html', '<p>renamed</p>')]);
    const watch = startDocmill(['watch', src, '--out', out, '--queue', queue, '--removed', 'delete', '--chunks'], env());
    await waitFor(
      'the existing files converted',
      async () => {
        const byPath = lastLineByPath(await readManifest(out));
        return ['kept.html', GONE, 'old name.html'].every((path) => byPath.get(path)?.status === 'converted');
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    await waitFor('the watcher to be running', () => watch.stderr.includes('watching for new and changed files'), { timeoutMs: 20_000 });

    await rm(join(src, ...GONE.split('/')));
    await rename(join(src, 'old name.html'), join(src, 'new name.html'));
    await waitFor(
      'the unlink and the rename followed',
      async () => {
        const byPath = lastLineByPath(await readManifest(out));
        return byPath.get(GONE)?.status === 'removed' && byPath.get('old name.html')?.status === 'removed' && byPath.get('new name.html')?.status !== undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    for (const suffix of ['.md', '.json', '.chunks.jsonl']) {
      expect(await exists(`${GONE}${suffix}`), suffix).toBe(false);
      expect(await exists(`old name.html${suffix}`), suffix).toBe(false);
      expect(await exists(`new name.html${suffix}`), suffix).toBe(true);
      expect(await exists(`kept.html${suffix}`), suffix).toBe(true);
    }
    // The renamed file is not parsed again: its outputs were copied from the old name's before those were deleted.
    expect(lastLineByPath(await readManifest(out)).get('new name.html')).toMatchObject({ status: 'skipped', reason: 'same content as old name.html' });
    expect(server.requestsFor('new name.html')).toHaveLength(0);
    expect(server.requestsFor('old name.html')).toHaveLength(1);
    expect(await exists('sub dir')).toBe(false);
    expect(await readFailures(out)).toEqual([]);
    watch.kill('SIGTERM');
    expect((await watch.exited).code).toBe(0);
  }, 120_000);
});
