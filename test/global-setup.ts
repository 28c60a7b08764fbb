/**
 * Before the suite: dist/ built from the current sources (only when stale), because the tests that start
 * the real service run what `npm start` runs, the compiled build (test/helpers/process.ts); and the
 * bundled IP data file the in-process tests share (test/helpers/ip-data.ts).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { buildSharedIpData } from './helpers/ip-data.js';

export default async function setup(): Promise<void> {
  execFileSync(process.execPath, [resolve(import.meta.dirname, '../scripts/build-if-stale.mjs')], { stdio: 'inherit' });
  await buildSharedIpData();
}
