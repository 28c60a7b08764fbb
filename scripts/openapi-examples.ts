/**
 * `npm run openapi:examples`: one realistic example answer per REST operation for the OpenAPI document,
 * taken from a run of the integration tests against their loopback labs (never hand-written): the suite
 * runs with NETDIAG_RECORD_EXAMPLES set (test/helpers/example-recorder.ts), and for each tool the smallest
 * recorded answer that is not an empty result becomes data/openapi-examples.json. The OpenAPI test checks
 * every example against the document, so a shape change that leaves an example behind fails CI.
 *
 * The integration tests are test/integration/ and each check's `*.integration.test.ts` in its folder.
 * `npm run openapi:examples -- src/checks/dns/caa` runs only the tests those paths name and records the
 * examples of the tools they call, keeping the others' as they are (a new check's example alone).
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
const only = process.argv.slice(2);
const run = spawnSync(
  'npx',
  ['vitest', 'run', ...(only.length > 0 ? only : ['test/integration', '.integration.test.ts'])],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NETDIAG_RECORD_EXAMPLES: dir },
  },
);
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

const target = join(root, 'data', 'openapi-examples.json');
const kept: Record<string, unknown> = only.length > 0 ? JSON.parse(readFileSync(target, 'utf8')) : {};
const recordedNow = Object.fromEntries(
  [...best.entries()].map(([tool, { recorded }]) => [tool, { query: recorded.query, body: recorded.body }]),
);
const examples = Object.fromEntries(Object.entries({ ...kept, ...recordedNow }).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(target, `${JSON.stringify(examples, null, 2)}\n`);
console.log(
  `wrote ${target}: ${Object.keys(examples).length} tools, recorded now: ${Object.keys(recordedNow).sort().join(', ')}`,
);
