/**
 * `npm run openapi:examples`: one realistic example answer per REST operation for the OpenAPI document,
 * taken from a run of the integration tests against their loopback labs (never hand-written): the suite
 * runs with NETDIAG_RECORD_EXAMPLES set (test/helpers/example-recorder.ts), and for each tool the smallest
 * recorded answer that is not an empty result becomes data/openapi-examples.json. The OpenAPI test checks
 * every example against the document, so a shape change that leaves an example behind fails CI.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Recorded {
  tool: string;
  query: Record<string, string>;
  body: { ok: true; data: unknown };
}

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'netdiag-examples-'));
const run = spawnSync('npx', ['vitest', 'run', 'test/integration'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, NETDIAG_RECORD_EXAMPLES: dir },
});
if (run.status !== 0) console.warn(`the test run exited ${run.status}: examples come from the tests that passed`);

const best = new Map<string, { recorded: Recorded; size: number }>();
for (const file of readdirSync(dir).sort()) {
  const recorded = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Recorded;
  const text = JSON.stringify(recorded.body);
  // skip the answers that show little (empty lists and nulls only): a reference should show data
  const richness = (text.match(/"[^"]+":(?!null|\[\]|""|false|0[,}])/g) ?? []).length;
  const size = text.length - richness * 40;
  const current = best.get(recorded.tool);
  if (!current || size < current.size) best.set(recorded.tool, { recorded, size });
}
rmSync(dir, { recursive: true, force: true });

const examples = Object.fromEntries(
  [...best.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tool, { recorded }]) => [tool, { query: recorded.query, body: recorded.body }]),
);
const target = join(root, 'data', 'openapi-examples.json');
writeFileSync(target, `${JSON.stringify(examples, null, 2)}\n`);
console.log(`wrote ${target}: ${Object.keys(examples).length} tools (${Object.keys(examples).join(', ')})`);
