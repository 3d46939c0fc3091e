/**
 * The slots of the documents of group jobs: no more run at once than there are slots, in the order they asked, and a
 * document that leaves its slot early (waiting for its outputs to be durable) lets the next one start.
 */
import { describe, expect, it } from 'vitest';
import { DocumentSlots } from '../../src/pipeline/document-slots.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('DocumentSlots', () => {
  it('runs at most its size at once, in the order asked', async () => {
    const slots = new DocumentSlots(2);
    const started: number[] = [];
    const finish: Array<() => void> = [];
    const runs = [0, 1, 2, 3].map((index) =>
      slots.run(async () => {
        started.push(index);
        await new Promise<void>((resolve) => finish.push(resolve));
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    finish[1]!();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finish[0]!();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    finish[2]!();
    finish[3]!();
    await Promise.all(runs);
  });

  it('starts the next document when one leaves its slot to wait, and counts the leave once', async () => {
    const slots = new DocumentSlots(1);
    const started: string[] = [];
    let release!: () => void;
    const waiting = slots.run(async (leave) => {
      started.push('first');
      leave();
      leave();
      await new Promise<void>((resolve) => (release = resolve));
    });
    const second = slots.run(async () => void started.push('second'));
    const third = slots.run(async () => void started.push('third'));
    await Promise.all([second, third]);
    expect(started).toEqual(['first', 'second', 'third']);
    release();
    await waiting;
    // Every slot is free again: two runs held open at once would need two.
    const order: string[] = [];
    let unblock!: () => void;
    const held = slots.run(async () => {
      order.push('held');
      await new Promise<void>((resolve) => (unblock = resolve));
    });
    const next = slots.run(async () => void order.push('next'));
    await tick();
    expect(order).toEqual(['held']);
    unblock();
    await Promise.all([held, next]);
    expect(order).toEqual(['held', 'next']);
  });

  it('frees the slot of a document that failed', async () => {
    const slots = new DocumentSlots(1);
    await expect(slots.run(async () => Promise.reject(new Error('corrupt')))).rejects.toThrow('corrupt');
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});
