import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { liteRecord, startFakeIpinfo, type FakeIpinfo } from '../../../../test/lab/ipinfo-server.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';

// Addresses are looked up in the bundled database only; nothing is ever sent to them.
let lab: DnsLab;
let t: TestApp;

beforeAll(async () => {
  lab = await startDnsLab({
    authoritative: false,
    records: [
      rr.a('dns.example.test', '8.8.8.8'),
      rr.a('inside.example.test', '10.0.0.5'),
      rr.aaaa('v6only.example.test', '2001:4860::1'),
    ],
  });
  t = await createTestApp({ dns: { system: [`127.0.0.1:${lab.port}`] }, server: { trustedProxies: ['127.0.0.1/32'] } });
});
afterAll(async () => {
  await t.close();
  await lab.close();
});

describe('ip-info and asn-lookup (bundled database)', () => {
  it('answers for an IP with AS, country and continent, source database', async () => {
    const res = await t.get('/api/v1/ip-info?target=8.8.8.8');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.meta).toEqual({ tool: 'ip-info', version: 'v1' });
    expect(body.data).toMatchObject({
      ip: '8.8.8.8',
      source: 'database',
      asn: 'AS15169',
      asName: expect.stringMatching(/google/i),
      asDomain: '',
      countryCode: 'US',
      country: 'United States',
      continentCode: 'NA',
      continent: 'North America',
      resolvedFrom: null,
      liveError: null,
    });
  });

  it('resolves a domain to its first A record and says so', async () => {
    const body = await (await t.get('/api/v1/asn-lookup?target=dns.example.test')).json();
    expect(body.meta.tool).toBe('asn-lookup');
    expect(body.data).toMatchObject({ ip: '8.8.8.8', asn: 'AS15169', resolvedFrom: 'dns.example.test' });
  });

  it('refuses private addresses with a clear 400, directly or through a domain', async () => {
    const direct = await t.get('/api/v1/ip-info?target=192.168.1.1');
    expect(direct.status).toBe(400);
    expect((await direct.json()).error).toMatch(/is a private address, which has no public routing data/);
    const viaName = await t.get('/api/v1/ip-info?target=inside.example.test');
    expect(viaName.status).toBe(400);
    expect((await viaName.json()).error).toMatch(/inside\.example\.test resolves to 10\.0\.0\.5/);
  });

  it('says when a domain has no A record or does not exist', async () => {
    expect((await (await t.get('/api/v1/ip-info?target=v6only.example.test')).json()).error).toMatch(/no A record/);
    expect((await (await t.get('/api/v1/ip-info?target=missing.example.test')).json()).error).toMatch(/NXDOMAIN/);
  });

  it('what-is-my-ip adds AS and country to the caller address', async () => {
    const body = await (await t.get('/api/v1/what-is-my-ip', { headers: { 'x-forwarded-for': '8.8.4.4' } })).json();
    expect(body.meta.tool).toBe('what-is-my-ip');
    expect(body.data).toMatchObject({ ip: '8.8.4.4', asn: 'AS15169', countryCode: 'US', country: 'United States' });
  });

  it('answers through GraphQL with the shared interface', async () => {
    const res = await graphql(t, '{ ipInfo(target: "8.8.8.8") { ... on IpFacts { asn } resolvedFrom } }');
    expect(res.body).toEqual({ data: { ipInfo: { asn: 'AS15169', resolvedFrom: null } } });
  });
});

describe('live source (IPinfo Lite, a loopback fake)', () => {
  let fake: FakeIpinfo;
  let live: TestApp;
  beforeAll(async () => {
    fake = await startFakeIpinfo();
    live = await createTestApp({
      ipInfo: { source: 'ipinfo', baseUrl: fake.url, token: 'tok123' },
      dns: { system: [`127.0.0.1:${lab.port}`] },
    });
  });
  afterAll(async () => {
    await live.close();
    await fake.close();
  });

  it('uses the live answer with asDomain, and caches it', async () => {
    fake.reply('1.1.1.1', {
      kind: 'json',
      record: liteRecord('1.1.1.1', { asn: 'AS13335', as_name: 'Cloudflare, Inc.', as_domain: 'cloudflare.com' }),
    });
    const body = await (await live.get('/api/v1/ip-info?target=1.1.1.1')).json();
    expect(body.data).toMatchObject({ source: 'live', asn: 'AS13335', asDomain: 'cloudflare.com', liveError: null });
    await live.get('/api/v1/ip-info?target=1.1.1.1');
    expect(fake.requests.filter((r) => r.path === '/lite/1.1.1.1')).toHaveLength(1);
    expect(fake.requests[0]!.query.token).toBe('tok123');
  });

  it('falls back to the database on a live failure and says so', async () => {
    fake.reply('8.8.4.4', { kind: 'status', status: 500 });
    const body = await (await live.get('/api/v1/ip-info?target=8.8.4.4')).json();
    expect(body.data).toMatchObject({ source: 'database', asn: 'AS15169', liveError: expect.stringMatching(/500/) });
    expect(JSON.stringify(body)).not.toContain('tok123');
  });
});
