/**
 * Imports every check's declaration — the `check.ts` of each folder `src/checks/<family>/<check>/` — in path
 * order: the folders are the list, adding a check adds its folder and nothing else; a command may have
 * selected fewer (./declaration-selection.ts). The production bundle has no directory to read: its build
 * (scripts/build-if-stale.mjs) replaces this module with the same imports written out, found by the same
 * rule (CHECK_DECLARATION), in the same order — the command's bundle with the same selection.
 */
import { existsSync, readdirSync } from 'node:fs';
import { declarationsToLoad } from './declaration-selection.js';

const checksDir = new URL('../checks/', import.meta.url);

/** `<family>/<check>/check.ts`, relative to src/checks/ (the build's rule too) */
function declarationFiles(): { family: string; tool: string; file: string }[] {
  const dirs = (url: URL) =>
    readdirSync(url, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  return dirs(checksDir).flatMap((family) =>
    dirs(new URL(`${family}/`, checksDir))
      .map((tool) => ({ family, tool, file: `${family}/${tool}/check.ts` }))
      .filter(({ file }) => existsSync(new URL(file, checksDir))),
  );
}

for (const { file } of declarationsToLoad(declarationFiles())) await import(new URL(file, checksDir).href);
