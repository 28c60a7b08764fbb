/**
 * docs/jobs.md "Prices and limits": items run on the jobs' own slots, never on interactive
 * admission's: with one interactive slot and a job busy on slow items, a single call is still admitted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SLOW_MS, startJobsHarness, type JobsHarness } from './jobs-harness.js';

let h: JobsHarness;
beforeAll(async () => {
  h = await startJobsHarness({ admission: { maxInFlight: 1, maxQueued: 0 }, jobs: { concurrency: 4 } }, 20);
});
afterAll(async () => {
  await h.close();
});

it('leaves interactive slots to interactive calls while a job runs', async () => {
  const targets = Array.from({ length: 12 }, (_, i) => `slow${i}.test`);
  const { data } = await (await h.call('/api/v1/jobs', { body: { tool: 'mx-lookup', targets } })).json();
  await new Promise((r) => setTimeout(r, SLOW_MS / 4));
  const running = (await (await h.call(`/api/v1/jobs/${data.id}`)).json()).data;
  expect(running.status).toBe('running');
  const started = performance.now();
  const single = await h.call('/api/v1/mx-lookup?domain=name1.test');
  expect(single.status).toBe(200);
  expect(performance.now() - started).toBeLessThan(SLOW_MS);
  const ended = await h.untilEnded(data.id);
  expect(ended.done).toBe(12);
});
