/**
 * Imports every module in ./definitions/ — each declares one check (defineCheck) — in name order: the
 * directory is the list, adding a check adds a file there and nothing else. The production bundle has no
 * directory to read: its build (scripts/build-if-stale.mjs) replaces this module with the same imports
 * written out, in the same order.
 */
import { readdirSync } from 'node:fs';

const definitionsDir = new URL('./definitions/', import.meta.url);
// .ts under tsx and vitest (never .d.ts declarations)
const definitionFiles = readdirSync(definitionsDir)
  .filter((name) => /\.(ts|js)$/.test(name) && !name.endsWith('.d.ts'))
  .sort();
for (const name of definitionFiles) await import(new URL(name, definitionsDir).href);
