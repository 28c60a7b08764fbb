/**
 * Prints the schema built by Pothos to schema/schema.graphql.
 * `--check` compares instead of writing and exits 1 when the file is stale (CI runs it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { schema } from '../src/graphql-server/schema.js';

const target = fileURLToPath(new URL('../schema/schema.graphql', import.meta.url));
const printed = `${printSchema(schema)}\n`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing file: stale
  }
  if (current !== printed) {
    console.error(
      'schema/schema.graphql is stale: run `npm run schema:print` (and `npm run codegen`) and commit the result',
    );
    process.exit(1);
  }
  console.log('schema/schema.graphql is current');
} else {
  writeFileSync(target, printed);
  console.log(`wrote ${target}`);
}
