/**
 * Before the suite: dist/ built from the current sources (only when stale), because the tests that start
 * the real service run what `npm start` runs, the compiled build (test/helpers/process.ts).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

export default function setup(): void {
  execFileSync(process.execPath, [resolve(import.meta.dirname, '../scripts/build-if-stale.mjs')], { stdio: 'inherit' });
}
