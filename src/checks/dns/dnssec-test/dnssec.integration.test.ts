/**
 * dnssec-test end to end. The four verdicts come from real software: zones signed at test time with
 * ldnsutils, served by an authoritative unbound, validated by a second unbound whose only trust
 * anchor is the lab's "lab." zone (test/lab/dnssec-lab.ts). Failures, de-duplication and bad input
 * use the in-process DNS lab as a stand-in resolver.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDnssecLab, type DnssecLab } from '../../../../test/lab/dnssec-lab.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { missingDnssecPrograms } from '../../../../test/lab/unbound.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';

const META = { tool: 'dnssec-test', version: 'v1' };
// long enough that no question to the stand-in resolver is re-sent part-way, so the lab's counts are questions
const TIMEOUT_MS = 1000;
const missing = missingDnssecPrograms();
if (missing.length > 0) {
  console.warn(
    `dnssec-test against unbound SKIPPED: ${missing.join(', ')} not installed (Debian packages unbound, ldnsutils)`,
  );
}
const realSuiteName =
  missing.length > 0
    ? `dnssec-test against a validating unbound — SKIPPED: ${missing.join(', ')} not installed (Debian packages unbound, ldnsutils)`
    : 'dnssec-test against a validating unbound';

describe.skipIf(missing.length > 0)(realSuiteName, () => {
  let lab: DnssecLab;
  let t: TestApp;

  beforeAll(async () => {
    lab = await startDnssecLab();
    t = await createTestApp({ dns: { system: [`${lab.resolver.host}:${lab.resolver.port}`], timeoutMs: 3000 } });
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await lab?.close();
  });

  const check = async (domain: string) => {
    const res = await t.get(`/api/v1/dnssec-test?domain=${domain}`);
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}\n${lab.logs()}`);
    return body;
  };

  it('enabled: a signed zone with a DS record at the parent validates to the trust anchor', async () => {
    const body = await check('secure.lab');
    expect(body).toEqual({
      ok: true,
      data: {
        domain: 'secure.lab',
        keyCount: 1,
        validated: true,
        status: 'enabled',
        reason: expect.stringMatching(/authenticated/),
        dsPresent: true,
        authenticated: true,
        rcode: 'NOERROR',
      },
      meta: META,
    });
  });

  it('enabled for a name inside a signed zone that has no keys of its own', async () => {
    const body = await check('www.secure.lab');
    expect(body.data).toMatchObject({
      status: 'enabled',
      validated: true,
      keyCount: 0,
      dsPresent: false,
      authenticated: true,
    });
  });

  it('insecure: a signed zone without a DS record at the parent', async () => {
    const body = await check('island.lab');
    expect(body.data).toEqual({
      domain: 'island.lab',
      keyCount: 1,
      validated: false,
      status: 'insecure',
      reason: expect.stringMatching(/no DS record/),
      dsPresent: false,
      authenticated: false,
      rcode: 'NOERROR',
    });
  });

  it('disabled: an unsigned zone', async () => {
    const body = await check('plain.lab');
    expect(body.data).toEqual({
      domain: 'plain.lab',
      keyCount: 0,
      validated: false,
      status: 'disabled',
      reason: expect.stringMatching(/unsigned/),
      dsPresent: false,
      authenticated: false,
      rcode: 'NOERROR',
    });
  });

  it('bogus: expired signatures (SERVFAIL when validating, an answer with checking disabled)', async () => {
    const body = await check('expired.lab');
    expect(body.data).toEqual({
      domain: 'expired.lab',
      keyCount: 1,
      validated: false,
      status: 'bogus',
      reason: expect.stringMatching(/do not validate/),
      dsPresent: true,
      authenticated: false,
      rcode: 'NOERROR',
    });
  });

  it('bogus: a damaged signature over the DNSKEY set', async () => {
    const body = await check('badsig.lab');
    expect(body.data).toMatchObject({ status: 'bogus', validated: false, keyCount: 1, dsPresent: true });
  });

  it('answers through GraphQL too, several domains in one operation', async () => {
    const res = await graphql(
      t,
      '{ a: dnssecTest(domain: "secure.lab") { status validated } b: dnssecTest(domain: "plain.lab") { status } c: dnssecTest(domain: "expired.lab") { status } }',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { a: { status: 'enabled', validated: true }, b: { status: 'disabled' }, c: { status: 'bogus' } },
    });
  });
});

describe('dnssec-test against a stand-in resolver', () => {
  let resolver: DnsLab;
  let t: TestApp;

  beforeAll(async () => {
    resolver = await startDnsLab({
      authoritative: false,
      records: [
        rr.dnskey(
          'signed.test',
          257,
          13,
          '4++DrRquKGRre7CMqk8OntfBAG5I27tuETc8v9SxyPWerzZ0GxyTctF4JLpbdVbF8e0rkFs4gR+rjwZa6MPXrQ==',
        ),
        rr.ds('signed.test', 58396, 13, 2, 'f82861831fdf73dc41a22e1f3833486a6cdf5c64e73379921a46f6221fbe3cf3'),
        rr.a('unsigned.test', '192.0.2.1'),
      ],
    });
    t = await createTestApp({ dns: { system: [`127.0.0.1:${resolver.port}`], timeoutMs: TIMEOUT_MS } });
  });
  afterAll(async () => {
    await t.close();
    await resolver.close();
  });
  beforeEach(() => {
    resolver.clearQueries();
    resolver.clearBehaviours();
    resolver.flags.ad = false;
    t.services.dnsCache.clear();
  });

  it('asks DNSKEY with DO, DNSKEY with DO and CD, and DS with DO and CD — each once', async () => {
    const res = await graphql(
      t,
      '{ a: dnssecTest(domain: "signed.test") { status } b: dnssecTest(domain: "signed.test") { keyCount } }',
    );
    expect(res.body.data).toEqual({ a: { status: 'insecure' }, b: { keyCount: 1 } });
    const seen = resolver.queries.map((q) => `${q.type} do=${q.do} cd=${q.cd}`).sort();
    expect(seen).toEqual(['DNSKEY do=true cd=false', 'DNSKEY do=true cd=true', 'DS do=true cd=true']);
  });

  it('reads a resolver that does not validate (no AD) as insecure for a signed zone, and says why', async () => {
    const body = await (await t.get('/api/v1/dnssec-test?domain=signed.test')).json();
    expect(body.data).toMatchObject({
      status: 'insecure',
      dsPresent: true,
      authenticated: false,
      reason: expect.stringMatching(/did not authenticate/),
    });
    resolver.flags.ad = true;
    const other = await (await t.get('/api/v1/dnssec-test?domain=unsigned.test')).json();
    expect(other.data).toMatchObject({ status: 'enabled', authenticated: true, keyCount: 0 });
  });

  it('reports a name that does not exist with its rcode', async () => {
    const body = await (await t.get('/api/v1/dnssec-test?domain=nothing.test')).json();
    expect(body.data).toMatchObject({ status: 'disabled', keyCount: 0, rcode: 'NXDOMAIN' });
  });

  it('is a 502 naming the resolver when the name fails with and without CD', async () => {
    resolver.setBehaviour('broken.test', { servfail: true });
    const res = await t.get('/api/v1/dnssec-test?domain=broken.test');
    expect(res.status).toBe(502);
    const body = await res.json();
    expect(body).toEqual({
      ok: false,
      error: expect.stringMatching(/SERVFAIL with and without checking disabled/),
      meta: META,
    });
    const gql = await graphql(t, '{ dnssecTest(domain: "broken.test") { status } }');
    expect(gql.body.errors[0].extensions).toMatchObject({
      code: 'UPSTREAM_FAILED',
      kind: 'SERVFAIL',
      // the service's own resolver is named, never located (test/security/internal-addresses.test.ts)
      upstream: "the service's resolver",
    });
  });

  it('is a 504 when the resolver does not answer, and a 502 when only the DS question fails', async () => {
    resolver.setBehaviour('dead.test', { drop: true });
    const started = Date.now();
    const dead = await t.get('/api/v1/dnssec-test?domain=dead.test');
    expect(dead.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(2 * TIMEOUT_MS);
    resolver.setBehaviour('signed.test', { refused: true }, 'DS');
    const refused = await t.get('/api/v1/dnssec-test?domain=signed.test');
    expect(refused.status).toBe(502);
    expect((await refused.json()).error).toMatch(/REFUSED|refused/);
  });

  it('rejects malformed names with a 400 naming the parameter, asking nothing', async () => {
    for (const [domain, message] of [
      ['', /^domain: missing required parameter$/],
      ['a'.repeat(64) + '.test', /^domain: label .* 63/],
      ['exa mple.test', /^domain: .*contains " "/],
      ['single', /^domain: .*single label/],
      ['192.0.2.1', /^domain: .*is an IP address/],
    ] as const) {
      const res = await t.get(`/api/v1/dnssec-test?domain=${encodeURIComponent(domain)}`);
      expect(res.status, domain).toBe(400);
      expect(await res.json(), domain).toEqual({ ok: false, error: expect.stringMatching(message), meta: META });
    }
    expect(resolver.queries).toHaveLength(0);
  });
});
