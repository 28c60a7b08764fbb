/**
 * dnssec-chain with `dnssec.source: authoritative`: the walk from the (lab) root servers down the
 * delegations, against three authoritative unbounds that answer with referrals
 * (test/lab/dnssec-walk-lab.ts). Its verdicts match those the resolver source gives on the same zones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DNSSEC_WALK_ZONES as Z,
  startDnssecWalkLab,
  type DnssecWalkLab,
} from '../../../../test/lab/dnssec-walk-lab.js';
import { missingDnssecPrograms } from '../../../../test/lab/unbound.js';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.js';

const missing = missingDnssecPrograms();
const suiteName =
  missing.length > 0
    ? `dnssec-chain walking the delegations — SKIPPED: ${missing.join(', ')} not installed (Debian packages unbound, ldnsutils)`
    : 'dnssec-chain walking the delegations from the root servers';

describe.skipIf(missing.length > 0)(suiteName, () => {
  let lab: DnssecWalkLab;
  let walk: TestApp;
  let viaResolver: TestApp;

  beforeAll(async () => {
    lab = await startDnssecWalkLab();
    const config = (source: 'authoritative' | 'resolver') => ({
      dns: { system: [`${lab.resolver.host}:${lab.resolver.port}`], timeoutMs: 2000 },
      dnssec: { trustAnchors: [lab.trustAnchor], source, rootServers: [`${lab.root.host}:${lab.root.port}`] },
      // the lab's name servers are on loopback, which the target rules refuse by default
      targets: { allow: ['127.0.0.0/8'] },
      quota: { credits: 100_000 },
    });
    walk = await createTestApp(config('authoritative'), { dnsAuthoritativePort: lab.port });
    viaResolver = await createTestApp(config('resolver'));
  }, 60_000);
  afterAll(async () => {
    await walk?.close();
    await viaResolver?.close();
    await lab?.close();
  });

  const chain = async (t: TestApp, domain: string) => {
    const res = await t.get(`/api/v1/dnssec-chain?domain=${domain}`);
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}\n${lab.logs()}`);
    return body.data;
  };

  it('secure: the walk follows root → lab → secure.lab and verifies every link', async () => {
    const data = await chain(walk, Z.secure);
    expect(data).toMatchObject({ status: 'secure', brokenLink: null, source: 'authoritative' });
    expect(data.chain.map((l: { zone: string; status: string }) => [l.zone, l.status])).toEqual([
      ['.', 'secure'],
      ['lab', 'secure'],
      [Z.secure, 'secure'],
    ]);
    expect(data.answer).toMatchObject({
      rcode: 'NOERROR',
      records: [`${Z.secure}. 300 IN A 192.0.2.1`],
      status: 'secure',
    });
  });

  it('proves a name error below a secure zone from its own servers', async () => {
    const data = await chain(walk, `nothing.${Z.secure}`);
    expect(data).toMatchObject({
      status: 'secure',
      answer: { rcode: 'NXDOMAIN', denial: { kind: 'nsec', status: 'valid' } },
    });
  });

  it.each([
    [Z.expired, 'bogus', { zone: Z.expired, code: 'RRSIG_EXPIRED' }],
    [Z.island, 'insecure', null],
  ] as const)('%s: %s, as through the resolver', async (zone, status, broken) => {
    const walked = await chain(walk, zone);
    expect(walked.status).toBe(status);
    expect(walked.brokenLink === null ? null : { zone: walked.brokenLink.zone, code: walked.brokenLink.code }).toEqual(
      broken,
    );
    const resolved = await chain(viaResolver, zone);
    expect(resolved.status).toBe(status);
    expect(resolved.chain.map((l: { zone: string }) => l.zone)).toEqual(
      walked.chain.map((l: { zone: string }) => l.zone),
    );
  });
});
