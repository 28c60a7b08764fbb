/** docs/jobs.md "GraphQL": job, jobs, submitJob and cancelJob with the REST rules and prices. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../helpers/app.js';
import { OTHER_KEY, startJobsHarness, type JobsHarness } from './jobs-harness.js';

let h: JobsHarness;
beforeAll(async () => {
  h = await startJobsHarness({ quota: { credits: 30 }, jobs: { concurrency: 2 } }, 20);
});
afterAll(async () => {
  await h.close();
});

const SUBMIT = `mutation Submit($input: SubmitJobInput!) {
  submitJob(input: $input) { id status tool total createdAt links { self results events } }
}`;
const JOB =
  'query Job($id: ID!) { job(id: $id) { id status total done failed cancelled finishedAt callback { status } } }';

async function until(id: string) {
  for (let i = 0; i < 200; i++) {
    const { body } = await graphql(h.t, JOB, { id });
    if (body.data.job.finishedAt !== null) return body.data.job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('job did not end');
}

describe('GraphQL jobs', () => {
  it('submits (charging cost × targets), reads, lists and reads the same job over REST', async () => {
    const { status, body, headers } = await graphql(h.t, SUBMIT, {
      input: { tool: 'mx-lookup', targets: ['name1.test', { domain: 'name2.test' }] },
    });
    expect(status).toBe(200);
    const job = body.data.submitJob;
    expect(job).toMatchObject({
      status: 'queued',
      tool: 'mx-lookup',
      total: 2,
      links: { self: `/api/v1/jobs/${job.id}` },
    });
    expect(headers.get('ratelimit-remaining')).toBe('24');
    expect(await until(job.id)).toMatchObject({
      status: 'done',
      total: 2,
      done: 2,
      failed: 0,
      cancelled: 0,
      callback: null,
    });
    const list = await graphql(h.t, '{ jobs(limit: 5) { jobs { id } nextCursor } }');
    expect(list.body.data.jobs).toEqual({ jobs: [{ id: job.id }], nextCursor: null });
    const rest = await (await h.call(`/api/v1/jobs/${job.id}/results`)).text();
    expect(rest.trim().split('\n')).toHaveLength(2);
    // another key sees nothing
    const theirs = await graphql(h.t, JOB, { id: job.id }, { key: OTHER_KEY });
    expect(theirs.body.data.job).toBeNull();
  });

  it('refuses as REST does: a bad target names its index (400), an uncovered price is a 429', async () => {
    const bad = await graphql(h.t, SUBMIT, { input: { tool: 'mx-lookup', targets: ['name1.test', 'bad_name..test'] } });
    expect(bad.body.errors[0].message).toMatch(/^targets\[1\]: /);
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'BAD_INPUT', status: 400 });
    const targets = Array.from({ length: 10 }, (_, i) => `name${i}.test`);
    const poor = await graphql(h.t, SUBMIT, { input: { tool: 'mx-lookup', targets } });
    expect(poor.status).toBe(429);
    expect(poor.body.errors[0].message).toMatch(/this job costs 30 credits and 24 of 30 are left/);
    expect(poor.body.errors[0].extensions).toMatchObject({ code: 'QUOTA_EXCEEDED', status: 429 });
  });

  it('cancels a job; another key cannot (NOT_FOUND)', async () => {
    const { body } = await graphql(h.t, SUBMIT, {
      input: { tool: 'mx-lookup', targets: ['slow1.test', 'slow2.test', 'slow3.test'] },
    });
    const id = body.data.submitJob.id;
    const other = await graphql(h.t, 'mutation C($id: ID!) { cancelJob(id: $id) { id } }', { id }, { key: OTHER_KEY });
    expect(other.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const cancelled = await graphql(h.t, 'mutation C($id: ID!) { cancelJob(id: $id) { status cancelled } }', { id });
    // how many items had started depends on the jobs' yielding to interactive requests (item-slots.ts)
    const { status, cancelled: never } = cancelled.body.data.cancelJob;
    expect(status).toBe('cancelled');
    expect(never).toBeGreaterThanOrEqual(1);
    const ended = await until(id);
    expect(ended).toMatchObject({ status: 'cancelled', cancelled: never });
    expect(ended.done + ended.cancelled).toBe(3);
  });

  it('allows no other mutation, nor a check beside a job mutation', async () => {
    const mixed = await graphql(
      h.t,
      'mutation { submitJob(input: {tool: "mx-lookup", targets: ["a.test"]}) { id } mxLookup(domain: "a.test") { domain } }',
    );
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors[0].extensions.code).toBe('INVALID_OPERATION');
    const subscription = await graphql(h.t, 'subscription { job(id: "x") { id } }');
    expect(subscription.status).toBe(400);
  });
});
