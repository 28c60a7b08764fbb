/**
 * The command's bundle runs with V8's code cache of an earlier run (scripts/command-script.mjs): made by the
 * first run, used by the next, refused and made again when it does not fit, never shared between builds.
 * Each run is a process of its own, as each command is (V8 keeps what one process compiled, and would
 * take a second compile of the same script from memory rather than from the cache).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
// @ts-expect-error: a JavaScript module of the build scripts, without types
import { codeCacheDir } from '../../../scripts/command-script.mjs';

const moduleUrl = new URL('../../../scripts/command-script.mjs', import.meta.url).href;

interface Run {
  readonly cacheUsed: boolean;
  readonly answer: number;
  readonly where: [string, string];
  settle(): void;
}

/** One run in a new process: the script's main(1), whether the cache was used; `settle` writes the cache. */
function loadCommandScript(bundle: string, cacheDir: string): Run {
  const run = (settle: boolean) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { loadCommandScript } = await import(${JSON.stringify(moduleUrl)});
           const run = loadCommandScript(${JSON.stringify(bundle)}, ${JSON.stringify(cacheDir)});
           ${settle ? 'run.settle();' : ''}
           console.log(JSON.stringify({ cacheUsed: run.cacheUsed, answer: run.exports.main(1), where: run.exports.where }));`,
        ],
        { cwd: resolve(import.meta.dirname), encoding: 'utf8' },
      ),
    );
  const first = run(false);
  return { ...first, settle: () => void run(true) };
}

let dir: string;
let bundle: string;
let cacheDir: string;

const script = (answer: number) =>
  `exports.main = (x) => x + ${answer};\nexports.where = [__filename, typeof require('node:path').join];\n`;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nd-command-script-'));
  bundle = join(dir, 'cli.cjs');
  cacheDir = join(dir, 'cache');
  writeFileSync(bundle, script(1));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('runs the script as a CommonJS module, makes the cache after the first run and uses it in the next', () => {
  const first = loadCommandScript(bundle, cacheDir);
  expect(first.answer).toBe(2);
  expect(first.where).toEqual([bundle, 'function']);
  expect(first.cacheUsed).toBe(false);
  first.settle();
  const [file] = readdirSync(cacheDir);
  expect(file).toMatch(/^cli-.+\.bin$/);
  expect(statSync(join(cacheDir, file!)).mode & 0o777).toBe(0o600);
  expect(statSync(cacheDir).mode & 0o777).toBe(0o700);

  const second = loadCommandScript(bundle, cacheDir);
  expect(second.cacheUsed).toBe(true);
  expect(second.answer).toBe(2);
});

it('keeps a cache per build: a rebuilt script of the same length does not run with the old one', () => {
  loadCommandScript(bundle, cacheDir).settle();
  writeFileSync(bundle, script(7)); // same length, other code
  const later = new Date(statSync(bundle).mtimeMs + 5000);
  utimesSync(bundle, later, later);
  const rebuilt = loadCommandScript(bundle, cacheDir);
  expect(rebuilt.cacheUsed).toBe(false);
  expect(rebuilt.answer).toBe(8);
});

it('runs without the cache when its data is refused, and makes it again', () => {
  loadCommandScript(bundle, cacheDir).settle();
  const [file] = readdirSync(cacheDir);
  writeFileSync(join(cacheDir, file!), 'not V8 code cache data');
  const refused = loadCommandScript(bundle, cacheDir);
  expect(refused.cacheUsed).toBe(false);
  expect(refused.answer).toBe(2);
  refused.settle();
  expect(loadCommandScript(bundle, cacheDir).cacheUsed).toBe(true);
});

it("runs without the cache when its directory cannot be written, and keeps it in the user's own directory", () => {
  writeFileSync(join(dir, 'a-file'), '');
  const unwritable = loadCommandScript(bundle, join(dir, 'a-file', 'cache'));
  expect(unwritable.answer).toBe(2);
  expect(() => unwritable.settle()).not.toThrow();
  expect(codeCacheDir({ XDG_CACHE_HOME: '/home/u/.c' })).toBe('/home/u/.c/netdiag/code-cache');
  expect(codeCacheDir({ NETDIAG_CODE_CACHE: '/x', XDG_CACHE_HOME: '/y' })).toBe('/x');
});
