/**
 * The two-tier shared cache: in-process alone (no Redis), and over a real redis-server shared by two
 * "instances" — a value one instance stored is a hit on the other, a Redis hit is kept locally for
 * the time Redis still has it, and Redis trouble is only ever a miss (a cache never fails a check).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/log.js';
import { connectRedis, type RedisConnection } from '../../../src/platform/redis.js';
import { createSharedCache, SHARED_CACHE_KEY_PREFIX } from '../../../src/platform/shared-cache.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';

if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

const quiet: Logger = { info() {}, warn() {}, error() {} };
const bounds = { maxEntries: 100, maxBytes: 1024 * 1024 };

interface Answer {
  registrar: string;
  raw: string;
}

describe('shared cache without Redis (one instance)', () => {
  it('keeps a value for its time-to-live, then forgets it', async () => {
    let t = 1_000_000;
    const cache = createSharedCache<Answer>(null, { namespace: 'test:v1', ...bounds, now: () => t });
    expect(await cache.get('example.com')).toBeUndefined();
    await cache.set('example.com', { registrar: 'R', raw: 'text' }, 3_600_000);
    expect(await cache.get('example.com')).toEqual({ registrar: 'R', raw: 'text' });
    t += 3_600_000;
    expect(await cache.get('example.com')).toBeDefined();
    t += 1;
    expect(await cache.get('example.com')).toBeUndefined();
  });

  it('does not keep values above maxValueBytes, nor values with no time to live', async () => {
    const cache = createSharedCache<Answer>(null, { namespace: 'test:v1', ...bounds, maxValueBytes: 100 });
    await cache.set('big', { registrar: 'R', raw: 'x'.repeat(200) }, 60_000);
    await cache.set('expired', { registrar: 'R', raw: '' }, 0);
    expect(await cache.get('big')).toBeUndefined();
    expect(await cache.get('expired')).toBeUndefined();
  });

  it('is bounded in entries', async () => {
    const cache = createSharedCache<Answer>(null, { namespace: 'test:v1', maxEntries: 2, maxBytes: 1024 * 1024 });
    for (const k of ['a', 'b', 'c']) await cache.set(k, { registrar: k, raw: '' }, 60_000);
    expect(await cache.get('a')).toBeUndefined();
    expect((await cache.get('c'))?.registrar).toBe('c');
  });
});

describe.skipIf(!redisServerPath)('shared cache over Redis (two instances)', () => {
  let lab: RedisLab;
  let one: RedisConnection;
  let two: RedisConnection;

  beforeAll(async () => {
    lab = await startRedisLab();
    one = await connectRedis(lab.url, { logger: quiet });
    two = await connectRedis(lab.url, { logger: quiet });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await lab?.close();
  });
  beforeEach(async () => {
    if (!lab.running) {
      await lab.start();
      await expect
        .poll(async () => (await one.ready()).ok && (await two.ready()).ok, { timeout: 5_000, interval: 50 })
        .toBe(true);
    }
    await one.client.flushall();
  });

  it('serves on one instance what the other stored, with the time Redis still keeps it', async () => {
    const a = createSharedCache<Answer>(one, { namespace: 'registry:v1', ...bounds });
    const b = createSharedCache<Answer>(two, { namespace: 'registry:v1', ...bounds });
    expect(await b.get('example.com')).toBeUndefined();
    await a.set('example.com', { registrar: 'Example Registrar', raw: 'Domain Name: EXAMPLE.COM' }, 3_600_000);
    const key = `${SHARED_CACHE_KEY_PREFIX}registry:v1:example.com`;
    expect(await one.client.pttl(key)).toBeGreaterThan(3_590_000);
    expect(await b.get('example.com')).toEqual({ registrar: 'Example Registrar', raw: 'Domain Name: EXAMPLE.COM' });
    // another namespace does not see it
    expect(
      await createSharedCache<Answer>(two, { namespace: 'other:v1', ...bounds }).get('example.com'),
    ).toBeUndefined();
  });

  it('lets a value expire everywhere when its time is up', async () => {
    const a = createSharedCache<Answer>(one, { namespace: 'registry:v1', ...bounds });
    const b = createSharedCache<Answer>(two, { namespace: 'registry:v1', ...bounds });
    // long enough to be read back on a loaded machine, short enough to wait out
    await a.set('short.test', { registrar: 'R', raw: '' }, 1_000);
    expect(await b.get('short.test')).toBeDefined(); // now also in b's local tier, for what Redis had left
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await a.get('short.test')).toBeUndefined();
    expect(await b.get('short.test')).toBeUndefined();
  });

  it('treats unreadable data in Redis as a miss', async () => {
    await one.client.set(`${SHARED_CACHE_KEY_PREFIX}registry:v1:broken.test`, '{not json', 'PX', 60_000);
    expect(
      await createSharedCache<Answer>(two, { namespace: 'registry:v1', ...bounds }).get('broken.test'),
    ).toBeUndefined();
  });

  it('never fails when Redis is down: misses, keeps values locally, and serves local hits', async () => {
    const a = createSharedCache<Answer>(one, { namespace: 'registry:v1', ...bounds });
    const b = createSharedCache<Answer>(two, { namespace: 'registry:v1', ...bounds });
    await a.set('before.test', { registrar: 'R', raw: '' }, 60_000);
    expect(await b.get('before.test')).toBeDefined();
    await lab.stop();
    expect(await b.get('before.test')).toBeDefined(); // b's local tier
    expect(await b.get('never-seen.test')).toBeUndefined();
    await expect(a.set('during.test', { registrar: 'R2', raw: '' }, 60_000)).resolves.toBeUndefined();
    expect((await a.get('during.test'))?.registrar).toBe('R2'); // a's local tier
    expect(await b.get('during.test')).toBeUndefined(); // never reached Redis
  });
});
