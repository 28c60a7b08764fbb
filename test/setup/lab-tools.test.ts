/**
 * The real servers and programs the test labs start (docs/development.md "Tests that need lab tools"). On a
 * contributor's machine a missing one skips the suites that need it; on CI (`CI` set, as `.ci/run`
 * runs) a missing one fails here, so a lab that silently stopped running cannot pass for a green run.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findProgram } from '../lab/unbound.js';

/** program → the Debian package that brings it and what its absence skips. */
const LAB_TOOLS: Record<string, { readonly debian: string; readonly skips: string }> = {
  unbound: { debian: 'unbound', skips: 'dnssec-test, dane and the DNS client interop against a validating resolver' },
  'ldns-keygen': { debian: 'ldnsutils', skips: 'the signed zones of the DNSSEC lab (dnssec-test, dane)' },
  'ldns-signzone': { debian: 'ldnsutils', skips: 'the signed zones of the DNSSEC lab (dnssec-test, dane)' },
  'redis-server': { debian: 'redis-server', skips: 'scale-out: the shared ledger, cache and limits across instances' },
  openssl: { debian: 'openssl', skips: 'the cross-checks of the DER reader and the DANE digests' },
  ping: { debian: 'iputils-ping', skips: 'ping against the real ping binary on loopback' },
  dig: { debian: 'bind9-dnsutils', skips: 'the DNS lab as dig reads it' },
  nginx: { debian: 'nginx-light', skips: "tls-rating's graded servers served by nginx" },
};
const CHROMIUM = '/usr/bin/chromium';

function missingTools(): string[] {
  const missing = Object.keys(LAB_TOOLS).filter((name) => findProgram(name) === null);
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  return missing;
}

function describeMissing(missing: readonly string[]): string {
  return missing
    .map((name) =>
      name === 'chromium'
        ? `chromium (Debian package chromium): skips the developer page in a real browser`
        : `${name} (Debian package ${LAB_TOOLS[name]!.debian}): skips ${LAB_TOOLS[name]!.skips}`,
    )
    .join('\n');
}

describe('lab tools', () => {
  const missing = missingTools();
  if (missing.length > 0 && !process.env.CI)
    console.warn(`lab tools missing, suites skipped:\n${describeMissing(missing)}`);

  it.runIf(Boolean(process.env.CI))('are all installed on CI (.ci/run installs them)', () => {
    expect(describeMissing(missing)).toBe('');
  });
});
