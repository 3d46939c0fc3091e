import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests share one Redis and start real servers; files run in parallel, tests within a file in order.
    pool: 'forks',
    // Most files wait on servers, child processes and Redis rather than the CPU: vitest's default (cores - 1) would
    // run them one at a time on a 2-core machine.
    maxWorkers: Math.max(3, availableParallelism() - 1),
  },
});
