#!/usr/bin/env node
/**
 * `npm audit --omit=dev` for CI: fails on a high or critical advisory of a runtime dependency unless
 * `audit-allowlist.json` names it with a reason (SECURITY.md). When the registry offers no audit
 * endpoint (some mirrors answer 405), nothing can be checked: it says so loudly and does not fail the
 * build on that alone.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const allowlist = JSON.parse(readFileSync(new URL('../audit-allowlist.json', import.meta.url), 'utf8'));
const allowed = new Map(allowlist.map((entry) => [entry.advisory, entry.reason]));

let output;
try {
  output = execFileSync('npm', ['audit', '--omit=dev', '--json'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
} catch (e) {
  output = e.stdout; // npm audit exits 1 when it finds anything
}
const report = JSON.parse(output);
if (report.statusCode !== undefined || report.error !== undefined) {
  console.log(
    `npm audit: NOT CHECKED — the registry's audit endpoint answered ${report.statusCode ?? report.error?.code}: ${report.message ?? report.error?.summary}`,
  );
  process.exit(0);
}

const failing = [];
for (const [name, vulnerability] of Object.entries(report.vulnerabilities ?? {})) {
  for (const via of vulnerability.via) {
    if (typeof via !== 'object' || !['high', 'critical'].includes(via.severity)) continue;
    if (allowed.has(via.url)) {
      console.log(`npm audit: allowed ${via.severity} ${name}: ${via.title} (${via.url}): ${allowed.get(via.url)}`);
      continue;
    }
    failing.push(`${via.severity} ${name}: ${via.title} (${via.url})`);
  }
}
const counts = report.metadata?.vulnerabilities ?? {};
console.log(
  `npm audit: ${Object.entries(counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ')}`,
);
if (failing.length > 0) {
  console.error(
    `npm audit: high/critical advisories of runtime dependencies not in audit-allowlist.json:\n  ${failing.join('\n  ')}`,
  );
  process.exit(1);
}
