/**
 * The service's own files outside the code (data/: the bundled RDAP bootstrap, the recorded OpenAPI
 * examples), found from wherever the code runs: src/ under tsx and the tests, or a chunk of the
 * production bundle in dist/ (scripts/build-if-stale.mjs), whose depth differs from the source file's.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The directory holding the project's package.json: the nearest one above this module. */
function projectRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  root = dir;
  return root;
}

/** Absolute path of a file given relative to the project root, e.g. "data/rdap-dns.json". */
export function projectFile(relative: string): string {
  return join(projectRoot(), relative);
}
