import * as bullmq from 'bullmq';
import * as ioredis from 'ioredis';
import { describe, expect, it } from 'vitest';
import * as loaded from '../../src/queue/commonjs-packages.js';

describe('BullMQ and ioredis loaded with require', () => {
  it('are the very classes an import gives, so instanceof holds whichever way a module took them', () => {
    expect(loaded.Queue).toBe(bullmq.Queue);
    expect(loaded.Worker).toBe(bullmq.Worker);
    expect(loaded.UnrecoverableError).toBe(bullmq.UnrecoverableError);
    expect(loaded.WaitingChildrenError).toBe(bullmq.WaitingChildrenError);
    expect(loaded.Redis).toBe(ioredis.Redis);
    expect(loaded.Cluster).toBe(ioredis.Cluster);
    expect(new loaded.UnrecoverableError('x')).toBeInstanceOf(bullmq.UnrecoverableError);
  });
});
