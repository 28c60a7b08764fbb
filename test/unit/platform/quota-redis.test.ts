/**
 * The Redis credit ledger against a real redis-server on loopback: the same rolling-window semantics
 * as the in-memory store (one suite runs against both, with an injected clock), atomicity under
 * concurrency, bounded per-key data, Redis' own clock, and failing closed when Redis goes away.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UnavailableError } from '../../../src/errors.js';
import type { Logger } from '../../../src/log.js';
import { createMemoryQuotaStore, type QuotaPolicy, type QuotaStore } from '../../../src/platform/quota.js';
import { createRedisQuotaStore, quotaKeys } from '../../../src/platform/quota-redis.js';
import {
  connectRedis,
  describeRedisUrl,
  REDIS_COMMAND_TIMEOUT_MS,
  type RedisConnection,
} from '../../../src/platform/redis.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';

if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

const DAY = 86_400;
const quiet: Logger = { info() {}, warn() {}, error() {} };

function clock(start = Date.UTC(2026, 10, 22, 12)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('where Redis is, as messages and logs name it', () => {
  it('names host, port and database, never the credentials', () => {
    expect(describeRedisUrl('redis://default:s3cret-pass@redis.internal:6380/2')).toBe('redis.internal:6380/2');
    expect(describeRedisUrl('rediss://:s3cret-pass@10.1.2.3')).toBe('10.1.2.3:6379');
    expect(describeRedisUrl('redis://[::1]:7000')).toBe('[::1]:7000');
  });
});

describe.skipIf(!redisServerPath)('Redis credit ledger', () => {
  let lab: RedisLab;
  let connection: RedisConnection;

  beforeAll(async () => {
    lab = await startRedisLab();
    connection = await connectRedis(lab.url, { logger: quiet });
  });
  afterAll(async () => {
    await connection?.close();
    await lab?.close();
  });
  beforeEach(async () => {
    if (!lab.running) await lab.start();
    if (connection.client.status === 'ready') await connection.client.flushall();
  });

  type Make = (policy: QuotaPolicy, now: () => number) => QuotaStore;
  const stores: Array<[string, Make]> = [
    ['memory', (policy, now) => createMemoryQuotaStore(policy, now)],
    ['redis', (policy, now) => createRedisQuotaStore(connection, policy, { now })],
  ];

  describe.each(stores)('same semantics: %s store', (_name, make) => {
    let store: QuotaStore;
    afterEach(async () => {
      await store?.close();
    });

    it('charges until the allowance is spent, then refuses with remaining, reset and retry-after', async () => {
      const c = clock();
      store = make({ credits: 10, windowSeconds: DAY }, c.now);
      const first = await store.charge('k', 4);
      expect(first).toMatchObject({ allowed: true, remaining: 6, resetSeconds: DAY, retryAfterSeconds: 0 });
      expect(first.chargeId).toEqual(expect.any(String));
      c.advance(60_000);
      expect(await store.charge('k', 5)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: DAY - 60 });
      c.advance(60_000);
      // 3 needed, 1 left: the 4-credit charge (oldest) must expire first
      expect(await store.charge('k', 3)).toEqual({
        allowed: false,
        remaining: 1,
        resetSeconds: DAY - 120,
        retryAfterSeconds: DAY - 120,
        chargeId: null,
      });
      // 6 needed, 1 left: both charges must expire; the second one expires a minute later
      expect(await store.charge('k', 6)).toMatchObject({ allowed: false, retryAfterSeconds: DAY - 60 });
      expect(await store.charge('k', 1)).toMatchObject({ allowed: true, remaining: 0 });
    });

    it('frees each charge exactly one window after it was made', async () => {
      const c = clock();
      store = make({ credits: 2, windowSeconds: DAY }, c.now);
      await store.charge('k', 1); // T
      c.advance(3_600_000);
      await store.charge('k', 1); // T + 1 h
      expect((await store.charge('k', 1)).allowed).toBe(false);
      c.advance(DAY * 1000 - 3_600_000 - 1); // 1 ms before the first charge expires
      expect(await store.charge('k', 1)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
      c.advance(1);
      // the next credit frees when the T + 1 h charge expires, an hour from now
      expect(await store.charge('k', 1)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 3600 });
    });

    it('rounds seconds up and never reports less than 1 while something is charged', async () => {
      const c = clock();
      store = make({ credits: 1, windowSeconds: 10 }, c.now);
      await store.charge('k', 1);
      c.advance(9_001);
      expect(await store.charge('k', 1)).toMatchObject({ allowed: false, resetSeconds: 1, retryAfterSeconds: 1 });
      c.advance(998);
      expect(await store.charge('k', 1)).toMatchObject({ allowed: false, resetSeconds: 1, retryAfterSeconds: 1 });
    });

    it('says "a full window" for a cost above the whole allowance, and 0 reset when nothing is charged', async () => {
      const c = clock();
      store = make({ credits: 3, windowSeconds: 600 }, c.now);
      expect(await store.charge('k', 4)).toEqual({
        allowed: false,
        remaining: 3,
        resetSeconds: 0,
        retryAfterSeconds: 600,
        chargeId: null,
      });
    });

    it('admits a free operation without recording a charge', async () => {
      const c = clock();
      store = make({ credits: 3, windowSeconds: 600 }, c.now);
      expect(await store.charge('k', 0)).toEqual({
        allowed: true,
        remaining: 3,
        resetSeconds: 0,
        retryAfterSeconds: 0,
        chargeId: null,
      });
    });

    it('refunds part or all of a charge, at most what it cost, and ignores unknown charges', async () => {
      const c = clock();
      store = make({ credits: 10, windowSeconds: DAY }, c.now);
      const a = await store.charge('k', 6);
      const b = await store.charge('k', 4);
      await store.refund('k', a.chargeId!, 2);
      expect((await store.charge('k', 0)).remaining).toBe(2);
      await store.refund('k', b.chargeId!, 99); // capped at the 4 it cost
      expect((await store.charge('k', 0)).remaining).toBe(6);
      await store.refund('k', 'no-such-charge', 5);
      await store.refund('other', a.chargeId!, 5);
      expect((await store.charge('k', 0)).remaining).toBe(6);
      // the partly refunded charge still expires on time, freeing what is left of it (4)
      c.advance(DAY * 1000);
      expect((await store.charge('k', 0)).remaining).toBe(10);
    });

    it('keeps a separate ledger per key', async () => {
      const c = clock();
      store = make({ credits: 1, windowSeconds: DAY }, c.now);
      expect((await store.charge('one', 1)).allowed).toBe(true);
      expect((await store.charge('one', 1)).allowed).toBe(false);
      expect((await store.charge('two', 1)).allowed).toBe(true);
    });
  });

  describe('Redis specifics', () => {
    it('admits exactly 10 of 50 concurrent charges with credits for 10, across two connections', async () => {
      const other = await connectRedis(lab.url, { logger: quiet });
      try {
        const policy = { credits: 10, windowSeconds: DAY };
        const a = createRedisQuotaStore(connection, policy);
        const b = createRedisQuotaStore(other, policy);
        const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).charge('shared', 1)));
        const admitted = outcomes.filter((o) => o.allowed);
        expect(admitted).toHaveLength(10);
        // every admitted charge saw a distinct remaining count: 9 … 0
        expect(admitted.map((o) => o.remaining).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        expect(new Set(admitted.map((o) => o.chargeId)).size).toBe(10);
        expect(outcomes.filter((o) => !o.allowed).every((o) => o.remaining === 0 && o.retryAfterSeconds > 0)).toBe(
          true,
        );
      } finally {
        await other.close();
      }
    });

    it("uses Redis' clock by default: a real 1 s window frees the charge", async () => {
      const store = createRedisQuotaStore(connection, { credits: 1, windowSeconds: 1 });
      expect((await store.charge('k', 1)).allowed).toBe(true);
      expect(await store.charge('k', 1)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
      await new Promise((r) => setTimeout(r, 1_050));
      expect(await store.charge('k', 1)).toMatchObject({ allowed: true, remaining: 0 });
    });

    it('keeps at most `credits` charges per key and lets the keys expire with the window', async () => {
      const c = clock();
      const store = createRedisQuotaStore(connection, { credits: 5, windowSeconds: 600 }, { now: c.now });
      for (let i = 0; i < 20; i++) {
        await store.charge('k', 1);
        c.advance(100_000); // charges keep expiring while new ones come
      }
      const [charges, costs] = quotaKeys('k');
      expect(await connection.client.zcard(charges)).toBeLessThanOrEqual(5);
      expect(await connection.client.hlen(costs)).toBeLessThanOrEqual(5 + 2);
      expect(await connection.client.pttl(charges)).toBeGreaterThan(590_000);
      expect(await connection.client.pttl(charges)).toBeLessThanOrEqual(600_000);
      expect(await connection.client.pttl(costs)).toBeGreaterThan(590_000);
    });

    it('reloads its scripts when Redis has forgotten them (restart, SCRIPT FLUSH)', async () => {
      const store = createRedisQuotaStore(connection, { credits: 5, windowSeconds: 600 });
      const a = await store.charge('k', 2);
      await connection.client.script('FLUSH');
      await store.refund('k', a.chargeId!, 2);
      await connection.client.script('FLUSH');
      expect((await store.charge('k', 1)).remaining).toBe(4);
    });

    it('fails closed with UnavailableError when Redis is stopped, and recovers when it is back', async () => {
      const logs: Array<Record<string, unknown>> = [];
      const logger: Logger = {
        info: (event, f) => logs.push({ event, ...f }),
        warn: (event, f) => logs.push({ event, ...f }),
        error: (event, f) => logs.push({ event, ...f }),
      };
      const own = await connectRedis(lab.url, { logger });
      try {
        const store = createRedisQuotaStore(own, { credits: 5, windowSeconds: 600 });
        expect((await store.charge('k', 1)).allowed).toBe(true);
        expect(await own.ready()).toEqual({ ok: true });
        await lab.stop();
        const started = performance.now();
        const failure = await store.charge('k', 1).catch((e: unknown) => e);
        // bounded by the command time-out, not by ioredis' reconnect loop (a wide margin for a loaded CI machine)
        expect(performance.now() - started).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS + 5_000);
        expect(failure).toBeInstanceOf(UnavailableError);
        expect((failure as UnavailableError).status).toBe(503);
        expect((failure as Error).message).toMatch(/^credit ledger unavailable: the shared store is unreachable; /);
        expect((failure as Error).message).not.toContain(String(lab.port));
        // the operator's log has the server and the cause
        expect(logs.find((l) => l.event === 'redis_command_failed')).toMatchObject({
          redis: `127.0.0.1:${lab.port}`,
          purpose: 'credit ledger',
        });
        await expect(store.refund('k', 'x', 1)).rejects.toBeInstanceOf(UnavailableError);
        const readiness = await own.ready();
        expect(readiness.ok).toBe(false);
        expect(readiness.reason).toMatch('the shared store (Redis) is unreachable');
        // the client notices the closed socket on its own schedule, possibly after the command failed:
        // wait for the transition to be logged instead of racing it
        await expect
          .poll(() => logs.filter((l) => l.event === 'redis_unreachable').length, { timeout: 5_000, interval: 20 })
          .toBeGreaterThanOrEqual(1);

        await lab.start();
        await expect.poll(async () => (await own.ready()).ok, { timeout: 5_000, interval: 50 }).toBe(true);
        // an empty Redis (nothing persisted in the lab): a fresh ledger
        expect(await store.charge('k', 1)).toMatchObject({ allowed: true, remaining: 4 });
        expect(logs.some((l) => l.event === 'redis_reachable')).toBe(true);
      } finally {
        await own.close();
      }
    });

    it('counts a reply that arrived during an event-loop stall as in time (no spurious time-out)', async () => {
      const own = await connectRedis(lab.url, { logger: quiet, commandTimeoutMs: 50 });
      try {
        const pong = own.run((c) => c.ping());
        const until = performance.now() + 300;
        while (performance.now() < until); // block the loop: the reply arrives meanwhile, unread
        await expect(pong).resolves.toBe('PONG');
      } finally {
        await own.close();
      }
    });

    it('does not hang on a Redis that stopped answering: each command ends within its time-out', async () => {
      const own = await connectRedis(lab.url, { logger: quiet, commandTimeoutMs: 300 });
      const store = createRedisQuotaStore(own, { credits: 5, windowSeconds: 600 });
      lab.pause();
      try {
        const started = performance.now();
        const failure = await store.charge('k', 1).catch((e: unknown) => e);
        expect(performance.now() - started).toBeLessThan(300 + 2_000);
        expect(failure).toBeInstanceOf(UnavailableError);
        expect((failure as Error).message).toMatch(
          /credit ledger unavailable: the shared store (did not reply in time|is unreachable); /,
        );
        expect((await own.ready()).ok).toBe(false);
      } finally {
        lab.resume();
        await own.close();
      }
    });
  });
});
