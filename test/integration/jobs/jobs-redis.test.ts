/**
 * docs/jobs.md "Durability", with `store.redisUrl`: two instances on one Redis (the Debian
 * redis-server, test/lab/redis.ts) share the jobs and take items from one BullMQ queue; any instance
 * answers for any job; a job of one key does not hold back another key's.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';
import { OTHER_KEY, startJobsHarness, type JobsHarness } from './jobs-harness.js';

const suite = redisServerPath ? describe : describe.skip;
if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

let redis: RedisLab;
let a: JobsHarness;
let b: JobsHarness;

suite('jobs on Redis, two instances', () => {
  beforeAll(async () => {
    redis = await startRedisLab();
    const config = {
      store: { redisUrl: redis.url },
      quota: { credits: 10_000 },
      jobs: { concurrency: 2, staleAfterMs: 1000 },
    };
    a = await startJobsHarness(config, 80);
    b = await startJobsHarness(config, 80);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.close();
  });

  it('runs a job submitted to one instance on both, readable from the other, charged once', async () => {
    const targets = Array.from({ length: 12 }, (_, i) => `name${i}.test`);
    const submitted = await a.call('/api/v1/jobs', { body: { tool: 'mx-lookup', targets } });
    expect(submitted.status).toBe(202);
    expect(submitted.headers.get('ratelimit-remaining')).toBe(String(10_000 - 12 * 3));
    const { id } = (await submitted.json()).data;
    const ended = await b.untilEnded(id);
    expect(ended).toMatchObject({ status: 'done', total: 12, done: 12, failed: 0, cancelled: 0 });
    const [statsA, statsB] = await Promise.all([a.t.app.jobStats(), b.t.app.jobStats()]);
    expect(statsA.itemsFinished + statsB.itemsFinished).toBeGreaterThanOrEqual(12);
    expect(statsA.jobs).toEqual({ queued: 0, running: 0 });
    const lines = (await (await b.call(`/api/v1/jobs/${id}/results`)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.index)).toEqual(targets.map((_, i) => i));
    const single = await (await a.call('/api/v1/mx-lookup?domain=name3.test')).json();
    expect(lines[3].data).toEqual(single.data);
    // both instances asked the lab: each took items from the queue
    expect(a.lab.countQueries(undefined, 'MX') + b.lab.countQueries(undefined, 'MX')).toBeGreaterThanOrEqual(12);
    const after = await a.call('/api/v1/mx-lookup?domain=name4.test');
    expect(after.headers.get('ratelimit-remaining')).toBe(String(10_000 - 12 * 3 - 3 - 3));
    const csv = (await (await a.call(`/api/v1/jobs/${id}/results?format=csv&after=9`)).text()).trim().split('\r\n');
    expect(csv).toHaveLength(3);
  });

  it('cancels from the other instance, refunding what never started; lists and hides by key', async () => {
    const targets = Array.from({ length: 20 }, (_, i) => `slow${i}.test`);
    const { data } = await (await a.call('/api/v1/jobs', { body: { tool: 'mx-lookup', targets } })).json();
    await new Promise((r) => setTimeout(r, 150));
    const cancelled = await b.call(`/api/v1/jobs/${data.id}`, { method: 'DELETE' });
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).data.status).toBe('cancelled');
    const ended = await a.untilEnded(data.id);
    expect(ended.status).toBe('cancelled');
    expect(ended.done + ended.cancelled).toBe(20);
    expect(ended.done).toBeLessThanOrEqual(8);
    const lines = (await (await a.call(`/api/v1/jobs/${data.id}/results`)).text()).trim().split('\n');
    expect(lines.filter(Boolean)).toHaveLength(ended.done);
    const listed = (await (await b.call('/api/v1/jobs')).json()).data.jobs.map((j: { id: string }) => j.id);
    expect(listed[0]).toBe(data.id);
    expect((await b.call(`/api/v1/jobs/${data.id}`, { key: OTHER_KEY })).status).toBe(404);
  });

  it('puts back items handed out but lost before they reached the queue (an instance died in between)', async () => {
    const targets = Array.from({ length: 10 }, (_, i) => `slow${i + 60}.test`);
    const { data } = await (await a.call('/api/v1/jobs', { body: { tool: 'mx-lookup', targets } })).json();
    // as if an instance had taken every item not yet in the queue in turn, then died before adding them
    const raw = new Redis(redis.url);
    await raw.hset(`netdiag:jobs:job:${data.id}`, 'next', 10);
    await raw.quit();
    const ended = await a.untilEnded(data.id);
    expect(ended).toMatchObject({ status: 'done', done: 10 });
    const lost = [...a.t.logs, ...b.t.logs].filter((l) => l.event === 'job_item_lost' && l.jobId === data.id);
    expect(lost.length).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it('gives keys turns: a small job of another key is not held behind a big one', async () => {
    const big = Array.from({ length: 30 }, (_, i) => `slow${i + 20}.test`);
    const bigJob = (await (await a.call('/api/v1/jobs', { body: { tool: 'mx-lookup', targets: big } })).json()).data;
    await new Promise((r) => setTimeout(r, 100));
    const small = ['name30.test', 'name31.test'];
    const smallJob = (
      await (await b.call('/api/v1/jobs', { body: { tool: 'mx-lookup', targets: small }, key: OTHER_KEY })).json()
    ).data;
    const smallEnded = await b.untilEnded(smallJob.id, OTHER_KEY);
    const bigNow = (await (await a.call(`/api/v1/jobs/${bigJob.id}`)).json()).data;
    expect(smallEnded.status).toBe('done');
    expect(bigNow.finishedAt).toBeNull();
    await a.call(`/api/v1/jobs/${bigJob.id}`, { method: 'DELETE' });
    await a.untilEnded(bigJob.id);
  });
});
