/** LineBatcher: batches by size, by time (fake timers) and on close; a failed batch is kept and retried. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LineBatcher } from '../../src/store/line-batcher.js';
import { rejectionOf } from '../helpers/temp-files.js';

describe('LineBatcher', () => {
  let batches: string[][];
  let failNext: number;

  function batcher(overrides: { maxLines?: number; onBackgroundError?: (error: unknown) => void } = {}): LineBatcher {
    return new LineBatcher({
      maxLines: overrides.maxLines ?? 3,
      intervalMs: 5_000,
      onBackgroundError: overrides.onBackgroundError,
      writeBatch: async (lines) => {
        if (failNext > 0) {
          failNext -= 1;
          throw new Error('S3 is down');
        }
        batches.push(lines);
      },
    });
  }

  beforeEach(() => {
    vi.useFakeTimers();
    batches = [];
    failNext = 0;
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes a batch as soon as maxLines are waiting', async () => {
    const lines = batcher();
    await lines.add('1');
    await lines.add('2');
    expect(batches).toEqual([]);
    await lines.add('3');
    expect(batches).toEqual([['1', '2', '3']]);
    expect(lines.pendingLines).toBe(0);
  });

  it('writes waiting lines intervalMs after the first one', async () => {
    const lines = batcher();
    await lines.add('1');
    await vi.advanceTimersByTimeAsync(4_000);
    await lines.add('2');
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(batches).toEqual([['1', '2']]);
  });

  it('writes what is left on close, and nothing when nothing waits', async () => {
    const lines = batcher();
    await lines.close();
    expect(batches).toEqual([]);
    await lines.add('1');
    await lines.close();
    expect(batches).toEqual([['1']]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps a failed batch in front of newer lines and writes it with the next flush', async () => {
    const lines = batcher();
    await lines.add('1');
    failNext = 1;
    expect(await rejectionOf(lines.flush())).toMatchObject({ message: 'S3 is down' });
    await lines.add('2');
    await lines.close();
    expect(batches).toEqual([['1', '2']]);
  });

  it('reports a failed timer flush and tries again on the next tick of the timer', async () => {
    const errors: unknown[] = [];
    const lines = batcher({ onBackgroundError: (error) => errors.push(error) });
    failNext = 1;
    await lines.add('1');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(errors).toHaveLength(1);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(batches).toEqual([['1']]);
  });

  it('writes batches one at a time, in order', async () => {
    const lines = batcher({ maxLines: 2 });
    await Promise.all(['1', '2', '3', '4', '5'].map((line) => lines.add(line)));
    await lines.close();
    expect(batches).toEqual([['1', '2'], ['3', '4'], ['5']]);
  });
});
