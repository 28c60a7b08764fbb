import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, graphql, TEST_KEY, type TestApp } from '../helpers/app.js';

const PUBLIC = '93.184.216.34'; // a value only: my-ip never connects anywhere
const viaProxy = { 'x-forwarded-for': PUBLIC };
const proxyConfig = { server: { trustedProxies: ['127.0.0.1/32'] } };

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

describe('REST envelope and status codes', () => {
  it('answers my-ip with the envelope, meta and RateLimit headers', async () => {
    t = await createTestApp(proxyConfig);
    const res = await t.get('/api/v1/my-ip', { headers: viaProxy });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({
      ok: true,
      data: { ip: PUBLIC, version: 'IPv4' },
      meta: { tool: 'my-ip', version: 'v1' },
    });
    expect(res.headers.get('ratelimit-policy')).toBe('"daily";q=300;w=86400');
    expect(res.headers.get('ratelimit')).toBe('"daily";r=299;t=86400');
    expect(res.headers.get('ratelimit-limit')).toBe('300');
    expect(res.headers.get('ratelimit-remaining')).toBe('299');
    expect(res.headers.get('ratelimit-reset')).toBe('86400');
    expect(res.headers.get('retry-after')).toBeNull();
  });

  it('gives the same data through REST and GraphQL', async () => {
    t = await createTestApp(proxyConfig);
    const rest = await (await t.get('/api/v1/my-ip', { headers: viaProxy })).json();
    const gql = await graphql(t, '{ myIp { ip version } }', {}, { headers: viaProxy });
    expect(gql.status).toBe(200);
    expect(gql.body.data.myIp).toEqual(rest.data);
  });

  it('401 without a key names both ways to pass one', async () => {
    t = await createTestApp();
    const res = await t.get('/api/v1/my-ip', { key: null });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body).toEqual({
      ok: false,
      error: expect.stringContaining('x-api-key'),
      meta: { tool: 'my-ip', version: 'v1' },
    });
    expect(body.error).toContain('api_key');
    expect(body).not.toHaveProperty('data');
  });

  it('accepts the key as the api_key query parameter, and rejects unknown keys', async () => {
    t = await createTestApp(proxyConfig);
    const ok = await t.get(`/api/v1/my-ip?api_key=${TEST_KEY}`, { key: null, headers: viaProxy });
    expect(ok.status).toBe(200);
    const bad = await t.get('/api/v1/my-ip?api_key=not-a-key', { key: null, headers: viaProxy });
    expect(bad.status).toBe(401);
    expect((await bad.json()).error).toMatch(/unknown or has been revoked/);
  });

  it('accepts issued keys and refuses revoked ones', async () => {
    t = await createTestApp(proxyConfig);
    const { key } = t.services.keyring.issue();
    expect((await t.get('/api/v1/my-ip', { key, headers: viaProxy })).status).toBe(200);
    await t.close();
    t = await createTestApp({ ...proxyConfig, auth: { keys: [TEST_KEY], revoked: [key], secret: 'x'.repeat(32) } });
    expect((await t.get('/api/v1/my-ip', { key, headers: viaProxy })).status).toBe(401);
  });

  it('404 for unknown tools and versions, with meta.tool the last segment', async () => {
    t = await createTestApp();
    const tool = await t.get('/api/v1/no-such-tool');
    expect(tool.status).toBe(404);
    expect(await tool.json()).toMatchObject({ ok: false, meta: { tool: 'no-such-tool', version: 'v1' } });
    const version = await t.get('/api/v2/my-ip');
    expect(version.status).toBe(404);
    expect((await version.json()).meta.tool).toBe('my-ip');
  });

  it('suggests the tool meant by a misspelt name, as GraphQL suggests field names', async () => {
    t = await createTestApp();
    const misspelt = await t.get('/api/v1/dns-lokup?domain=example.com');
    expect(misspelt.status).toBe(404);
    // the nearest first (graphql-js' suggestion order), at most three
    expect((await misspelt.json()).error).toMatch(
      /^unknown tool "dns-lokup": did you mean "dns-lookup"( or "[a-z-]+"){0,2}\? GET \/api\/v1 lists every tool$/,
    );
    const nothingNear = await t.get('/api/v1/qqqqqqqqqqqqqqqq');
    expect((await nothingNear.json()).error).toBe('unknown tool "qqqqqqqqqqqqqqqq": GET /api/v1 lists every tool');
  });

  it('names a parameter sent under a near name when the required one is missing', async () => {
    t = await createTestApp();
    const res = await t.get('/api/v1/dns-lookup?domian=example.com');
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(
      'domain: missing required parameter (the request has "domian": did you mean "domain"?)',
    );
    const plain = await t.get('/api/v1/dns-lookup?x=1');
    expect((await plain.json()).error).toBe('domain: missing required parameter');
  });

  it('405 with Allow for other methods; HEAD is GET without a body', async () => {
    t = await createTestApp(proxyConfig);
    const post = await t.get('/api/v1/my-ip', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await post.json()).ok).toBe(false);
    const head = await t.get('/api/v1/my-ip', { method: 'HEAD', headers: viaProxy });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
  });

  it('400 for a private, missing or malformed client address, not charged', async () => {
    t = await createTestApp();
    const res = await t.get('/api/v1/my-ip', { peer: '10.1.2.3' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/10\.1\.2\.3 is a private/);
    // the first contact is a local curl: the refusal says what would make it work
    const local = await (await t.get('/api/v1/my-ip', { peer: '127.0.0.1' })).json();
    expect(local.error).toMatch(/127\.0\.0\.1 is a loopback address, not a public one: .*server\.trustedProxies/);
    expect((await t.get('/api/v1/my-ip', { peer: null })).status).toBe(400);
    expect((await t.get('/api/v1/my-ip', { peer: 'garbage' })).status).toBe(400);
    // nothing was charged: the next successful request still sees 299 left
    await t.close();
    t = await createTestApp(proxyConfig);
    await t.get('/api/v1/my-ip', { peer: '10.1.2.3' });
    const ok = await t.get('/api/v1/my-ip', { headers: viaProxy });
    expect(ok.headers.get('ratelimit-remaining')).toBe('299');
  });

  it('400 for a repeated parameter', async () => {
    t = await createTestApp(proxyConfig);
    const res = await t.get(`/api/v1/my-ip?api_key=${TEST_KEY}&api_key=${TEST_KEY}`, { key: null });
    expect(res.status).toBe(401); // a repeated key is refused as authentication, before anything else
  });

  it('never logs the key', async () => {
    t = await createTestApp(proxyConfig);
    await t.get(`/api/v1/my-ip?api_key=${TEST_KEY}`, { key: null, headers: viaProxy });
    const line = JSON.stringify(t.logs);
    expect(line).not.toContain(TEST_KEY);
    expect(t.logs.find((l) => l.event === 'request')).toMatchObject({
      tool: 'my-ip',
      status: 200,
      path: '/api/v1/my-ip?api_key=REDACTED',
    });
    expect(t.logs.find((l) => l.event === 'request')?.keyId).toMatch(/^s_/);
  });

  it('/healthz answers without a key', async () => {
    t = await createTestApp();
    const res = await t.get('/healthz', { key: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});

describe('my-ip address rules', () => {
  it('ignores X-Forwarded-For and other forwarding headers from an untrusted peer', async () => {
    t = await createTestApp();
    const res = await t.get('/api/v1/my-ip', {
      peer: '198.51.100.7'.replace('198.51.100', '203.0.114'), // public, outside documentation ranges
      headers: { 'x-forwarded-for': '8.8.4.4', forwarded: 'for=8.8.4.4', 'x-real-ip': '8.8.4.4' },
    });
    expect((await res.json()).data).toEqual({ ip: '203.0.114.7', version: 'IPv4' });
  });

  it('takes the address a trusted proxy appended (rightmost untrusted hop)', async () => {
    t = await createTestApp({ server: { trustedProxies: ['127.0.0.0/8', '100.64.0.0/10'] } });
    const res = await t.get('/api/v1/my-ip', { headers: { 'x-forwarded-for': `6.6.6.6, ${PUBLIC}, 100.64.0.1` } });
    expect((await res.json()).data.ip).toBe(PUBLIC);
  });

  it('reports IPv4-mapped IPv6 as IPv4, and IPv6 as IPv6', async () => {
    t = await createTestApp();
    expect((await (await t.get('/api/v1/my-ip', { peer: `::ffff:${PUBLIC}` })).json()).data).toEqual({
      ip: PUBLIC,
      version: 'IPv4',
    });
    expect((await (await t.get('/api/v1/my-ip', { peer: '2606:4700::1' })).json()).data).toEqual({
      ip: '2606:4700::1',
      version: 'IPv6',
    });
  });
});

describe('request bounds from configuration', () => {
  it('answers 504 when a REST check outlives server.requestTimeoutMs', async () => {
    const { startDnsLab, rr } = await import('../lab/dns-server.js');
    const lab = await startDnsLab({ records: [rr.a('slow.test', '192.0.2.1')], delayMs: 2000 });
    try {
      t = await createTestApp({
        server: { requestTimeoutMs: 300 },
        dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 5000 },
      });
      const started = performance.now();
      const res = await t.get('/api/v1/dns-lookup?domain=slow.test');
      expect(res.status).toBe(504);
      expect((await res.json()).error).toBe('the check did not finish within 0.3 s');
      expect(performance.now() - started).toBeLessThan(1500);
    } finally {
      await lab.close();
    }
  });
});
