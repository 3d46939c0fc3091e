/**
 * The engine's thread pool keeps one document from stalling the others: a parse that overruns its timeout is
 * killed with its thread (408 upstream), the thread is replaced, and a small document queued behind it still
 * parses.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { validateParseOptions } from '../../src/contract/validation.js';
import type { ParseOptions } from '../../src/contract/options.js';
import { EngineCrashError, EngineError, EngineStartError, EngineTimeoutError } from '../../src/engine/engine-error.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startThreadsEarly } from '../../src/engine/early-threads.js';
import { DEFAULT_MAX_HEAP_MB } from '../../src/engine/thread-start.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-files.js';
import { EngineThreadPool } from '../../src/engine/thread-pool.js';

function options(input: unknown = {}): ParseOptions {
  const result = validateParseOptions(input);
  if (!result.ok) throw new Error('bad options');
  return result.options;
}

/** A CSV big enough that parsing it takes far longer than a 30 ms budget. */
function hugeCsv(): Buffer {
  const row = 'alpha,beta,gamma,delta,epsilon,zeta,eta,theta\n';
  return Buffer.from(`h1,h2,h3,h4,h5,h6,h7,h8\n${row.repeat(400_000)}`);
}

const pool = new EngineThreadPool({ size: 1 });
afterAll(() => pool.close());

const MISSING_MODULE = "Cannot find module 'pdfjs-dist' imported from the engine thread";
const brokenDirs: string[] = [];
afterAll(() => Promise.all(brokenDirs.map((dir) => removeTempDir(dir))));

/** A thread module that throws as it loads, as the engine thread of an installation missing a package does. */
async function brokenThreadModule(): Promise<string> {
  const dir = await makeTempDir();
  brokenDirs.push(dir);
  const file = join(dir, 'broken-thread.mjs');
  await writeFile(file, `throw new Error(${JSON.stringify(MISSING_MODULE)});\n`);
  return file;
}

describe('EngineThreadPool', () => {
  it('kills a parse that overruns its timeout, then parses the next document on a fresh thread', async () => {
    const slow = pool.run(hugeCsv(), 'huge.csv', options({ timeout: 30 }));
    const small = pool.run(Buffer.from('a,b\n1,2\n'), 'small.csv', options());
    await expect(slow).rejects.toBeInstanceOf(EngineTimeoutError);
    const data = await small;
    expect(data.markdown).toContain('| a | b |');
  });

  it('gives a document posted ahead to a busy thread back to the queue when that thread is killed, and parses it', async () => {
    // The thread is up: a document queued behind the running one is posted to it ahead (thread-pool.ts, `#prefetch`).
    await pool.run(Buffer.from('w,x\n0,0\n'), 'warm.csv', options());
    const slow = pool.run(hugeCsv(), 'huge.csv', options({ timeout: 30 }));
    const small = pool.run(Buffer.from('c,d\n5,6\n'), 'small.csv', options());
    expect(pool.queued).toBe(1);
    await expect(slow).rejects.toBeInstanceOf(EngineTimeoutError);
    const data = await small;
    expect(data.markdown).toContain('| c | d |');
    expect(pool.load).toBe(0);
  });

  it('refuses every document with ENGINE_START_FAILED once its threads cannot start, and stops starting threads', async () => {
    // Each thread fails to load, as one of a broken installation does.
    const broken = new EngineThreadPool({ size: 2, threadModule: await brokenThreadModule() });
    try {
      const tries = ['a.csv', 'b.csv', 'c.csv'].map((name) => broken.run(Buffer.from('a,b\n1,2\n'), name, options()).catch((error: unknown) => error));
      const errors = await Promise.all(tries);
      // Those given to the first threads die with them (the engine retries such a document alone, local-engine.ts);
      // none is blamed on the document (a thread out of memory before it started never read it).
      for (const error of errors) expect(error instanceof EngineCrashError || error instanceof EngineStartError).toBe(true);
      const started = broken.threadsStarted;
      const later = await broken.run(Buffer.from('c,d\n3,4\n'), 'later.csv', options()).catch((error: unknown) => error);
      expect(later).toBeInstanceOf(EngineStartError);
      expect((later as EngineStartError).code).toBe('ENGINE_START_FAILED');
      expect((later as EngineStartError).message).toBe(`the local engine could not start its parser threads: ${MISSING_MODULE}`);
      expect(broken.threadsStarted).toBe(started);
    } finally {
      await broken.close();
    }
  });

  it('gives no document to a thread that died while starting ahead of any: the document is answered, not left waiting', async () => {
    // A thread started ahead of the pool (as the CLI does) that dies loading the engine leaves the pool.
    const threadModule = await brokenThreadModule();
    startThreadsEarly(1, { maxHeapMb: DEFAULT_MAX_HEAP_MB, threadModule });
    const broken = new EngineThreadPool({ size: 1, threadModule });
    try {
      expect(broken.threadsStarted).toBe(1);
      await vi.waitFor(() => expect(broken.threadsAlive).toBe(0), { timeout: 20_000 });
      // Posted to that dead thread, the document would wait out its 120 s timeout; it goes to a fresh thread, whose
      // start fails too, and it hears so: the second failed start with none started, the pool now refuses all.
      const error = await broken.run(Buffer.from('a,b\n1,2\n'), 'a.csv', options({ timeout: 120_000 })).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(EngineCrashError);
      expect((error as EngineCrashError).message).toContain('while starting the parser thread');
      const next = await broken.run(Buffer.from('c,d\n3,4\n'), 'b.csv', options({ timeout: 120_000 })).catch((caught: unknown) => caught);
      expect(next).toBeInstanceOf(EngineStartError);
      expect(broken.threadsStarted).toBe(2);
    } finally {
      await broken.close();
    }
  });

  it('says a document ran out of time while its thread was still starting, when it did', async () => {
    // A new pool's first thread loads the whole engine: far longer than 1 ms on any machine.
    const fresh = new EngineThreadPool({ size: 1 });
    try {
      const error = await fresh.run(Buffer.from('a,b\n1,2\n'), 'tiny.csv', options({ timeout: 1 })).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(EngineTimeoutError);
      expect((error as EngineTimeoutError).stage).toBe('starting the parser thread');
      // On a thread that is up (the timed-out one was replaced: wait for its successor with a document), a timeout
      // names the stage the conversion was in.
      await fresh.run(Buffer.from('a,b\n1,2\n'), 'warm.csv', options());
      const slow = await fresh.run(hugeCsv(), 'huge.csv', options({ timeout: 30 })).catch((caught: unknown) => caught);
      expect(slow).toBeInstanceOf(EngineTimeoutError);
      expect((slow as EngineTimeoutError).stage).not.toBe('starting the parser thread');
    } finally {
      await fresh.close();
    }
  });

  it('reports a document error without losing the thread', async () => {
    await expect(pool.run(new Uint8Array(), 'empty.pdf', options())).rejects.toBeInstanceOf(EngineError);
    const data = await pool.run(Buffer.from('x,y\n3,4\n'), 'after.csv', options());
    expect(data.markdown).toContain('| 3 | 4 |');
  });

  it('runs documents in parallel up to its size and queues the rest', async () => {
    const wide = new EngineThreadPool({ size: 2 });
    try {
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, index) => wide.run(Buffer.from(`n\n${index}\n`), `f${index}.csv`, options())),
      );
      expect(results.map((data) => data.markdown?.includes(`| ${results.indexOf(data)} |`))).toEqual(Array(6).fill(true));
    } finally {
      await wide.close();
    }
  });
});
