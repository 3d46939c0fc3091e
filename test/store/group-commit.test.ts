/**
 * The local store's group commit: a file waiting to be flushed is answered by the first pass that takes it, passes
 * start a window after the first file began waiting (or at once when enough files wait, or when told nothing more is
 * coming), one at a time, and a pass that fails fails every file it was flushing.
 */
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/store/group-commit.js';
import { rejectionOf } from '../helpers/temp-files.js';

/** A flush the test answers by hand, recording what each pass was given. */
function heldFlush() {
  const passes: { paths: readonly string[]; done: () => void; fail: (error: Error) => void }[] = [];
  const flush = (paths: readonly string[]) =>
    new Promise<void>((resolve, reject) => {
      passes.push({ paths, done: resolve, fail: reject });
    });
  return { passes, flush };
}

/** Whether the promise has settled, after the callbacks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('GroupCommit', () => {
  it('flushes every file waiting in the window with one pass, and answers none before it ends', async () => {
    const { passes, flush } = heldFlush();
    const commit = new GroupCommit({ flush, windowMs: 30, maxWaiting: 8 });
    const waits = ['a.md', 'a.json', 'b.md', 'b.json'].map((path) => commit.whenFlushed(path));
    expect(passes).toHaveLength(0);
    await sleep(60);
    expect(passes.map((pass) => pass.paths)).toEqual([['a.md', 'a.json', 'b.md', 'b.json']]);
    expect(await settled(waits[0]!)).toBe(false);
    passes[0]!.done();
    await Promise.all(waits);
  });

  it('starts a pass at once when enough files wait', async () => {
    const { passes, flush } = heldFlush();
    const commit = new GroupCommit({ flush, windowMs: 60_000, maxWaiting: 2 });
    const waits = [commit.whenFlushed('a.md'), commit.whenFlushed('b.md')];
    expect(passes).toHaveLength(1);
    passes[0]!.done();
    await Promise.all(waits);
  });

  it('leaves the files that begin waiting during a pass to the next one', async () => {
    const { passes, flush } = heldFlush();
    const commit = new GroupCommit({ flush, windowMs: 5, maxWaiting: 100 });
    const first = commit.whenFlushed('a.md');
    await sleep(30);
    expect(passes).toHaveLength(1);
    const second = commit.whenFlushed('b.md');
    passes[0]!.done();
    await first;
    expect(await settled(second)).toBe(false);
    await sleep(30);
    expect(passes.map((pass) => pass.paths)).toEqual([['a.md'], ['b.md']]);
    passes[1]!.done();
    await second;
  });

  it('fails every file of a pass that failed, and flushes the next ones anew', async () => {
    const { passes, flush } = heldFlush();
    const commit = new GroupCommit({ flush, windowMs: 5, maxWaiting: 100 });
    const waits = [commit.whenFlushed('a.md'), commit.whenFlushed('b.md')];
    await sleep(30);
    passes[0]!.fail(new Error('EIO'));
    for (const wait of waits) expect(await rejectionOf(wait)).toMatchObject({ message: 'EIO' });
    const again = commit.whenFlushed('a.md');
    await sleep(30);
    passes[1]!.done();
    await again;
  });

  it('starts the pass at once when nothing more is coming, and right after the pass under way when one is', async () => {
    const { passes, flush } = heldFlush();
    const commit = new GroupCommit({ flush, windowMs: 60_000, maxWaiting: 100 });
    commit.passNow();
    expect(passes).toHaveLength(0);
    const first = [commit.whenFlushed('a.md'), commit.whenFlushed('a.json')];
    expect(passes).toHaveLength(0);
    commit.passNow();
    expect(passes.map((pass) => pass.paths)).toEqual([['a.md', 'a.json']]);
    const second = commit.whenFlushed('b.md');
    commit.passNow();
    expect(passes).toHaveLength(1);
    passes[0]!.done();
    await Promise.all(first);
    await new Promise((resolve) => setImmediate(resolve));
    expect(passes.map((pass) => pass.paths)).toEqual([['a.md', 'a.json'], ['b.md']]);
    passes[1]!.done();
    await second;
    // Asked once, not for good: the next file waits for the window again.
    const third = commit.whenFlushed('c.md');
    await sleep(30);
    expect(passes).toHaveLength(2);
    commit.passNow();
    passes[2]!.done();
    await third;
  });

  it('flushes what waits when asked, at once (a store closing)', async () => {
    const flushed: string[][] = [];
    const commit = new GroupCommit({ flush: async (paths) => void flushed.push([...paths]), windowMs: 60_000, maxWaiting: 100 });
    await commit.flush();
    expect(flushed).toEqual([]);
    const wait = commit.whenFlushed('a.md');
    await commit.flush();
    await wait;
    expect(flushed).toEqual([['a.md']]);
  });
});
