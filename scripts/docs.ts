/**
 * `npm run docs` writes the generated documentation (scripts/docs/generate.ts: docs/tools/<family>.md,
 * docs/configuration.md, the README's tools table); `npm run docs:check` (`--check`) writes nothing and
 * exits 1 when a committed file differs from what would be generated (CI, and test/unit/docs.test.ts).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateDocs, ROOT, staleToolPages } from './docs/generate.js';

const check = process.argv.includes('--check');
const files = await generateDocs();
const stale: string[] = [];
for (const file of files) {
  const target = join(ROOT, file.path);
  let current: string | null = null;
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing: stale
  }
  if (current === file.text) continue;
  stale.push(file.path);
  if (!check) {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.text);
  }
}
const orphans = staleToolPages(files);
if (!check) for (const path of orphans) rmSync(join(ROOT, path));

if (check) {
  if (stale.length > 0 || orphans.length > 0) {
    console.error(
      `generated docs are stale: ${[...stale, ...orphans.map((p) => `${p} (no family writes it)`)].join(', ')}; run \`npm run docs\` and commit the result`,
    );
    process.exit(1);
  }
  console.log(`generated docs are current (${files.length} files)`);
} else {
  console.log(
    stale.length + orphans.length === 0
      ? `generated docs were current (${files.length} files)`
      : `wrote ${stale.join(', ')}${orphans.length ? `; removed ${orphans.join(', ')}` : ''}`,
  );
}
