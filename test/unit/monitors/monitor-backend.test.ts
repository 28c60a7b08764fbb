/**
 * The monitors' backend by mode (src/monitors/runtime/create-monitor-backend.ts): the embedded store and
 * schedule in `server.dataDir` without `store.redisUrl`; with it, the Redis store, BullMQ's schedule, a bus
 * between instances and a webhook lease — and a Redis that is down gives a backend whose endpoints answer
 * 503 with a message at once, never one that hangs or crashes the process.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchSpecs } from '../../../src/graphql-server/watch-specs.js';
import { createMonitorBackend } from '../../../src/monitors/runtime/create-monitor-backend.js';
import { createMonitorsApi } from '../../../src/monitors/runtime/monitors-module.js';
import { createMonitorsHandler } from '../../../src/rest/monitors/monitors-handler.js';
import type { Services } from '../../../src/services.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';
import { monitorRecord } from './store-fixture.js';

if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

const logs: { event: string }[] = [];
const logger = {
  info() {},
  warn() {},
  error(event: string) {
    logs.push({ event });
  },
};

const servicesWith = (store: { redisUrl: string | null }) =>
  ({
    config: {
      store,
      server: { dataDir: mkdtempSync(join(tmpdir(), 'nd-backend-')), requestTimeoutMs: 5_000 },
      monitors: { keepRuns: 100, keepEventsDays: 90, minInterval: '15m', maxTargets: 10 },
      jobs: { maxStreamsPerKey: 4 },
    },
    now: Date.now,
    logger,
  }) as unknown as Services;

describe('createMonitorBackend', () => {
  it('is the embedded store and schedule without store.redisUrl, with no bus or lease of its own', async () => {
    const backend = await createMonitorBackend(servicesWith({ redisUrl: null }), { specs: watchSpecs() });
    expect(backend.bus).toBeUndefined();
    expect(backend.deliveryLease).toBeUndefined();
    expect(backend.sweepMs).toBeUndefined();
    expect(typeof backend.schedule.wake).toBe('function');
    await backend.close();
  });
});

describe.skipIf(!redisServerPath)('createMonitorBackend on Redis', () => {
  let lab: RedisLab;
  beforeAll(async () => {
    lab = await startRedisLab();
  });
  afterAll(async () => {
    await lab?.close();
  });

  it('is the Redis store, a bus, a lease that one process holds at a time, and the undelivered index', async () => {
    const services = servicesWith({ redisUrl: lab.url });
    const [a, b] = await Promise.all([
      createMonitorBackend(services, { specs: watchSpecs() }),
      createMonitorBackend(services, { specs: watchSpecs() }),
    ]);
    try {
      expect(a.bus).toBeDefined();
      expect(a.sweepMs).toBeGreaterThan(0);
      await a.store.create(monitorRecord({ id: 'mon_shared' }), { maxPerKey: 10, maxPairsPerKey: 100 });
      expect((await b.store.get('mon_shared'))?.name).toBe('sites');
      // one deliverer per monitor: the other instance finds the lease taken until it is let go
      const held = await a.deliveryLease!.acquire('mon_shared');
      expect(held).not.toBeNull();
      expect(await b.deliveryLease!.acquire('mon_shared')).toBeNull();
      await held!.release();
      const taken = await b.deliveryLease!.acquire('mon_shared');
      expect(taken).not.toBeNull();
      expect(taken!.signal.aborted).toBe(false);
      await taken!.release();
      // a monitor's events told on one backend's bus reach the other's listeners
      const heard = new Promise<string>((resolve) => b.bus!.onEvents(resolve));
      await new Promise((r) => setTimeout(r, 100)); // the subscription is made
      a.bus!.events('mon_shared');
      expect(await heard).toBe('mon_shared');
      const seen: string[] = [];
      await a.undelivered((id) => seen.push(id));
      expect(seen).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('with Redis down: the endpoints answer 503 with a message, within the request bound, and the process lives', async () => {
    const down = await startRedisLab();
    const url = down.url;
    await down.close();
    logs.length = 0;
    const services = servicesWith({ redisUrl: url });
    const api = createMonitorsApi({
      services,
      tools: { get: () => undefined } as never,
      place: { kind: 'elsewhere' },
      specs: watchSpecs(),
    });
    try {
      const handler = createMonitorsHandler(api.port);
      const auth = { ok: true as const, identity: { id: 's_key', kind: 'static' as const } };
      for (const [method, path] of [
        ['GET', '/api/v1/monitors'],
        ['GET', '/api/v1/monitors/mon_AAAAAAAAAAAAAAAAAAAAAA'],
        ['GET', '/api/v1/monitors/mon_AAAAAAAAAAAAAAAAAAAAAA/history'],
      ]) {
        const request = new Request(`http://localhost${path}`, { method });
        const started = performance.now();
        const response = await handler.handle(request, new URL(request.url), auth);
        expect(response.status, `${method} ${path}`).toBe(503);
        expect((await response.json()).error).toMatch(/monitor/);
        // the connect is bounded, then a command fails at once: well within the request bound
        expect(performance.now() - started).toBeLessThan(5_000 + 3_000);
      }
    } finally {
      await api.stop();
    }
  });
});
