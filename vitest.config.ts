import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Lab servers bind port 0 on loopback; files run in parallel on the two cores.
    pool: 'forks',
  },
});
