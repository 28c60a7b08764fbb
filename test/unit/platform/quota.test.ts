import { describe, expect, it } from 'vitest';
import { createMemoryQuotaStore, rateLimitHeaders } from '../../../src/platform/quota.js';

describe('memory quota store', () => {
  it('charges, refuses, refunds and expires exactly', async () => {
    let now = 1_000_000;
    const store = createMemoryQuotaStore({ credits: 10, windowSeconds: 100 }, () => now);
    const a = await store.charge('k', 4);
    expect(a).toMatchObject({ allowed: true, remaining: 6, resetSeconds: 100 });
    now += 10_000;
    const b = await store.charge('k', 6);
    expect(b).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 90 });
    const refused = await store.charge('k', 5);
    // 4 credits free at T+100 s (90 s from now) are not enough for 5; 10 are free at T+110 s.
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 100, chargeId: null });
    await store.refund('k', b.chargeId!, 2);
    expect(await store.charge('k', 2)).toMatchObject({ allowed: true, remaining: 0 });
    now += 90_000;
    expect(await store.charge('k', 4)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await store.charge('k', 11)).toMatchObject({ allowed: false, retryAfterSeconds: 100 });
    await store.close();
  });

  it('formats the RateLimit fields of the IETF draft and the earlier ones', () => {
    const h = rateLimitHeaders(
      { credits: 300, windowSeconds: 86400 },
      { allowed: false, remaining: 1, resetSeconds: 50, retryAfterSeconds: 70, chargeId: null },
    );
    expect(h).toEqual({
      'RateLimit-Policy': '"daily";q=300;w=86400',
      RateLimit: '"daily";r=1;t=50',
      'RateLimit-Limit': '300',
      'RateLimit-Remaining': '1',
      'RateLimit-Reset': '50',
      'Retry-After': '70',
    });
  });
});
