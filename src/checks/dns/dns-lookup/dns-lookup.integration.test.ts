import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';

let lab: DnsLab;
let slow: DnsLab;
let t: TestApp;

beforeAll(async () => {
  lab = await startDnsLab({
    authoritative: false,
    records: [
      rr.a('example.test', '192.0.2.10'),
      rr.aaaa('example.test', '2001:db8::10'),
      rr.mx('example.test', 20, 'mx2.example.test'),
      rr.mx('example.test', 10, 'aspmx.l.google.com'),
      rr.txt('example.test', 'v=spf1 -all'),
      rr.ns('example.test', 'ns1.example.test'),
      rr.soa('example.test', { serial: 2026112201, refresh: 3600, retry: 600, expire: 86400, minimum: 300 }),
      rr.cname('www.example.test', 'example.test'),
      rr.a('mx2.example.test', '192.0.2.20'),
      rr.a('aspmx.l.google.com', '192.0.2.30'),
      rr.mx('nullmx.test', 0, '.'),
      rr.a('broken.test', '192.0.2.40'),
    ],
  });
  slow = await startDnsLab({ records: [rr.a('example.test', '192.0.2.99')] });
  t = await createTestApp({
    dns: {
      system: [`127.0.0.1:${lab.port}`],
      timeoutMs: 500,
      publicResolvers: [{ name: 'LabPublic', ip: '8.8.8.8', countryCode: 'US', address: `127.0.0.1:${slow.port}` }],
    },
  });
});
afterAll(async () => {
  await t.close();
  await lab.close();
  await slow.close();
});
beforeEach(() => {
  lab.clearQueries();
  lab.clearBehaviours();
});

