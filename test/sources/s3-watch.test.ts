/**
 * S3Source.watch() against s3rver: a baseline poll, new and changed objects on the next polls, and a restart
 * with the same checkpoint folder. The checkpoint file format is checked too, as operators may read it.
 *
 * S3 replaces an object atomically; s3rver does not (it rewrites the object file, then its ETag file), so a poll
 * running during a put could see half of it. Listings and the tests' writes take turns here (`exclusive`), which
 * gives the tests S3's atomicity without slowing the polls down.
 */
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CheckpointError, S3ListingOrderError } from '../../src/sources/errors.js';
import type { PollSummary } from '../../src/sources/s3-poller.js';
import { S3Source } from '../../src/sources/s3-source.js';
import type { WatchEntry } from '../../src/sources/source.js';
import { startS3rver, type S3rverHandle } from '../helpers/s3rver.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { waitFor } from '../helpers/wait.js';

const BUCKET = 'watched';
let s3: S3rverHandle;
let checkpointDir: string;
let prefixCounter = 0;
let prefix: string;

/** Runs one listing or one write at a time. */
let turn: Promise<unknown> = Promise.resolve();
function exclusive<T>(operation: () => Promise<T>): Promise<T> {
  const result = turn.then(operation);
  turn = result.catch(() => undefined);
  return result;
}

/** Set while `atOnce` holds the turn: the writes it makes run inside it (listings still wait). */
let holdingTurn = false;
function write<T>(operation: () => Promise<T>): Promise<T> {
  return holdingTurn ? operation() : exclusive(operation);
}

/** Several writes in one turn, as one change: no poll lists some of them without the others. */
function atOnce<T>(changes: () => Promise<T>): Promise<T> {
  return exclusive(async () => {
    holdingTurn = true;
    try {
      return await changes();
    } finally {
      holdingTurn = false;
    }
  });
}

const running = new Set<Watch>();

beforeAll(async () => {
  s3 = await startS3rver([BUCKET]);
  s3.client.middlewareStack.add(
    (next, context) => (args) => (context.commandName === 'ListObjectsV2Command' ? exclusive(() => next(args)) : next(args)),
    { step: 'initialize', name: 'listingsTakeTurnsWithWrites' },
  );
});

afterAll(async () => {
  await s3?.close();
});

beforeEach(async () => {
  checkpointDir = await makeTempDir();
  prefix = `run-${++prefixCounter}`;
});

afterEach(async () => {
  await Promise.all([...running].map((watch) => watch.stop().catch(() => undefined)));
  vi.unstubAllEnvs();
  await removeTempDir(checkpointDir);
});

/** Puts an object; returns its ETag without quotes. */
async function put(name: string, body: string): Promise<string> {
  const response = await write(() =>
    s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${prefix}/${name}`, Body: Buffer.from(body) })),
  );
  return response.ETag!.replaceAll('"', '');
}

async function remove(name: string): Promise<void> {
  await write(() => s3.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `${prefix}/${name}` })));
}

/** A running watch: its reports, and its completed polls to wait on. */
class Watch {
  readonly entries: WatchEntry[] = [];
  readonly polls: PollSummary[] = [];
  readonly errors: unknown[] = [];
  readonly done: Promise<void>;
  private readonly controller = new AbortController();

  constructor() {
    const source = new S3Source({
      location: `s3://${BUCKET}/${prefix}`,
      client: s3.client,
      pollIntervalMs: 50,
      checkpointDir,
      onPoll: (summary) => this.polls.push(summary),
      onError: (error) => this.errors.push(error),
    });
    this.done = source.watch(async (entry) => {
      this.entries.push(entry);
    }, this.controller.signal);
    running.add(this);
  }

  /** Waits until `count` more polls have completed, so at least one began after the caller's changes. */
  async nextPolls(count = 2): Promise<void> {
    const target = this.polls.length + count;
    const deadline = Date.now() + 10_000;
    while (this.polls.length < target) {
      if (Date.now() > deadline) throw new Error(`no poll completed; errors: ${String(this.errors)}`);
      await sleep(10);
    }
  }

  reportedPaths(): string[] {
    return this.entries.flatMap((entry) => (entry.kind === 'file' ? [entry.file.relativePath] : []));
  }

  async stop(): Promise<void> {
    running.delete(this);
    this.controller.abort();
    await this.done;
  }
}

