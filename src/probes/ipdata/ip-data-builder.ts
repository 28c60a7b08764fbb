/**
 * Runs the IP data builder (./build-ip-data-main.ts) in a process of its own and
 * waits for it: the sources it reads and the tables it builds (tens of megabytes) live
 * and die with that process, so the service's memory never grows by them.
 */
import { execFile } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BundledFiles } from './bundled-files.js';

/**
 * A build takes seconds on a slow core (docs/performance.md "Measured reasons behind design choices");
 * a minute is a stuck process.
 */
const BUILD_TIMEOUT_MS = 60_000;
/** The builder's own error message, at most. */
const MAX_STDERR_BYTES = 16 * 1024;

export function runIpDataBuilder(files: BundledFiles, out: string): Promise<void> {
  // Production runs the compiled JavaScript. Under the test runner this module is TypeScript, and so is
  // the builder next to it: node runs it through tsx (a development dependency, present there).
  const extension = extname(fileURLToPath(import.meta.url));
  const script = fileURLToPath(new URL(`./build-ip-data-main${extension}`, import.meta.url));
  const args = [...(extension === '.ts' ? ['--import', 'tsx'] : []), script, JSON.stringify(files), out];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { timeout: BUILD_TIMEOUT_MS, maxBuffer: MAX_STDERR_BYTES, env: { PATH: process.env.PATH ?? '' } },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        const why = stderr.trim() || error.message;
        reject(new Error(`building the IP data file failed: ${why}`));
      },
    );
  });
}
