/**
 * The bundled IP data file, built once per test run (test/global-setup.ts) into a directory shared by
 * the test files, and linked into each test's own data directory: a test that looks up an address
 * does not build it again (a few seconds each). A test of the build itself uses an empty directory.
 */
import { existsSync, linkSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledFiles, ipDataFilePath } from '../../src/probes/ipdata/bundled.js';
import { runIpDataBuilder } from '../../src/probes/ipdata/ip-data-builder.js';

export const SHARED_IP_DATA_DIR = join(tmpdir(), 'netdiag-test-ip-data');

/** Builds the shared file unless it is there already (global setup). */
export async function buildSharedIpData(): Promise<void> {
  const path = await ipDataFilePath(bundledFiles(), SHARED_IP_DATA_DIR);
  if (existsSync(path)) return;
  mkdirSync(SHARED_IP_DATA_DIR, { recursive: true });
  await runIpDataBuilder(bundledFiles(), path);
}

/** Links the shared file into `dataDir` (no copy: the same inode). */
export function seedIpData(dataDir: string): void {
  if (!existsSync(SHARED_IP_DATA_DIR)) return;
  for (const name of readdirSync(SHARED_IP_DATA_DIR))
    if (/^ip-data-[0-9a-f]{16}[.]bin$/.test(name) && !existsSync(join(dataDir, name)))
      linkSync(join(SHARED_IP_DATA_DIR, name), join(dataDir, name));
}
