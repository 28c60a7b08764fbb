/**
 * docs/contract/monitors.md "Events" and "Behaviour", with `store.redisUrl`: the allowance is the key's on
 * the credit ledger the instances share in Redis. A run it does not cover does not start and makes
 * `paused`; the first run it covers again makes `resumed` — read on an instance that runs nothing, for
 * runs done by the two that run monitors.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';
import { startJobsHarness, type JobsHarness } from '../jobs/jobs-harness.js';

const suite = redisServerPath ? describe : describe.skip;
if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

let redis: RedisLab;
let instances: JobsHarness[] = [];

suite('the allowance on Redis', () => {
  beforeAll(async () => {
    redis = await startRedisLab();
    // a run of 2 targets costs 6 credits; 10 credits a rolling 2 s cover one run at a time
    const config = {
      store: { redisUrl: redis.url },
      quota: { credits: 10, windowSeconds: 2 },
      monitors: { minInterval: '1s' },
    };
    instances = await Promise.all([
      startJobsHarness(config, 4),
      startJobsHarness(config, 4),
      startJobsHarness(config, 4, {}, { jobs: { kind: 'elsewhere' }, monitors: { kind: 'elsewhere' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all(instances.map((h) => h.close()));
    await redis?.close();
  });

  it('pauses a monitor whose run it does not cover, and resumes it by itself when it does', async () => {
    const api = instances[2]!;
    const created = await api.call('/api/v1/monitors', {
      body: { checks: ['mx-lookup'], targets: ['name1.test', 'name2.test'], every: '1s' },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()).data;
    const events = await vi.waitUntil(
      async () => {
        const page = (await (await api.call(`/api/v1/monitors/${id}/events`)).json()).data.events;
        return page.some((e: any) => e.kind === 'resumed') ? page : false;
      },
      { timeout: 30_000, interval: 50 },
    );
    const kinds = events.map((e: any) => e.kind).reverse();
    expect(kinds.slice(0, 2)).toEqual(['paused', 'resumed']);
    expect(events.at(-1)).toMatchObject({ target: null, check: null, severity: 'warning' });
    const monitor = (await (await api.call(`/api/v1/monitors/${id}`)).json()).data;
    expect(monitor.runs).toBeGreaterThanOrEqual(2);
    // the instance that answers ran nothing
    expect(api.lab.countQuestions('name1.test', 'MX')).toBe(0);
    expect((await api.call(`/api/v1/monitors/${id}`, { method: 'DELETE' })).status).toBe(204);
  });
});
