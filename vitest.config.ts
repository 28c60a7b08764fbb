import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/** Where test files are: a check's tests in its folder (src/checks/<family>/<tool>/), the others under test/. */
const TEST_DIRS = ['test', 'src'];

/** The test files whose source matches `pattern`, relative to the root. */
function testFiles(pattern: RegExp): string[] {
  return TEST_DIRS.flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => join(dir, file).split('\\').join('/')),
  ).filter((file) => pattern.test(readFileSync(file, 'utf8')));
}

/**
 * The files that start processes of their own — the service as `npm start` runs it
 * (test/helpers/process.ts), a browser — found by what they import, so that a new such file joins them by
 * itself. The processes take the cores at their start: these files run after the in-process ones, two at
 * a time, so that they do not stall the in-process tests' event loops.
 */
const STARTING_PROCESSES = testFiles(/helpers\/process\.js'|from 'playwright-core'/);
/**
 * The files whose header says "Run alone": verdicts graded against a time the lab takes or a deadline
 * (a composite's bound, a rating's), which other files running at once stretch. Last, one at a time.
 */
const RUN_ALONE = testFiles(/^ \* Run alone\b/m).filter((file) => !STARTING_PROCESSES.includes(file));
/**
 * The files that install fake timers: a timer that another file's leftover work sets while they run
 * would be theirs (`vi.getTimerCount()`), so each runs in a process of its own.
 */
const FAKE_TIMERS = testFiles(/vi\.useFakeTimers\(/).filter(
  (file) => !STARTING_PROCESSES.includes(file) && !RUN_ALONE.includes(file),
);

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
          include: TEST_DIRS.map((dir) => `${dir}/**/*.test.ts`),
          exclude: [...STARTING_PROCESSES, ...RUN_ALONE, ...FAKE_TIMERS],
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
          name: 'fake-timers',
          include: FAKE_TIMERS,
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'processes',
          include: STARTING_PROCESSES,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: RUN_ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
