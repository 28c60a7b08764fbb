/**
 * Where the shared real-world fixtures live: `NETDIAG_SHARED_FIXTURES` when set,
 * else the `shared/fixtures` directory beside the repository (`<repo>/../shared/fixtures`).
 * null when neither exists, e.g. in a clone of the project alone: corpus suites
 * then skip themselves instead of failing `npm test`.
 */

import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function sharedFixturesDir(): string | null {
  const configured = process.env['NETDIAG_SHARED_FIXTURES'];
  const candidate =
    configured !== undefined && configured !== ''
      ? resolve(configured)
      : resolve(REPOSITORY_ROOT, '..', 'shared', 'fixtures');
  try {
    return statSync(candidate).isDirectory() ? candidate : null;
  } catch {
    return null;
  }
}
