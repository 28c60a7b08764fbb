/**
 * `npm run rest:documents` writes every REST document schema/rest/<tool>.graphql from its check
 * (scripts/rest-documents/generate.ts) and removes those no check writes; `npm run rest:documents:check`
 * (`--check`) writes nothing and exits 1 when one differs from what would be written (CI, and
 * test/unit/rest/rest-documents.test.ts). Run `npm run codegen` after writing them.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateRestDocuments, orphanDocuments, ROOT } from './rest-documents/generate.js';

const check = process.argv.includes('--check');
const documents = generateRestDocuments();
const stale: string[] = [];
for (const document of documents) {
  const target = join(ROOT, document.path);
  let current: string | null = null;
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing: stale
  }
  if (current === document.text) continue;
  stale.push(document.path);
  if (!check) writeFileSync(target, document.text);
}
const orphans = orphanDocuments(documents);
if (!check) for (const path of orphans) rmSync(join(ROOT, path));

if (check) {
  if (stale.length > 0 || orphans.length > 0) {
    console.error(
      `REST documents are stale: ${[...stale, ...orphans.map((p) => `${p} (no check writes it)`)].join(', ')}; run \`npm run rest:documents\`, then \`npm run codegen\`, and commit the result`,
    );
    process.exit(1);
  }
  console.log(`REST documents are current (${documents.length})`);
} else {
  console.log(
    stale.length + orphans.length === 0
      ? `REST documents were current (${documents.length})`
      : `wrote ${stale.join(', ')}${orphans.length ? `; removed ${orphans.join(', ')}` : ''}`,
  );
}
