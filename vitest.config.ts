import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships index.js (CJS) and index.mjs without an "exports" map: Node (and so
    // `npm start`, Pothos and yoga) loads the CJS build, while Vite would pick the .mjs for our
    // sources — two realms, and graphql's instanceof checks fail. Use the build Node uses.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    // a check's tests live in its folder (src/checks/<family>/<check>/), the rest under test/
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // no packet leaves loopback, in CI's network namespace or not
    setupFiles: ['test/setup/loopback-only.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Lab servers bind port 0 on loopback; files run in parallel on the two cores.
    pool: 'forks',
  },
});
