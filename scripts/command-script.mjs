/**
 * Runs the command's bundle, dist/cli.cjs (scripts/build-if-stale.mjs `commandBundleOptions`), with V8's code
 * cache: a command is a new process every time, and compiling the service's code was a large share of its
 * start-up on Node 20, which has no compile cache for ES modules (docs/cli.md "Performance"). The script is
 * compiled by node:vm with the cached data of an earlier run; a run that had none, or whose data V8
 * refused, writes it once the command is done, with every function the run compiled (the check's own code
 * too, not only the modules' top level).
 *
 * The data is kept per build and Node version (V8 checks only the source's length, not its text) in the
 * user's own cache directory: NETDIAG_CODE_CACHE, or `$XDG_CACHE_HOME/netdiag/code-cache`, or
 * `~/.cache/netdiag/code-cache` — not the shared temporary directory, where another user could have made
 * the directory first. A cache that cannot be read or written only costs the compile.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

/** The cache directory of this user (see the module comment). */
export function codeCacheDir(env = process.env) {
  return env.NETDIAG_CODE_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'netdiag', 'code-cache');
}

/** The cache file of this build of the bundle, for this Node. */
function cacheFileOf(bundle, dir) {
  const info = statSync(bundle);
  const build = Math.trunc(info.mtimeMs).toString(36);
  return join(dir, `cli-${process.versions.v8}-${build}-${info.size.toString(36)}.bin`);
}

function readCache(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written whole or not at all (another run may read it meanwhile). */
function writeCache(file, data) {
  const partial = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(partial, data, { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {
      // nothing was written
    }
  }
}

/**
 * Loads `bundle` (a CommonJS script) with the code cache of `cacheDir`: its exports, and `settle()`, to be
 * called once the command is done, which writes the cache when this run had none to use.
 */
export function loadCommandScript(bundle, cacheDir = codeCacheDir()) {
  const cacheFile = cacheFileOf(bundle, cacheDir);
  const cachedData = readCache(cacheFile);
  const source = readFileSync(bundle, 'utf8');
  // the wrapper Node gives a CommonJS module
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return {
    exports: module.exports,
    cacheUsed,
    settle() {
      if (!cacheUsed) writeCache(cacheFile, script.createCachedData());
    },
  };
}
