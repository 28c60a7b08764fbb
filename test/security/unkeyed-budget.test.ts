/**
 * Threat: someone without a key keeps an instance busy through the surfaces that need none
 * (introspection, GraphiQL, the developer page, the OpenAPI document). Each client address has a
 * budget (`unkeyed.requests` per `unkeyed.windowSeconds`); liveness, readiness and metrics never count.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, graphql, type TestApp } from '../helpers/app.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab } from '../lab/redis.js';

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});
async function app(config: Record<string, any> = {}): Promise<TestApp> {
  const t = await createTestApp({ unkeyed: { requests: 3, windowSeconds: 60 }, ...config });
  apps.push(t);
  return t;
}

const INTROSPECT = '{ __schema { queryType { name } } }';

describe('the unkeyed budget', () => {
  it('refuses the address that spent it with 429 and Retry-After, across every unkeyed surface', async () => {
    const t = await app();
    expect((await graphql(t, INTROSPECT, {}, { key: null })).status).toBe(200);
    expect((await t.get('/', { key: null })).status).toBe(200);
    expect((await t.get('/api/v1/openapi.json', { key: null })).status).toBe(200);

    const gql = await graphql(t, INTROSPECT, {}, { key: null });
    expect(gql.status).toBe(429);
    expect(Number(gql.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(gql.body.errors[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED', status: 429 } });
    expect(gql.body.errors[0].message).toMatch(/at most 3 per 60 s/);

    const page = await t.get('/', { key: null });
    expect(page.status).toBe(429);
    expect(page.headers.get('retry-after')).not.toBeNull();
    const openapi = await t.get('/api/v1/openapi.json', { key: null });
    expect(openapi.status).toBe(429);
    expect((await openapi.json()).ok).toBe(false);
    expect((await t.get('/graphql', { key: null, headers: { accept: 'text/html' } })).status).toBe(429);

    const metrics = await t.services.metrics.exposition();
    expect(metrics).toMatch(/netdiag_unkeyed_refused_total\{surface="graphql"\} 2/);
  });

  it('never counts liveness, readiness, metrics or requests with a valid key', async () => {
    // /metrics is served on the API port only with a token (docs/operations.md "Metrics")
    const metricsToken = 'metrics-token-0123456789';
    const t = await app({ metrics: { token: metricsToken } });
    const headers = { authorization: `Bearer ${metricsToken}` };
    for (let i = 0; i < 10; i++) {
      for (const path of ['/healthz', '/readyz', '/metrics'])
        expect((await t.get(path, { key: null, headers })).status, path).toBe(200);
      expect((await graphql(t, '{ ipInfo(target: "8.8.8.8") { asn } }')).status).toBe(200);
    }
    expect((await graphql(t, INTROSPECT, {}, { key: null })).status).toBe(200);
  });

  it('keeps a budget per client address (an IPv6 client by its /64)', async () => {
    const t = await app({ unkeyed: { requests: 1, windowSeconds: 60 } });
    expect((await t.get('/', { key: null, peer: '127.0.0.2' })).status).toBe(200);
    expect((await t.get('/', { key: null, peer: '127.0.0.2' })).status).toBe(429);
    expect((await t.get('/', { key: null, peer: '127.0.0.3' })).status).toBe(200);
    expect((await t.get('/', { key: null, peer: '2001:db8:1:2::1' })).status).toBe(200);
    expect((await t.get('/', { key: null, peer: '2001:db8:1:2::ffff' })).status).toBe(429);
    expect((await t.get('/', { key: null, peer: '2001:db8:1:3::1' })).status).toBe(200);
  });

  it('is off with unkeyed.requests = 0', async () => {
    const t = await app({ unkeyed: { requests: 0 } });
    for (let i = 0; i < 10; i++) expect((await t.get('/', { key: null })).status).toBe(200);
  });

  it.skipIf(!redisServerPath)('holds across instances that share Redis', async () => {
    if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);
    const lab = await startRedisLab();
    try {
      const a = await app({ store: { redisUrl: lab.url } });
      const b = await app({ store: { redisUrl: lab.url } });
      expect((await a.get('/', { key: null })).status).toBe(200);
      expect((await b.get('/', { key: null })).status).toBe(200);
      expect((await a.get('/', { key: null })).status).toBe(200);
      expect((await b.get('/', { key: null })).status).toBe(429);
    } finally {
      await Promise.all(apps.splice(0).map((x) => x.close()));
      await lab.close();
    }
  });
});
