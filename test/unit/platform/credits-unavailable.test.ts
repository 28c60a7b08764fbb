/**
 * The credits plugin when the ledger itself fails (no Redis needed: a stand-in QuotaStore):
 * an UnavailableError from charge() is a 503 (REST envelope, GraphQL code UNAVAILABLE) and the check
 * never runs; a refund the ledger cannot take is logged and leaves the finished answer intact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { UnavailableError } from '../../../src/errors.js';
import type { QuotaStore } from '../../../src/platform/quota.js';
import { createTestApp, graphql, TEST_KEY, type TestApp } from '../../helpers/app.js';

const viaProxy = { 'x-forwarded-for': '93.184.216.34' };
const MESSAGE =
  'credit ledger unavailable: Redis at 127.0.0.1:6379 is unreachable (connect ECONNREFUSED 127.0.0.1:6379)';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

/** The test app with its ledger replaced. */
async function appWithLedger(quota: QuotaStore, config: Record<string, any> = {}): Promise<TestApp> {
  t = await createTestApp({ server: { trustedProxies: ['127.0.0.1/32'] }, ...config });
  const app = createApp({ ...t.services, quota });
  return {
    ...t,
    app,
    get: (path, init = {}) =>
      app.fetch(
        new Request(`http://netdiag.test${path}`, { headers: { 'x-api-key': TEST_KEY, ...viaProxy, ...init.headers } }),
        { peerAddress: init.peer === undefined ? '127.0.0.1' : init.peer },
      ),
  };
}

const down: QuotaStore = {
  charge: () => Promise.reject(new UnavailableError(MESSAGE)),
  refund: () => Promise.reject(new UnavailableError(MESSAGE)),
  close: async () => {},
};

describe('credits when the ledger is unavailable', () => {
  it('answers REST with a 503 envelope naming the cause, and no RateLimit headers', async () => {
    const app = await appWithLedger(down);
    const res = await app.get('/api/v1/my-ip');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false, error: MESSAGE, meta: { tool: 'my-ip', version: 'v1' } });
    expect(res.headers.get('ratelimit-remaining')).toBeNull();
  });

  it('answers GraphQL with HTTP 503, code UNAVAILABLE and no data', async () => {
    const app = await appWithLedger(down);
    const res = await graphql(app, '{ myIp { ip } }', {}, { headers: viaProxy });
    expect(res.status).toBe(503);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ message: MESSAGE, extensions: expect.objectContaining({ code: 'UNAVAILABLE' }) }),
    ]);
    expect(res.body.data ?? null).toBeNull();
  });

  it('still answers 500 (a bug) for a ledger failure that is not one of ours', async () => {
    const app = await appWithLedger({ ...down, charge: () => Promise.reject(new TypeError('boom')) });
    const res = await app.get('/api/v1/my-ip');
    expect(res.status).toBe(500);
    expect((await res.json()).error).not.toContain('boom');
  });

  it('keeps a finished answer when the refund fails, logging it (the caller stays charged)', async () => {
    let refunds = 0;
    const flaky: QuotaStore = {
      charge: async () => ({
        allowed: true,
        remaining: 293,
        resetSeconds: 86_400,
        retryAfterSeconds: 0,
        chargeId: 'c1',
      }),
      refund: () => {
        refunds++;
        return Promise.reject(new UnavailableError(MESSAGE));
      },
      close: async () => {},
    };
    const app = await appWithLedger(flaky, { quota: { costs: { 'port-checker': 7 } } });
    // the target guard refuses a loopback target during execution (nothing is sent): its price is refunded
    const res = await graphql(app, '{ portChecker(host: "127.0.0.2", port: 9) { status } }');
    expect(refunds).toBe(1);
    expect(res.status).toBe(200);
    expect(res.body.errors[0].extensions.code).toBe('TARGET_REFUSED');
    expect(res.headers.get('ratelimit-remaining')).toBe('293');
    expect(t.logs).toContainEqual(
      expect.objectContaining({ level: 'error', event: 'refund_failed', credits: 7, message: MESSAGE }),
    );
  });
});
