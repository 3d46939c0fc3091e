import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests share one Redis and start real servers; files run in parallel, tests within a file in order.
    pool: 'forks',
  },
});
