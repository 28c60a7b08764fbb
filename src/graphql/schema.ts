/**
 * Assembles the schema: every module in ./definitions/ declares one check (defineCheck), and importing
 * it registers the check's Query field with the object types it uses (./types/). The directory is the
 * list: adding a check adds a file here, nothing else to register.
 */
import { readdirSync } from 'node:fs';
import { builder } from './builder.js';

const definitionsDir = new URL('./definitions/', import.meta.url);
// .ts under tsx and vitest, .js in the compiled build (never the .d.ts declarations)
const definitionFiles = readdirSync(definitionsDir)
  .filter((name) => /\.(ts|js)$/.test(name) && !name.endsWith('.d.ts'))
  .sort();
for (const name of definitionFiles) await import(new URL(name, definitionsDir).href);

export const schema = builder.toSchema({ sortSchema: true });
