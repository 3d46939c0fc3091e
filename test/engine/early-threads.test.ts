/**
 * Engine threads started before their pool (a command that will parse locally starts them before it loads the rest
 * of its work): the pool made next takes them and parses with them, starting no others; threads of another
 * configuration, or beyond the pool's size, or that no pool took when the command ended, are ended.
 */
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withEngineHeadStart, type DocumentsAhead } from '../../src/app/engine-head-start.js';
import { readEnvironment } from '../../src/config/environment.js';
import { validateParseOptions } from '../../src/contract/validation.js';
import type { ParseOptions } from '../../src/contract/options.js';
import { defaultConfig, endEarlyThreads, startThreadsEarly, takeEarlyThreads } from '../../src/engine/early-threads.js';
import { EngineThreadPool } from '../../src/engine/thread-pool.js';
import type { StartedThread } from '../../src/engine/thread-start.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';

function options(): ParseOptions {
  const result = validateParseOptions({});
  if (!result.ok) throw new Error('bad options');
  return result.options;
}

/** Resolves with the thread's exit code once it has ended. */
function ended(thread: StartedThread): Promise<unknown> {
  return once(thread.worker, 'exit');
}

afterEach(() => endEarlyThreads());

describe('engine threads started before their pool', () => {
  it('are taken by the next pool, which parses with them and starts no thread of its own', async () => {
    const early = startThreadsEarly(2);
    expect(early).toHaveLength(2);
    const pool = new EngineThreadPool({ size: 2 });
    try {
      expect(pool.threadsStarted).toBe(2);
      const results = await Promise.all([0, 1, 2, 3].map((index) => pool.run(Buffer.from(`name,value\nrow${index},${index}\n`), `f${index}.csv`, options())));
      expect(results.map((data) => data.markdown)).toEqual([0, 1, 2, 3].map((index) => expect.stringContaining(`row${index}`)));
      expect(pool.threadsStarted).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('beyond the pool\'s size, or started with another heap limit, are ended, not kept idle', async () => {
    const early = startThreadsEarly(3);
    const exits = early.map(ended);
    const pool = new EngineThreadPool({ size: 1 });
    try {
      expect(pool.threadsStarted).toBe(1);
      // The two it did not take end without a document; the one it took ends with the pool.
      await Promise.all(exits.slice(1));
    } finally {
      await pool.close();
    }
    await exits[0];

    const other = startThreadsEarly(1);
    const otherExit = ended(other[0] as StartedThread);
    const smaller = new EngineThreadPool({ size: 1, maxHeapMb: 256 });
    try {
      await otherExit;
      expect(smaller.threadsStarted).toBe(0);
      const data = await smaller.run(Buffer.from('name,value\nonly,1\n'), 'only.csv', options());
      expect(data.markdown).toContain('only');
      expect(smaller.threadsStarted).toBe(1);
    } finally {
      await smaller.close();
    }
  });

  it('are started for a command that parses locally, and those no pool took are ended when it ends', async () => {
    let waitingInside: boolean | undefined;
    const failing = withEngineHeadStart({}, {}, async () => {
      // A second start finds threads waiting and starts none.
      waitingInside = startThreadsEarly(1).length === 0;
      throw new Error('the command failed before it made its pool');
    });
    await expect(failing).rejects.toThrow('before it made its pool');
    expect(waitingInside).toBe(true);

    const waiting = startThreadsEarly(2);
    const exits = waiting.map(ended);
    await expect(withEngineHeadStart({}, {}, async () => 'done')).resolves.toBe('done');
    await Promise.all(exits);
  });

  it('for a run, are no more than the files its source holds; for a watch of the same folder, one a core', async () => {
    const folder = await makeTempDir();
    const config = defaultConfig(readEnvironment({}).cacheDir);
    /** The threads waiting when the command's work begins, taken (as its pool would take them) and ended. */
    const startedFor = async (ahead: DocumentsAhead) => {
      let taken: StartedThread[] = [];
      await withEngineHeadStart({}, {}, async () => {
        taken = takeEarlyThreads(64, config);
      }, ahead);
      await Promise.all(taken.map((thread) => thread.worker.terminate()));
      return taken.length;
    };
    try {
      await writeFile(join(folder, 'only.csv'), 'name,value\nonly,1\n');
      expect(await startedFor({ source: folder, onlyNow: true })).toBe(1);
      expect(await startedFor({ source: folder })).toBe(availableParallelism());
      await writeFile(join(folder, 'second.csv'), 'name,value\nsecond,2\n');
      expect(await startedFor({ source: folder, onlyNow: true })).toBe(Math.min(2, availableParallelism()));
    } finally {
      await removeTempDir(folder);
    }
  });

  it('are not started for a command that sends its documents to a remote API', async () => {
    await withEngineHeadStart({ apiUrl: 'http://127.0.0.1:1' }, {}, async () => {
      // None waiting: this start is the first.
      const mine = startThreadsEarly(1);
      expect(mine).toHaveLength(1);
      await endEarlyThreads();
    });
    await withEngineHeadStart({}, { DOCMILL_API_URL: 'http://127.0.0.1:1' }, async () => {
      expect(startThreadsEarly(1)).toHaveLength(1);
      await endEarlyThreads();
    });
  });
});
