#!/usr/bin/env node
/**
 * Builds dist/ (tsc -p tsconfig.build.json) when it is missing or older than any source file, so that
 * `npm start` on a fresh clone and the tests that start the real service run what production runs.
 * Usable as a module (`buildIfStale()`) and as a command (`--always`: `npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.built');
const inputs = [
  join(root, 'src'),
  join(root, 'tsconfig.json'),
  join(root, 'tsconfig.build.json'),
  join(root, 'package-lock.json'),
];

function newestMtime(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function buildIfStale({ quiet = false, always = false } = {}) {
  const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  if (!always && builtAt > 0 && Math.max(...inputs.map(newestMtime)) <= builtAt) return false;
  if (!quiet) process.stderr.write('netdiag: building dist/ (tsc -p tsconfig.build.json)\n');
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(tsc)) {
    throw new Error(
      'dist/ is missing or stale and TypeScript is not installed: run `npm ci` (with dev dependencies) and `npm run build`',
    );
  }
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`the build failed (tsc exited ${result.status})`);
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    buildIfStale({ always: process.argv.includes('--always') });
  } catch (e) {
    process.stderr.write(`netdiag: ${e.message}\n`);
    process.exit(1);
  }
}
