/**
 * docs/contract/monitors.md "Events" and "Behaviour": a run the key's allowance does not cover does not
 * start and makes `paused`; the schedule goes on and the first run the allowance covers again makes
 * `resumed`. The per-key limits (`monitors.maxPerKey`, `monitors.maxPairsPerKey`) are 429s that say so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_KEY, startJobsHarness, type JobsHarness } from '../jobs/jobs-harness.js';

let h: JobsHarness;

beforeAll(async () => {
  // a run of 2 targets costs 6 credits; 10 credits a rolling 2 s cover one run at a time
  h = await startJobsHarness(
    {
      quota: { credits: 10, windowSeconds: 2 },
      monitors: { minInterval: '1s', maxPerKey: 2, maxPairsPerKey: 5 },
    },
    4,
  );
});
afterAll(async () => {
  await h?.close();
});

async function json(path: string, init: Parameters<JobsHarness['call']>[1] = {}) {
  const response = await h.call(path, init);
  return { response, body: await response.json() };
}

describe('the allowance', () => {
  it('pauses a monitor whose run it does not cover, and resumes it by itself when it does', {
    timeout: 30_000,
  }, async () => {
    const created = await json('/api/v1/monitors', {
      key: OTHER_KEY,
      body: { checks: ['mx-lookup'], targets: ['name1.test', 'name2.test'], every: '1s' },
    });
    expect(created.response.status).toBe(201);
    const id = created.body.data.id;
    let events: any[] = [];
    for (let i = 0; i < 400 && !events.some((e) => e.kind === 'resumed'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      events = (await json(`/api/v1/monitors/${id}/events`, { key: OTHER_KEY })).body.data.events;
    }
    const kinds = events.map((e) => e.kind).reverse();
    expect(kinds.slice(0, 2)).toEqual(['paused', 'resumed']);
    expect(events.at(-1)).toMatchObject({ target: null, check: null, severity: 'warning' });
    const monitor = (await json(`/api/v1/monitors/${id}`, { key: OTHER_KEY })).body.data;
    expect(monitor.runs).toBeGreaterThanOrEqual(2);
    await h.call(`/api/v1/monitors/${id}`, { method: 'DELETE', key: OTHER_KEY });
  });
});

describe('limits per key', () => {
  it('refuses a monitor past monitors.maxPairsPerKey and past monitors.maxPerKey with a 429', async () => {
    const pairs = await json('/api/v1/monitors', {
      body: { checks: ['mx-lookup', 'dns-lookup'], targets: ['name1.test', 'name2.test', 'name3.test'], every: '1h' },
    });
    expect(pairs.response.status).toBe(429);
    expect(pairs.body.error).toContain('monitors.maxPairsPerKey');
    for (const target of ['name1.test', 'name2.test'])
      expect(
        (await h.call('/api/v1/monitors', { body: { checks: ['mx-lookup'], targets: [target], every: '1h' } })).status,
      ).toBe(201);
    const third = await json('/api/v1/monitors', {
      body: { checks: ['mx-lookup'], targets: ['name3.test'], every: '1h' },
    });
    expect(third.response.status).toBe(429);
    expect(third.body.error).toContain('monitors.maxPerKey');
  });
});
