/**
 * One webhook deliverer per monitor across instances (src/monitors/runtime/redis-delivery-lease.ts) on a
 * real redis-server on loopback: a lease is held by one process at a time, renewed while held, let go by
 * its holder only; one taken over (its key now another's) or unreachable aborts its holder's signal.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/log.js';
import { createRedisDeliveryLease } from '../../../src/monitors/runtime/redis-delivery-lease.js';
import { connectRedis, type RedisConnection } from '../../../src/platform/redis.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';

if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

const quiet: Logger = { info() {}, warn() {}, error() {} };
/** short, so that a renewal and a lapse happen within a test; the margins below are several of them */
const LEASE_MS = 600;
const key = (id: string) => `test:deliverer:${id}`;

describe.skipIf(!redisServerPath)('the delivery lease', () => {
  let lab: RedisLab;
  let redis: RedisConnection;
  beforeAll(async () => {
    lab = await startRedisLab();
    redis = await connectRedis(lab.url, { logger: quiet });
  });
  afterAll(async () => {
    await redis?.close();
    await lab?.close();
  });

  /** a process's lease: its holder is known by the token of each `acquire`, so processes may share a connection */
  const lease = () => createRedisDeliveryLease({ connection: redis, key, leaseMs: LEASE_MS });

  it('is held by one process at a time, renewed while held, and free once let go', async () => {
    const held = await lease().acquire('m1');
    expect(held).not.toBeNull();
    // several lease times: renewed all along, never another's
    for (let i = 0; i < 6; i++) {
      await sleep(LEASE_MS / 2);
      expect(await lease().acquire('m1')).toBeNull();
    }
    expect(held!.signal.aborted).toBe(false);
    await held!.release();
    const next = await lease().acquire('m1');
    expect(next).not.toBeNull();
    // a lease let go by its holder only: an old holder's release leaves the new one's alone
    await held!.release();
    expect(await lease().acquire('m1')).toBeNull();
    await next!.release();
  });

  it("lapses when its holder stops renewing (a process that died), and another's may then be taken", async () => {
    // as a process that took the lease and died: its key, not renewed
    await redis.client.set(key('m2'), 'dead-process', 'PX', LEASE_MS);
    expect(await lease().acquire('m2')).toBeNull();
    await sleep(LEASE_MS * 2);
    const taken = await lease().acquire('m2');
    expect(taken).not.toBeNull();
    await taken!.release();
  });

  it("aborts its holder's signal once its key is another's", async () => {
    const held = await lease().acquire('m3');
    await redis.client.set(key('m3'), 'someone-else', 'PX', 10_000);
    await new Promise((resolve) => held!.signal.addEventListener('abort', resolve, { once: true }));
    expect(held!.signal.reason.message).toMatch(/taken over/);
    await held!.release();
    expect(await redis.client.get(key('m3'))).toBe('someone-else');
  });

  it("aborts its holder's signal when Redis does not answer, before the lease could lapse", async () => {
    const held = await lease().acquire('m4');
    lab.pause();
    try {
      await new Promise((resolve) => held!.signal.addEventListener('abort', resolve, { once: true }));
      expect(held!.signal.reason.message).toMatch(/may lapse/);
    } finally {
      lab.resume();
    }
    await held!.release();
  });
});
