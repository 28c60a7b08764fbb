/**
 * Threat: a page on another site reading the API's answers with the visitor's browser credentials.
 * Keys travel in `x-api-key` or `api_key`, never in cookies, so the API answers every origin with
 * `Access-Control-Allow-Origin: *` and never `Access-Control-Allow-Credentials` (src/platform/cors.ts);
 * browser clients on any site still work, preflight included. The pages that are not API (the
 * developer page and its form) send no CORS headers at all.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, graphql, type TestApp } from '../helpers/app.js';

const EVIL = 'https://evil.example';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

function expectNoCredentialedEcho(res: { headers: Headers }, what: string): void {
  expect(res.headers.get('access-control-allow-origin'), what).toBe('*');
  expect(res.headers.get('access-control-allow-credentials'), what).toBeNull();
}

async function preflight(path: string, method: string): Promise<Response> {
  return t.app.fetch(
    new Request(`http://netdiag.test${path}`, {
      method: 'OPTIONS',
      headers: {
        origin: EVIL,
        'access-control-request-method': method,
        'access-control-request-headers': 'content-type,x-api-key',
      },
    }),
    { peerAddress: '203.0.113.30' },
  );
}

describe('CORS of the API', () => {
  it('answers an evil Origin on /graphql with *, never echoing it with credentials', async () => {
    const ok = await graphql(t, '{ ipInfo(target: "8.8.8.8") { asn } }', {}, { headers: { origin: EVIL } });
    expect(ok.status).toBe(200);
    expectNoCredentialedEcho(ok, 'operation with a key');
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Remaining/);
    const refused = await graphql(
      t,
      '{ ipInfo(target: "8.8.8.8") { asn } }',
      {},
      { key: 'unknown-key-000000', headers: { origin: EVIL } },
    );
    expectNoCredentialedEcho(refused, 'operation with an unknown key');
    const page = await t.get('/graphql', { key: null, headers: { origin: EVIL, accept: 'text/html' } });
    expectNoCredentialedEcho(page, 'GraphiQL');
  });

  it('answers an evil Origin on REST with *, successes and refusals alike', async () => {
    const ok = await t.get('/api/v1/ip-info?target=8.8.8.8', { headers: { origin: EVIL } });
    expect(ok.status).toBe(200);
    expectNoCredentialedEcho(ok, 'REST success');
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
    const noKey = await t.get('/api/v1/ip-info?target=8.8.8.8', { key: null, headers: { origin: EVIL } });
    expect(noKey.status).toBe(401);
    expectNoCredentialedEcho(noKey, 'REST 401');
  });

  it('lets a browser preflight the key header and a JSON body on /graphql and /api/v1/*', async () => {
    for (const [path, method] of [
      ['/graphql', 'POST'],
      ['/api/v1/ip-info?target=8.8.8.8', 'GET'],
    ] as const) {
      const res = await preflight(path, method);
      expect(res.status, path).toBe(204);
      expectNoCredentialedEcho(res, `preflight of ${path}`);
      const allowedHeaders = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      expect(allowedHeaders, path).toEqual(expect.arrayContaining(['x-api-key', 'content-type']));
      expect(res.headers.get('access-control-allow-methods'), path).toContain(method);
      expect(Number(res.headers.get('access-control-max-age')), path).toBeGreaterThan(0);
    }
    // and the request that follows works with the key in the header
    const ok = await t.get('/api/v1/ip-info?target=8.8.8.8', { headers: { origin: EVIL } });
    expect(ok.status).toBe(200);
    expectNoCredentialedEcho(ok, 'the request after the preflight');
  });

  it('sends no CORS headers from the developer page or its form', async () => {
    const page = await t.get('/', { key: null, headers: { origin: EVIL } });
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    const form = await t.app.fetch(
      new Request('http://netdiag.test/keys', {
        method: 'POST',
        headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'token=x',
      }),
      { peerAddress: '203.0.113.32' },
    );
    expect(form.status).toBe(403);
    expect(form.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS of the answers the app builds before yoga runs', () => {
  it('a preflight of /graphql spends no unkeyed budget, and the refusals a script meets are readable', async () => {
    const small = await createTestApp({ unkeyed: { requests: 1, windowSeconds: 60 } });
    try {
      const peer = '203.0.113.31';
      for (let i = 0; i < 3; i++) {
        const res = await small.app.fetch(
          new Request('http://netdiag.test/graphql', {
            method: 'OPTIONS',
            headers: { origin: EVIL, 'access-control-request-method': 'POST' },
          }),
          { peerAddress: peer },
        );
        expect(res.status).toBe(204);
      }
      const keyless = (n: number) =>
        graphql(small, `{ __typename a${n}: __typename }`, {}, { key: null, peer, headers: { origin: EVIL } });
      expect((await keyless(1)).status).toBe(200); // the one unkeyed request of the window: the preflights took none
      const refused = await keyless(2);
      expect(refused.status).toBe(429);
      expectNoCredentialedEcho(refused, 'unkeyed budget spent');
      const tooLarge = await small.app.fetch(
        new Request('http://netdiag.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': 'test-key-0123456789', origin: EVIL },
          body: JSON.stringify({ query: `{ __typename }`, pad: 'x'.repeat(70 * 1024) }),
        }),
        { peerAddress: peer },
      );
      expect(tooLarge.status).toBe(413);
      expectNoCredentialedEcho(tooLarge, 'body too large');
    } finally {
      await small.close();
    }
  });
});
