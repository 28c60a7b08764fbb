import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, graphql, type TestApp } from '../helpers/app.js';

const PUBLIC = '93.184.216.34';
const viaProxy = { 'x-forwarded-for': PUBLIC };
const base = { server: { trustedProxies: ['127.0.0.1/32'] } };

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

function clock(start = Date.UTC(2026, 10, 22, 12)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('credit ledger', () => {
  it('admits exactly M of N concurrent requests', async () => {
    // one key, 50 at once: above the per-key concurrency cap, which is not what this test is about
    t = await createTestApp({ ...base, quota: { credits: 10 }, admission: { perKeyInFlight: 100 } });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => t.get('/api/v1/my-ip', { headers: viaProxy })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  });

  it('refuses with 429, Retry-After and an explanation once the allowance is spent', async () => {
    const c = clock();
    t = await createTestApp({ ...base, quota: { credits: 3, costs: { 'my-ip': 2 } } }, { now: c.now });
    expect((await t.get('/api/v1/my-ip', { headers: viaProxy })).status).toBe(200);
    c.advance(60_000);
    const refused = await t.get('/api/v1/my-ip', { headers: viaProxy });
    expect(refused.status).toBe(429);
    const body = await refused.json();
    expect(body).toMatchObject({ ok: false, meta: { tool: 'my-ip', version: 'v1' } });
    expect(body.error).toMatch(/costs 2 credits and 1 of 3 are left/);
    expect(refused.headers.get('retry-after')).toBe(String(86_400 - 60));
    expect(refused.headers.get('ratelimit')).toBe(`"daily";r=1;t=${86_400 - 60}`);
  });

  it('frees each charge exactly one window after it was made (rolling, not at midnight)', async () => {
    const c = clock();
    t = await createTestApp({ ...base, quota: { credits: 2, costs: { 'my-ip': 1 } } }, { now: c.now });
    await t.get('/api/v1/my-ip', { headers: viaProxy }); // charge at T
    c.advance(3_600_000);
    await t.get('/api/v1/my-ip', { headers: viaProxy }); // charge at T+1h
    expect((await t.get('/api/v1/my-ip', { headers: viaProxy })).status).toBe(429);
    c.advance(86_400_000 - 3_600_000 - 1); // 1 ms before the first charge expires
    expect((await t.get('/api/v1/my-ip', { headers: viaProxy })).status).toBe(429);
    c.advance(1);
    const freed = await t.get('/api/v1/my-ip', { headers: viaProxy });
    expect(freed.status).toBe(200);
    expect(freed.headers.get('ratelimit-remaining')).toBe('0');
    // the next credit frees when the T+1h charge expires, one hour from now
    expect(freed.headers.get('ratelimit-reset')).toBe('3600');
  });

  it('keeps separate ledgers per key', async () => {
    t = await createTestApp({
      ...base,
      quota: { credits: 1, costs: { 'my-ip': 1 } },
      auth: { keys: ['key-one-123456', 'key-two-123456'] },
    });
    expect((await t.get('/api/v1/my-ip', { key: 'key-one-123456', headers: viaProxy })).status).toBe(200);
    expect((await t.get('/api/v1/my-ip', { key: 'key-one-123456', headers: viaProxy })).status).toBe(429);
    expect((await t.get('/api/v1/my-ip', { key: 'key-two-123456', headers: viaProxy })).status).toBe(200);
  });

  it('does not charge 401, 404 and 405', async () => {
    t = await createTestApp({ ...base, quota: { credits: 1, costs: { 'my-ip': 1 } } });
    await t.get('/api/v1/my-ip', { key: null });
    await t.get('/api/v1/unknown');
    await t.get('/api/v1/my-ip', { method: 'DELETE' });
    expect((await t.get('/api/v1/my-ip', { headers: viaProxy })).status).toBe(200);
  });
});

describe('GraphQL pricing', () => {
  it('charges each selected check field, aliases and fragments included', async () => {
    t = await createTestApp({ ...base, quota: { costs: { 'my-ip': 5 } } });
    const res = await graphql(
      t,
      'query { a: myIp { ip } b: myIp { ip } ...F ... on Query { c: myIp { version } } } fragment F on Query { d: myIp { ip } }',
      {},
      { headers: viaProxy },
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(res.headers.get('ratelimit-remaining')).toBe(String(300 - 20));
  });

  it('refuses a whole operation that costs more than what is left, with 429', async () => {
    t = await createTestApp({ ...base, quota: { credits: 3, costs: { 'my-ip': 2 } } });
    const res = await graphql(t, '{ a: myIp { ip } b: myIp { ip } }', {}, { headers: viaProxy });
    expect(res.status).toBe(429);
    expect(res.body.errors[0].extensions.code).toBe('QUOTA_EXCEEDED');
    expect(res.body.data ?? null).toBeNull();
    expect(res.headers.get('retry-after')).not.toBeNull();
    // nothing was charged: one field still fits
    expect((await graphql(t, '{ myIp { ip } }', {}, { headers: viaProxy })).status).toBe(200);
  });

  it('requires a key for checks, answering 401', async () => {
    t = await createTestApp(base);
    const res = await graphql(t, '{ myIp { ip } }', {}, { key: null, headers: viaProxy });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].message).toMatch(/x-api-key.*api_key/);
  });

  it('lets introspection through without a key or a charge', async () => {
    t = await createTestApp(base);
    const res = await graphql(t, '{ __schema { queryType { name } } }', {}, { key: null });
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  it('does not charge a field that ends in an input error', async () => {
    t = await createTestApp({ quota: { costs: { 'my-ip': 7 } } });
    const res = await graphql(t, '{ myIp { ip } }', {}, { peer: '192.168.1.1' });
    expect(res.body.errors[0].extensions.code).toBe('BAD_INPUT');
    expect(res.headers.get('ratelimit-remaining')).toBe('300');
  });

  it('costs nothing for a query that does not validate', async () => {
    t = await createTestApp(base);
    const res = await graphql(t, '{ myIp { nope } }', {}, { headers: viaProxy });
    expect(res.status).toBe(400);
    expect(res.headers.get('ratelimit-remaining')).toBeNull();
  });

  it('refuses oversized operations cheaply, before pricing or a key check', async () => {
    t = await createTestApp(base);
    const manyTokens = `{ ${Array.from({ length: 3000 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const tooLong = await graphql(t, manyTokens, {}, { key: null });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].message).toMatch(/more th\w+ 4000 tokens/);
    const huge = await t.app.fetch(
      new Request('http://netdiag.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(70_030) },
        body: JSON.stringify({ query: `{ __typename } #${'x'.repeat(70_000)}` }),
      }),
    );
    expect(huge.status).toBe(413);
    // a chunked body (no declared length) is cut off at the same bound
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`{"query":"{ __typename } #${'x'.repeat(70_000)}"}`));
        controller.close();
      },
    });
    const chunked = await t.app.fetch(
      new Request('http://netdiag.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: chunks,
        duplex: 'half',
      } as RequestInit),
    );
    expect(chunked.status).toBe(413);
  });

  it('serves GraphiQL to a browser', async () => {
    t = await createTestApp();
    const res = await t.app.fetch(new Request('http://netdiag.test/graphql', { headers: { accept: 'text/html' } }));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toMatch(/<script[^>]+src="?https?:/); // assets from this service: works without internet
    const script = /<script src="(\/assets\/[^"]+)"/.exec(html)?.[1];
    expect(await (await t.app.fetch(new Request(`http://netdiag.test${script}`))).text()).toContain(
      'renderYogaGraphiQL',
    );
  });
});
