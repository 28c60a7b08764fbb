/**
 * dns-propagation end to end: loopback DNS labs play the system resolver (zone apex and NS lookups),
 * the public resolvers (fresh, stale, dead) and the domain's authoritative server, reached on its
 * lab port through the `dnsAuthoritativePort` seam.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';

const META = { tool: 'dns-propagation', version: 'v1' };
const TIMEOUT_MS = 300;
const ALLOW_LOOPBACK = { allow: ['127.0.0.0/8', '::1/128'] };

let system: DnsLab;
let authoritative: DnsLab;
let fresh: DnsLab;
let fresh2: DnsLab;
let stale: DnsLab;
let dead: DnsLab;
let t: TestApp;
let patient: TestApp;
let labs: DnsLab[];

const current = [
  rr.a('prop.test', '192.0.2.10'),
  rr.a('prop.test', '192.0.2.11'),
  rr.mx('prop.test', 10, 'mx.prop.test'),
  rr.txt('prop.test', 'v=spf1 -all'),
  rr.cname('www.prop.test', 'prop.test'),
];

function config(extra: Record<string, unknown> = {}) {
  return {
    dns: {
      system: [`127.0.0.1:${system.port}`],
      timeoutMs: TIMEOUT_MS,
      publicResolvers: [
        { name: 'Fresh', ip: '8.8.8.8', countryCode: 'US', address: `127.0.0.1:${fresh.port}` },
        { name: 'Fresh Two', ip: '1.1.1.1', countryCode: 'AU', address: `127.0.0.1:${fresh2.port}` },
        { name: 'Stale', ip: '9.9.9.9', countryCode: 'CH', address: `127.0.0.1:${stale.port}` },
        { name: 'Dead', ip: '64.6.64.6', countryCode: 'US', address: `127.0.0.1:${dead.port}` },
        // the same server as Fresh under another name: asked once within a request
        { name: 'Fresh Alias', ip: '4.2.2.1', countryCode: 'US', address: `127.0.0.1:${fresh.port}` },
      ],
    },
    ...extra,
  };
}

beforeAll(async () => {
  system = await startDnsLab({
    authoritative: false,
    records: [
      rr.soa('prop.test'),
      rr.ns('prop.test', 'ns1.prop.test'),
      rr.ns('prop.test', 'ns2.prop.test'),
      rr.ns('prop.test', 'ns3.prop.test'),
      rr.a('ns1.prop.test', '127.0.0.1'),
      rr.a('ns2.prop.test', '127.0.0.1'),
      // a name server in a private network: never asked, even with loopback allowed
      rr.a('ns3.prop.test', '10.0.0.53'),
      rr.a('www.prop.test', '192.0.2.10'),
      rr.soa('slowzone.test'),
      rr.ns('slowzone.test', 'ns1.slowzone.test'),
      rr.a('ns1.slowzone.test', '127.0.0.1'),
    ],
  });
  authoritative = await startDnsLab({
    records: [rr.soa('prop.test'), ...current, rr.a('new.prop.test', '192.0.2.50')],
  });
  fresh = await startDnsLab({ authoritative: false, records: current });
  fresh2 = await startDnsLab({ authoritative: false, records: current });
  stale = await startDnsLab({
    authoritative: false,
    records: [
      rr.a('prop.test', '192.0.2.99'),
      rr.mx('prop.test', 10, 'MX.prop.test.'),
      rr.txt('prop.test', 'v=spf1 ~all'),
    ],
  });
  dead = await startDnsLab({ authoritative: false, records: current });
  dead.setBehaviour('*', { drop: true });
  labs = [system, authoritative, fresh, fresh2, stale, dead];
  t = await createTestApp(config({ targets: ALLOW_LOOPBACK }), { dnsAuthoritativePort: authoritative.port });
  // For counting questions: a time-out so long that no question is re-sent part-way (decisions §8),
  // so every packet a lab sees is a question; without the dead resolver, which would cost it.
  const base = config();
  patient = await createTestApp(
    {
      targets: ALLOW_LOOPBACK,
      dns: { ...base.dns, timeoutMs: 5000, publicResolvers: base.dns.publicResolvers.filter((r) => r.name !== 'Dead') },
    },
    { dnsAuthoritativePort: authoritative.port },
  );
});
afterAll(async () => {
  await t.close();
  await patient.close();
  await Promise.all(labs.map((l) => l.close()));
});
beforeEach(() => {
  for (const lab of labs) lab.clearQueries();
  for (const lab of [system, authoritative, fresh, fresh2, stale]) lab.clearBehaviours();
});

const rest = async (query: string, app = t) => {
  const res = await app.get(`/api/v1/dns-propagation?${query}`);
  return { status: res.status, body: await res.json() };
};

const entry = (name: string, ip: string, countryCode: string, records: string[], matches: boolean) => ({
  name,
  ip,
  countryCode,
  records,
  error: null,
  responseTime: expect.any(Number),
  matches,
});

describe('dns-propagation', () => {
  it('compares every resolver with the authoritative answer; a dead resolver costs one time-out', async () => {
    const started = Date.now();
    const { status, body } = await rest('domain=Prop.Test.');
    const took = Date.now() - started;
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      data: {
        domain: 'prop.test',
        type: 'A',
        status: 'partial',
        unreachable: ['Dead'],
        resolvers: [
          entry('Fresh', '8.8.8.8', 'US', ['192.0.2.10', '192.0.2.11'], true),
          entry('Fresh Two', '1.1.1.1', 'AU', ['192.0.2.10', '192.0.2.11'], true),
          entry('Stale', '9.9.9.9', 'CH', ['192.0.2.99'], false),
          {
            name: 'Dead',
            ip: '64.6.64.6',
            countryCode: 'US',
            records: [],
            error: expect.stringMatching(new RegExp(`127\\.0\\.0\\.1:${dead.port} did not answer`)),
            responseTime: expect.any(Number),
            matches: false,
          },
          entry('Fresh Alias', '4.2.2.1', 'US', ['192.0.2.10', '192.0.2.11'], true),
        ],
        expected: ['192.0.2.10', '192.0.2.11'],
        expectedSource: 'authoritative',
      },
      meta: META,
    });
    expect(took).toBeLessThan(2 * TIMEOUT_MS);
    expect(body.data.resolvers[3].responseTime).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    // the resolvers were asked to recurse; the authoritative server was asked directly, without recursion
    for (const lab of [fresh, fresh2, stale, dead])
      expect(lab.queries.every((q) => q.name === 'prop.test' && q.type === 'A' && q.rd)).toBe(true);
    expect(authoritative.queries.length).toBeGreaterThan(0);
    expect(authoritative.queries.every((q) => q.name === 'prop.test' && q.type === 'A' && !q.rd)).toBe(true);
  });

  it('asks each distinct server once: resolvers sharing an address, name servers sharing an address', async () => {
    const { body } = await rest('domain=prop.test&type=AAAA', patient);
    expect(body.data.resolvers.map((r: { name: string }) => r.name)).toEqual([
      'Fresh',
      'Fresh Two',
      'Stale',
      'Fresh Alias',
    ]);
    // Fresh and Fresh Alias share a server: one question
    for (const lab of [fresh, fresh2, stale])
      expect(lab.queries).toEqual([expect.objectContaining({ name: 'prop.test', type: 'AAAA' })]);
    // ns1 and ns2 share the authoritative server's address: one question
    expect(authoritative.queries).toEqual([expect.objectContaining({ name: 'prop.test', type: 'AAAA', rd: false })]);
  });

  it('never serves an answer from the cache: a second request asks again', async () => {
    await rest('domain=prop.test&type=TXT', patient);
    await rest('domain=prop.test&type=TXT', patient);
    for (const lab of [fresh, fresh2, stale, authoritative]) expect(lab.countQueries('prop.test', 'TXT')).toBe(2);
  });

  it('compares record sets ignoring order, case and trailing dots; all matching is propagated', async () => {
    const mx = await rest('domain=prop.test&type=mx');
    expect(mx.body.data).toMatchObject({
      type: 'MX',
      status: 'propagated',
      expected: ['10 mx.prop.test'],
      unreachable: ['Dead'],
    });
    expect(mx.body.data.resolvers[2]).toMatchObject({ name: 'Stale', records: ['10 MX.prop.test'], matches: true });
    const cname = await rest('domain=www.prop.test&type=CNAME');
    expect(cname.body.data).toMatchObject({
      status: 'partial',
      expected: ['prop.test'],
      expectedSource: 'authoritative',
    });
    expect(cname.body.data.resolvers[0]).toMatchObject({ records: ['prop.test'], matches: true });
    expect(cname.body.data.resolvers[2]).toMatchObject({ name: 'Stale', records: [], matches: false });
  });

  it('is not-propagated when no resolver has the authoritative answer yet', async () => {
    const { body } = await rest('domain=new.prop.test');
    expect(body.data).toMatchObject({
      status: 'not-propagated',
      expected: ['192.0.2.50'],
      expectedSource: 'authoritative',
      unreachable: ['Dead'],
    });
    expect(body.data.resolvers.map((r: { records: string[] }) => r.records)).toEqual([[], [], [], [], []]);
  });

  it('expects an empty set for a name the authoritative server says does not exist', async () => {
    const { body } = await rest('domain=gone.prop.test&type=AAAA');
    expect(body.data).toMatchObject({ status: 'propagated', expected: [], expectedSource: 'authoritative' });
    expect(authoritative.countQueries('gone.prop.test', 'AAAA')).toBeGreaterThan(0);
  });

  it('falls back to the majority when the authoritative server does not answer', async () => {
    authoritative.setBehaviour('prop.test', { drop: true });
    const { body } = await rest('domain=prop.test');
    expect(body.data).toMatchObject({
      status: 'partial',
      expected: ['192.0.2.10', '192.0.2.11'],
      expectedSource: 'majority',
    });
  });

  it('stops waiting for the authoritative answer after two time-outs and uses the majority', async () => {
    // each step of finding the zone's servers is slow, and the server itself never answers
    system.setBehaviour(/(^|\.)slowzone\.test$/, { delayMs: TIMEOUT_MS - 20 });
    authoritative.setBehaviour(/(^|\.)slowzone\.test$/, { drop: true });
    const started = Date.now();
    const { status, body } = await rest('domain=www.slowzone.test');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ expectedSource: 'majority', expected: [], status: 'propagated' });
    // two time-outs, not the four the steps would take
    expect(Date.now() - started).toBeLessThan(3 * TIMEOUT_MS);
    // The abandoned search still ends on its own bounds (four steps of at most one time-out each): let
    // it end within this test, so that none of its questions reaches a lab during the next one.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 4 * TIMEOUT_MS + 100 - Date.now())));
  });

  it('without an allow list, never asks name servers at loopback addresses and uses the majority', async () => {
    const strict = await createTestApp(config(), { dnsAuthoritativePort: authoritative.port });
    try {
      const { status, body } = await rest('domain=prop.test', strict);
      expect(status).toBe(200);
      expect(body.data).toMatchObject({ expectedSource: 'majority', expected: ['192.0.2.10', '192.0.2.11'] });
      expect(authoritative.queries).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  it('is a 502 naming the resolvers when none answers, within one time-out', async () => {
    for (const lab of [fresh, fresh2]) lab.setBehaviour('silent.prop.test', { drop: true });
    stale.setBehaviour('silent.prop.test', { servfail: true });
    const started = Date.now();
    const { status, body } = await rest('domain=silent.prop.test');
    expect(Date.now() - started).toBeLessThan(2 * TIMEOUT_MS);
    expect(status).toBe(502);
    expect(body).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^no public resolver answered A silent\.prop\.test: Fresh: .*did not answer.*; Stale: .*SERVFAIL.*; Dead: /,
      ),
      meta: META,
    });
  });

  it('rejects bad input with a 400 naming the parameter, asking nothing', async () => {
    const cases: [string, RegExp][] = [
      ['type=A', /^domain: missing required parameter$/],
      ['domain=prop.test&type=PTR', /^type: "PTR" is not one of A, AAAA, MX, TXT, CNAME, NS, SOA$/],
      ['domain=prop.test&type=ANY', /^type: "ANY" is not one of/],
      ['domain=prop.test&type=A%20AAAA', /^type: "A AAAA" is not one of/],
      [`domain=${'a'.repeat(64)}.test`, /^domain: label .* 63/],
      ['domain=exa%20mple.test', /^domain: .*contains " "/],
      ['domain=localhost', /^domain: .*single label/],
      ['domain=prop.test&type=A&type=MX', /^type: the parameter is repeated/],
    ];
    for (const [query, message] of cases) {
      const res = await rest(query);
      expect(res, query).toEqual({
        status: 400,
        body: { ok: false, error: expect.stringMatching(message), meta: META },
      });
    }
    for (const lab of labs) expect(lab.queries).toHaveLength(0);
  });

  it('answers through GraphQL, owner names with underscores included', async () => {
    const res = await graphql(
      t,
      '{ a: dnsPropagation(domain: "prop.test", type: "TXT") { status expected expectedSource resolvers { name matches } } b: dnsPropagation(domain: "_dmarc.prop.test", type: "TXT") { expected } }',
    );
    expect(res.body).toEqual({
      data: {
        a: {
          status: 'partial',
          expected: ['v=spf1 -all'],
          expectedSource: 'authoritative',
          resolvers: [
            { name: 'Fresh', matches: true },
            { name: 'Fresh Two', matches: true },
            { name: 'Stale', matches: false },
            { name: 'Dead', matches: false },
            { name: 'Fresh Alias', matches: true },
          ],
        },
        b: { expected: [] },
      },
    });
  });
});