describe('S3Source.watch', () => {
  it('records a baseline, then reports new and changed objects once, and nothing old after a restart', async () => {
    await put('a.pdf', 'a');
    await put('b.pdf', 'b');
    await put('c.docx', 'c');

    const first = new Watch();
    await first.nextPolls(1);
    expect(first.polls[0]).toEqual({ baseline: true, reported: 0 });

    const changedEtag = await atOnce(async () => {
      await put('d.pdf', 'new');
      const etag = await put('b.pdf', 'b, changed');
      await put('notes.txt', 'unsupported: never reported');
      return etag;
    });
    await first.nextPolls(2);

    expect(first.reportedPaths()).toEqual(['b.pdf', 'd.pdf']);
    const changed = first.entries.find((entry) => entry.kind === 'file' && entry.file.relativePath === 'b.pdf');
    expect(changed).toMatchObject({
      file: { size: 'b, changed'.length, changeToken: changedEtag, uri: `s3://${BUCKET}/${prefix}/b.pdf` },
    });
    await first.stop();
    expect(first.errors).toEqual([]);

    // A restart with the same checkpoint: nothing it already saw, only what changed while it was down.
    await put('e.csv', 'while stopped');
    await remove('a.pdf');
    const second = new Watch();
    await second.nextPolls(1);
    expect(second.polls[0]).toEqual({ baseline: false, reported: 1 });
    expect(second.reportedPaths()).toEqual(['e.csv']);

    await put('a.pdf', 'a'); // deleted and back with the same content: new to the checkpoint, so reported
    await second.nextPolls(2);
    await second.stop();
    expect(second.reportedPaths()).toEqual(['e.csv', 'a.pdf']);
  });

  it('reports keys gone from the bucket as removed, once, and not those only left out of the selection', async () => {
    await put('a.pdf', 'a');
    await put('b.pdf', 'b');
    await put('z last.pdf', 'z');
    const watch = new Watch();
    await watch.nextPolls(1);

    await remove('a.pdf');
    await remove('z last.pdf'); // the last key: gone after the listing's end
    await watch.nextPolls(2);
    await watch.stop();

    expect(watch.entries).toEqual([
      { kind: 'removed', uri: `s3://${BUCKET}/${prefix}/a.pdf`, relativePath: 'a.pdf' },
      { kind: 'removed', uri: `s3://${BUCKET}/${prefix}/z last.pdf`, relativePath: 'z last.pdf' },
    ]);
    expect(watch.errors).toEqual([]);
  });

  it('reports a renamed key as the new file first and the removal of the old key after it, whatever their key order', async () => {
    await put('a old name.pdf', 'renamed content');
    await put('m kept.pdf', 'kept');
    const watch = new Watch();
    await watch.nextPolls(1);

    // One change: the old key sorts before the new one, so the listing meets the gone key first.
    await atOnce(async () => {
      await put('z new name.pdf', 'renamed content');
      await remove('a old name.pdf');
    });
    await watch.nextPolls(2);
    await watch.stop();

    expect(watch.entries.map((entry) => [entry.kind, entry.kind === 'file' ? entry.file.relativePath : entry.relativePath])).toEqual([
      ['file', 'z new name.pdf'],
      ['removed', 'a old name.pdf'],
    ]);
    expect(watch.errors).toEqual([]);
  });

  it('keeps one JSON line per selected key, in key order, after a header', async () => {
    await put('b.pdf', 'b');
    await put('a.pdf', 'a');
    await put('skip.txt', 'not selected');

    const watch = new Watch();
    await watch.nextPolls(1);
    await watch.stop();

    const [name] = (await readdir(checkpointDir)).filter((file) => file.endsWith('.jsonl'));
    const lines = (await readFile(join(checkpointDir, name!), 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      { format: 'docmill-s3-checkpoint', version: 1, location: `s3://${BUCKET}/${prefix}/` },
      { key: `${prefix}/a.pdf`, etag: expect.stringMatching(/^[0-9a-f]{32}$/) },
      { key: `${prefix}/b.pdf`, etag: expect.stringMatching(/^[0-9a-f]{32}$/) },
    ]);
    expect(await readdir(checkpointDir)).toEqual([name]); // no temporary file left behind
  });

  it('keeps the checkpoint in a temporary folder for one watch when given no folder', async () => {
    // os.tmpdir() is this test's own folder: other test runs on the machine make and remove checkpoint folders in
    // the shared one.
    vi.stubEnv('TMPDIR', checkpointDir);
    await put('a.pdf', 'a');
    const temporaryCheckpointFolders = async (): Promise<string[]> =>
      (await readdir(tmpdir())).filter((name) => name.startsWith('docmill-s3-checkpoint-'));
    const foldersBefore = await temporaryCheckpointFolders();
    const polls: PollSummary[] = [];
    const entries: WatchEntry[] = [];
    const source = new S3Source({
      location: `s3://${BUCKET}/${prefix}/`,
      client: s3.client,
      pollIntervalMs: 50,
      onPoll: (summary) => polls.push(summary),
    });
    const controller = new AbortController();
    const running = source.watch(async (entry) => {
      entries.push(entry);
    }, controller.signal);
    await waitFor('the baseline poll', () => polls.length >= 1, { timeoutMs: 10_000, intervalMs: 10 });
    await put('b.pdf', 'b');
    const target = polls.length + 2;
    await waitFor('two more polls', () => polls.length >= target, { timeoutMs: 10_000, intervalMs: 10 });
    controller.abort();
    await running;

    expect(polls[0]).toEqual({ baseline: true, reported: 0 });
    expect(entries.map((entry) => entry.kind === 'file' && entry.file.relativePath)).toEqual(['b.pdf']);
    expect(await temporaryCheckpointFolders()).toEqual(foldersBefore);
  });

  it('refuses a checkpoint that is not its own', async () => {
    await put('a.pdf', 'a');
    const watch = new Watch();
    await watch.nextPolls(1);
    await watch.stop();
    const [name] = await readdir(checkpointDir);
    await writeFile(join(checkpointDir, name!), '{"format":"docmill-s3-checkpoint","version":1,"location":"s3://other/"}\n');

    const restarted = new Watch();
    await expect(restarted.done).rejects.toBeInstanceOf(CheckpointError);
    await expect(restarted.done).rejects.toMatchObject({ code: 'SOURCE_CHECKPOINT_INVALID' });
  });

  it('reports a failed poll through onError and goes on polling', async () => {
    const errors: unknown[] = [];
    const failing = new S3Source({
      location: 's3://no-such-bucket/x',
      client: s3.client,
      pollIntervalMs: 20,
      checkpointDir,
      onError: (error) => errors.push(error),
    });
    const controller = new AbortController();
    const running = failing.watch(async () => undefined, controller.signal);
    await waitFor('two failed polls', () => errors.length >= 2, { timeoutMs: 10_000, intervalMs: 10 });
    controller.abort();

    await expect(running).resolves.toBeUndefined();
    expect(errors[0]).toMatchObject({ code: 'SOURCE_LIST_FAILED' });
  });

  it('ends the watch with S3_LISTING_UNORDERED for a store that lists out of key order', async () => {
    // s3rver walks folders: `o/x.pdf` comes before `o-side.pdf`, which S3 would list first ('-' < '/').
    await put('o/x.pdf', 'x');
    await put('o-side.pdf', 'y');
    const watch = new Watch();

    await expect(watch.done).rejects.toBeInstanceOf(S3ListingOrderError);
    await expect(watch.done).rejects.toMatchObject({ code: 'S3_LISTING_UNORDERED' });
  });
});