describe('dns-lookup', () => {
  it('answers all seven types through the system resolver, each asked once', async () => {
    const res = await t.get('/api/v1/dns-lookup?domain=Example.TEST.');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.meta).toEqual({ tool: 'dns-lookup', version: 'v1' });
    expect(body.data).toEqual({
      domain: 'example.test',
      rcode: 'NOERROR',
      records: {
        A: ['192.0.2.10'],
        AAAA: ['2001:db8::10'],
        MX: [
          { exchange: 'aspmx.l.google.com', priority: 10, type: 'MX' },
          { exchange: 'mx2.example.test', priority: 20, type: 'MX' },
        ],
        TXT: ['v=spf1 -all'],
        CNAME: [],
        NS: ['ns1.example.test'],
        SOA: [
          {
            nsname: 'ns1.example.test',
            hostmaster: 'hostmaster.example.test',
            serial: 2026112201,
            refresh: 3600,
            retry: 600,
            expire: 86400,
            minttl: 300,
          },
        ],
      },
      resolver: { name: 'system', ip: '127.0.0.1', requested: null, note: null },
      errors: [],
    });
    for (const type of ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'SOA'])
      expect(lab.countQueries('example.test', type)).toBe(1);
  });

  it('reports NXDOMAIN as a result with empty lists', async () => {
    const body = await (await t.get('/api/v1/dns-lookup?domain=nothing-here.test')).json();
    expect(body.ok).toBe(true);
    expect(body.data.rcode).toBe('NXDOMAIN');
    expect(body.data.records.A).toEqual([]);
  });

  it('uses a public resolver by its IP, and falls back to system with a note for an unknown one', async () => {
    const pub = await (await t.get('/api/v1/dns-lookup?domain=example.test&resolver=8.8.8.8')).json();
    expect(pub.data.resolver).toEqual({ name: 'LabPublic', ip: '8.8.8.8', requested: '8.8.8.8', note: null });
    expect(pub.data.records.A).toEqual(['192.0.2.99']);
    const unknown = await (await t.get('/api/v1/dns-lookup?domain=example.test&resolver=6.6.6.6')).json();
    expect(unknown.data.resolver.name).toBe('system');
    expect(unknown.data.resolver.note).toMatch(/"6\.6\.6\.6" is not one of the offered resolvers/);
  });

  it('lists a failing type in errors instead of passing its empty list off as "none"', async () => {
    lab.setBehaviour('broken.test', { servfail: true }, 'TXT');
    const body = await (await t.get('/api/v1/dns-lookup?domain=broken.test')).json();
    expect(body.ok).toBe(true);
    expect(body.data.records.A).toEqual(['192.0.2.40']);
    expect(body.data.errors).toEqual([
      { type: 'TXT', code: 'UPSTREAM_FAILED', message: expect.stringMatching(/SERVFAIL/) },
    ]);
  });

  it('is a 504 when no type answers in time, and a 502 on SERVFAIL everywhere', async () => {
    lab.setBehaviour('dead.test', { drop: true });
    const dead = await t.get('/api/v1/dns-lookup?domain=dead.test');
    expect(dead.status).toBe(504);
    expect((await dead.json()).error).toMatch(/did not answer/);
    lab.setBehaviour('sf.test', { servfail: true });
    const sf = await t.get('/api/v1/dns-lookup?domain=sf.test');
    expect(sf.status).toBe(502);
    expect((await sf.json()).error).toMatch(/SERVFAIL/);
  });

  it('rejects malformed names with a precise 400 and does not charge them', async () => {
    for (const [domain, message] of [
      ['a'.repeat(64) + '.test', /63/],
      ['localhost', /single label/],
      ['exa mple.test', /contains " "/],
    ] as const) {
      const res = await t.get(`/api/v1/dns-lookup?domain=${encodeURIComponent(domain)}`);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(message);
    }
    const missing = await t.get('/api/v1/dns-lookup');
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe('domain: missing required parameter');
    expect(lab.queries).toHaveLength(0);
    // not charged: a valid request after them still starts from the full allowance minus its own cost
    const fresh = await createTestApp({ dns: { system: [`127.0.0.1:${lab.port}`] } });
    await fresh.get('/api/v1/dns-lookup?domain=' + 'a'.repeat(64) + '.test');
    const ok = await fresh.get('/api/v1/dns-lookup?domain=example.test');
    expect(ok.headers.get('ratelimit-remaining')).toBe('297');
    await fresh.close();
  });
});

describe('mx-lookup', () => {
  it('lists hosts by priority with their address and provider', async () => {
    const body = await (await t.get('/api/v1/mx-lookup?domain=example.test')).json();
    expect(body.data).toEqual({
      domain: 'example.test',
      hosts: [
        {
          priority: 10,
          exchange: 'aspmx.l.google.com',
          ip: '192.0.2.30',
          addresses: ['192.0.2.30'],
          omittedAddresses: 0,
          provider: expect.stringMatching(/Google/),
        },
        {
          priority: 20,
          exchange: 'mx2.example.test',
          ip: '192.0.2.20',
          addresses: ['192.0.2.20'],
          omittedAddresses: 0,
          provider: null,
        },
      ],
      omittedExchanges: 0,
      truncated: false,
      nullMx: false,
      rcode: 'NOERROR',
    });
  });

  it('recognises a null MX', async () => {
    const body = await (await t.get('/api/v1/mx-lookup?domain=nullmx.test')).json();
    expect(body.data).toMatchObject({ hosts: [], nullMx: true });
  });
});

describe('sharing within one request', () => {
  it('asks each distinct question once when GraphQL composes checks', async () => {
    const res = await graphql(
      t,
      `{ a: dnsLookup(domain: "example.test") { records { MX { exchange } } } b: mxLookup(domain: "example.test") { hosts { ip } } c: mxLookup(domain: "example.test") { hosts { ip } } }`,
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(lab.countQueries('example.test', 'MX')).toBeLessThanOrEqual(1);
    expect(lab.countQueries('mx2.example.test', 'A')).toBeLessThanOrEqual(1);
  });
});
