/**
 * The monitors' store on Redis (src/monitors/store/redis-monitor-store.ts) against a real redis-server on
 * loopback: the stores' contract (./monitor-store-contract.ts), each test under a key prefix of its own;
 * and what only a shared store meets: two store objects on one Redis (two instances) racing to begin one
 * due time, to commit one item's outcome and to create past a key's limit.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnavailableError } from '../../../src/errors.js';
import type { Logger } from '../../../src/log.js';
import type { MonitorStore } from '../../../src/monitors/store/monitor-store.js';
import { createRedisMonitorStore } from '../../../src/monitors/store/redis-monitor-store.js';
import { connectRedis, type RedisConnection } from '../../../src/platform/redis.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';
import { describeMonitorStoreContract, LIMITS } from './monitor-store-contract.js';
import { HOUR, monitorRecord, ratingOf, T0 } from './store-fixture.js';
import { watchSpecs } from '../../../src/graphql-server/watch-specs.js';

if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

const quiet: Logger = { info() {}, warn() {}, error() {} };
const SETTINGS = { keepRuns: 100, keepEventsDays: 90, specs: watchSpecs() };
/** store objects racing: more than two, so that a race is likely to interleave */
const INSTANCES = 4;

describe.skipIf(!redisServerPath)('the Redis monitors store', () => {
  let lab: RedisLab;
  const connections: RedisConnection[] = [];

  beforeAll(async () => {
    lab = await startRedisLab();
  });
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()));
    await lab?.close();
  });

  /** a store object with a connection of its own: one instance */
  async function instance(prefix: string, options: { keepRuns?: number; keepEventsDays?: number } = {}) {
    const connection = await connectRedis(lab.url, { logger: quiet });
    connections.push(connection);
    return createRedisMonitorStore({ redis: connection, prefix, ...SETTINGS, ...options });
  }

  const newPrefix = () => `test:${randomUUID()}:`;

  describeMonitorStoreContract(async (options = {}) => {
    const prefix = newPrefix();
    return {
      store: await instance(prefix, options),
      reopen: () => instance(prefix, options),
      writerArgs: ['redis', lab.url, prefix],
    };
  });

  describe('instances sharing one Redis', () => {
    async function instances(): Promise<MonitorStore[]> {
      const prefix = newPrefix();
      return Promise.all(Array.from({ length: INSTANCES }, () => instance(prefix)));
    }
    const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);

    it('racing to begin one due time: exactly one starts it, the others find it begun', async () => {
      const stores = await instances();
      await stores[0]!.create(monitorRecord(), LIMITS);
      for (let round = 0; round < 20; round++) {
        const run = { runId: at(round).toISOString(), at: at(round), nextRunAt: at(round + 1) };
        const outcomes = await Promise.all(stores.map((s) => s.beginRun('mon_test', run)));
        expect(outcomes.filter((o) => o.outcome === 'start')).toHaveLength(1);
        // the due time is the current run: the others see it begun, not charged (a crash's resume)
        for (const o of outcomes) if (o.outcome !== 'start') expect(o).toEqual({ outcome: 'resume', charged: false });
        await stores[round % INSTANCES]!.finishRun('mon_test', run.runId, at(round));
      }
      expect(await stores[1]!.progress('mon_test')).toMatchObject({ lastRunId: at(19).toISOString(), skipped: 0 });
    });

    it('racing to begin different due times: one starts, every other is skipped or stale', async () => {
      const stores = await instances();
      await stores[0]!.create(monitorRecord(), LIMITS);
      const outcomes = await Promise.all(
        stores.map((s, i) => s.beginRun('mon_test', { runId: at(i).toISOString(), at: at(i), nextRunAt: at(i + 1) })),
      );
      expect(outcomes.filter((o) => o.outcome === 'start')).toHaveLength(1);
      for (const o of outcomes) expect(['start', 'busy', 'stale']).toContain(o.outcome);
    });

    it("racing to commit one item's outcome: exactly one commits it, with its events once", async () => {
      const stores = await instances();
      await stores[0]!.create(monitorRecord(), LIMITS);
      let events = 0;
      for (let run = 0; run < 20; run++) {
        const input = { runId: `r${String(run).padStart(2, '0')}`, targetIndex: 0, check: 'tls-rating', at: at(run) };
        const results = await Promise.all(
          stores.map((s) => s.recordOutcome('mon_test', { ...input, outcome: ratingOf(run) })),
        );
        expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
        events += results.reduce((n, r) => n + r.events.length, 0);
      }
      // every run after the first changes the grade: one event each, numbered without a gap
      expect(events).toBe(19);
      const stored = await stores[2]!.events('mon_test', { limit: 100 });
      expect(stored.items.map((e) => e.id)).toEqual(Array.from({ length: 19 }, (_, i) => `mon_test.${19 - i}`));
      expect((await stores[3]!.history('mon_test', { limit: 100 })).items).toHaveLength(20);
    });

    it('racing to commit successive runs of one pair: each is evaluated over the state the other committed', async () => {
      const stores = await instances();
      await stores[0]!.create(monitorRecord(), LIMITS);
      const commit = (store: MonitorStore, run: number) =>
        store.recordOutcome('mon_test', {
          runId: `r${String(run).padStart(2, '0')}`,
          targetIndex: 0,
          check: 'tls-rating',
          at: at(run),
          outcome: ratingOf(run),
        });
      await commit(stores[0]!, 0);
      // runs 1 and 2 (B, then A+ again) read the same state at once; whichever commits second must see the first
      for (let run = 1; run < 40; run += 2) await Promise.all([commit(stores[1]!, run), commit(stores[2]!, run + 1)]);
      const { items } = await stores[3]!.events('mon_test', { limit: 100, since: 'mon_test.0' });
      const grades = items.map((e) => e.changes.find((c) => c.path === 'grade.letter')!);
      // the grade changes chain: each starts where the previous ended, and the last ends at the state kept
      for (let i = 1; i < grades.length; i++) expect(grades[i]!.before).toBe(grades[i - 1]!.after);
      expect(grades.at(-1)?.after ?? 'A+').toBe((await stores[3]!.state('mon_test', 0, 'tls-rating'))!.grade);
    });

    it("racing to create at a key's limit: exactly one is created", async () => {
      const stores = await instances();
      const limits = { maxPerKey: 3, maxPairsPerKey: 5000 };
      await stores[0]!.create(monitorRecord({ id: 'm0' }), limits);
      await stores[1]!.create(monitorRecord({ id: 'm1' }), limits);
      const results = await Promise.all(stores.map((s, i) => s.create(monitorRecord({ id: `race${i}` }), limits)));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual(
        Array.from({ length: INSTANCES - 1 }, () => ({ ok: false, limit: 'monitors' })),
      );
      expect(await stores[2]!.usage('key-a')).toEqual({ monitors: 3, pairs: 12 });
    });

    it('an outcome committed after the monitor was deleted writes nothing', async () => {
      const [a, b] = await instances();
      await a!.create(monitorRecord(), LIMITS);
      await a!.delete('mon_test');
      expect(
        await b!.recordOutcome('mon_test', {
          runId: 'r',
          targetIndex: 0,
          check: 'tls-rating',
          at: at(0),
          outcome: ratingOf(0),
        }),
      ).toEqual({ events: [], duplicate: false });
      await a!.close();
      expect(await b!.states('mon_test')).toEqual([]);
      expect((await b!.history('mon_test', { limit: 10 })).items).toEqual([]);
    });
  });

  it('indexes the monitors with a webhook and events to deliver, until the last is delivered, unhooked or deleted', async () => {
    const store = await instance(newPrefix());
    const hook = { webhook: 'https://hook.example/' };
    for (const id of ['m1', 'm2', 'm3']) await store.create(monitorRecord({ id, notify: hook }), LIMITS);
    await store.create(monitorRecord({ id: 'quiet' }), LIMITS);
    const outcome = (id: string, run: number) =>
      store.recordOutcome(id, {
        runId: `r${run}`,
        targetIndex: 0,
        check: 'tls-rating',
        at: new Date(T0.getTime() + run * HOUR),
        outcome: ratingOf(run),
      });
    // the first run is a baseline (no event); the next two change the grade
    for (const id of ['m1', 'm2', 'm3', 'quiet']) for (const run of [0, 1, 2]) await outcome(id, run);
    expect(await store.undeliveredMonitors(null, 10)).toEqual(['m1', 'm2', 'm3']);
    // a page at a time, after the last id read
    expect(await store.undeliveredMonitors('m1', 1)).toEqual(['m2']);
    await store.markDelivered('m1', 'm1.1', null);
    expect(await store.undeliveredMonitors(null, 10)).toEqual(['m1', 'm2', 'm3']);
    await store.markDelivered('m1', 'm1.2', 'given up');
    await store.update('m2', { notify: null }, T0);
    await store.delete('m3');
    expect(await store.undeliveredMonitors(null, 10)).toEqual([]);
    // a webhook set again receives only what comes next
    await store.update('m2', { notify: hook }, T0);
    expect(await store.undeliveredMonitors(null, 10)).toEqual([]);
    await outcome('m2', 3);
    expect(await store.undeliveredMonitors(null, 10)).toEqual(['m2']);
    expect((await store.pendingDeliveries('m2', 10)).map((e) => e.id)).toEqual(['m2.3']);
  });

  it('prunes a stretch of the monitors per call, and goes on from there at the next', async () => {
    const store = await instance(newPrefix(), { keepEventsDays: 1 });
    const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);
    const monitors = 250;
    const ids = Array.from({ length: monitors }, (_, i) => `m${String(i).padStart(3, '0')}`);
    for (const id of ids) {
      await store.create(monitorRecord({ id }), { maxPerKey: monitors, maxPairsPerKey: 10 * monitors });
      // a change at 12 h: one event each, past a day old at 37 h
      for (const hours of [0, 12])
        await store.recordOutcome(id, {
          runId: `r${hours}`,
          targetIndex: 0,
          check: 'tls-rating',
          at: at(hours),
          outcome: ratingOf(hours / 12),
        });
    }
    const first = await store.prune(at(37));
    expect(first.events).toBeGreaterThan(0);
    expect(first.events).toBeLessThan(monitors);
    const second = await store.prune(at(37));
    expect(first.events + second.events).toBe(monitors);
    expect(await store.prune(at(37))).toEqual({ events: 0, purged: 0 });
    for (const id of [ids[0]!, ids.at(-1)!]) expect((await store.events(id, { limit: 10 })).items).toEqual([]);
  });

  describe('Redis away', () => {
    it("fails at once with the connection's 503, and works again when Redis is back", async () => {
      const store = await instance(newPrefix());
      await store.create(monitorRecord(), LIMITS);
      await lab.stop();
      try {
        await expect(store.get('mon_test')).rejects.toBeInstanceOf(UnavailableError);
        await expect(
          store.beginRun('mon_test', { runId: 'r', at: T0, nextRunAt: new Date(T0.getTime() + HOUR) }),
        ).rejects.toBeInstanceOf(UnavailableError);
      } finally {
        await lab.start();
      }
      // nothing is persisted by the test's server: the store answers again, over an empty Redis
      await expect.poll(() => store.get('mon_test').catch((e: unknown) => e), { timeout: 30_000 }).toBeNull();
    });
  });
});
