import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/**
 * The test files that run apart from the rest: those that start processes of their own — the service as
 * `npm start` runs it (test/helpers/process.ts), a browser — found by what they import, so that a new
 * such file joins them by itself, and those whose header says "Run apart" (a verdict graded on a time
 * the lab takes, which a busy machine stretches). The processes take the cores at their start: these
 * files run after the rest, two at a time, so that they do not stall the in-process tests' event loops,
 * nor those the others' stall theirs.
 */
function filesRunApart(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join(dir, file).split('\\').join('/'))
    .filter((file) =>
      /helpers\/process\.js'|from 'playwright-core'|^ \* Run apart\b/m.test(readFileSync(file, 'utf8')),
    );
}
const RUN_APART = filesRunApart('test');

export default defineConfig({
  resolve: {
    // graphql 16 ships a CJS build and an ES module build without an "exports" map: Node (and so
    // `npm start`, Pothos and yoga) loads the CJS build, while Vite would pick the .mjs for our
    // sources — two realms, and graphql's instanceof checks fail. Use the build Node uses.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    globalSetup: ['test/global-setup.ts'],
    // no packet leaves loopback, in CI's network namespace or not
    setupFiles: ['test/setup/loopback-only.ts'],
    // Wide: a test waits for events, and its time-out only ends one that hangs; four files at once on a
    // busy machine stretch the others' runs
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'in-process',
          include: ['test/**/*.test.ts'],
          exclude: RUN_APART,
          // Most tests wait on loopback sockets, not the CPU: more files at once than cores. A process
          // runs one file after another with the modules the previous ones loaded (the schema, the checks,
          // the labs' certificates): loading them again per file was most of the suite's time. A test
          // file must therefore leave no global state behind (test/setup/loopback-only.ts installs once).
          isolate: false,
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'apart',
          include: RUN_APART,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
