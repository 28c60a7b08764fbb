/** The job endpoints over a real socket (docs/jobs.md "Endpoints"), against the loopback DNS lab. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_KEY, readEvents, SLOW_MS, startJobsHarness, type JobsHarness } from './jobs-harness.js';

let h: JobsHarness;
/** mx-lookup's default price (config: `quota.costs.default`) */
const COST = 3;
/** slow names no earlier test asked (answers are cached across requests) */
let nextSlow = 0;
const slowTargets = (n: number) => Array.from({ length: n }, () => `slow${nextSlow++}.test`);

beforeAll(async () => {
  h = await startJobsHarness(
    { quota: { credits: 10_000 }, jobs: { concurrency: 2, maxTargets: 40, maxActivePerKey: 2 } },
    80,
  );
});
afterAll(async () => {
  await h.close();
});

async function submit(body: unknown, key?: string) {
  const response = await h.call('/api/v1/jobs', { body, ...(key ? { key } : {}) });
  return { response, body: await response.json() };
}

describe('POST /api/v1/jobs', () => {
  it('accepts a job with 202, Location and the contract fields, and charges cost × targets at once', async () => {
    const before = Number((await h.call('/api/v1/mx-lookup?domain=name0.test')).headers.get('ratelimit-remaining'));
    const { response, body } = await submit({ tool: 'mx-lookup', targets: ['name1.test', 'name2.test', 'name3.test'] });
    expect(response.status).toBe(202);
    expect(response.headers.get('location')).toBe(`/api/v1/jobs/${body.data.id}`);
    expect(body).toMatchObject({ ok: true, meta: { tool: 'jobs', version: 'v1' } });
    expect(body.data).toEqual({
      id: expect.stringMatching(/^j[0-9a-z]+$/),
      status: 'queued',
      tool: 'mx-lookup',
      total: 3,
      createdAt: expect.any(String),
      links: {
        self: `/api/v1/jobs/${body.data.id}`,
        results: `/api/v1/jobs/${body.data.id}/results`,
        events: `/api/v1/jobs/${body.data.id}/events`,
      },
    });
    expect(Number(response.headers.get('ratelimit-remaining'))).toBe(before - 3 * COST);
    const ended = await h.untilEnded(body.data.id);
    expect(ended).toMatchObject({ status: 'done', total: 3, done: 3, failed: 0, cancelled: 0, callback: null });
    // the figures /metrics is to read (JobStats)
    const stats = await h.t.app.jobStats();
    expect(stats.itemsFinished).toBeGreaterThanOrEqual(3);
    expect(stats.jobs).toEqual({ queued: 0, running: 0 });
    expect(stats.queueDepth).toBe(0);
    expect(ended.startedAt).toEqual(expect.any(String));
    expect(ended.finishedAt).toEqual(expect.any(String));
    // items ran prepaid: nothing more was charged
    const after = Number((await h.call('/api/v1/mx-lookup?domain=name0.test')).headers.get('ratelimit-remaining'));
    expect(after).toBe(before - 3 * COST - COST);
  });

  it("answers each item's data exactly as the single call's, in target order, with ?after and ?format=csv", async () => {
    const targets = ['name5.test', { domain: 'name6.test' }, 'name7.test', 'nosuch.test'];
    const { body } = await submit({ tool: 'mx-lookup', targets });
    await h.untilEnded(body.data.id);
    const response = await h.call(`/api/v1/jobs/${body.data.id}/results`);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await response.text()).trim().split('\n');
    expect(lines).toHaveLength(4);
    for (const [index, line] of lines.entries()) {
      const item = JSON.parse(line);
      expect(item).toMatchObject({ index, target: targets[index] });
      const domain = typeof targets[index] === 'string' ? targets[index] : (targets[index] as any).domain;
      const single = await h.call(`/api/v1/mx-lookup?domain=${domain}`);
      const singleText = await single.text();
      expect(item.status).toBe(single.status);
      expect(item.ok).toBe(single.status === 200);
      // byte for byte: the single call's envelope holds exactly the item's data text
      if (item.ok) expect(singleText).toContain(`"data":${JSON.stringify(item.data)},"meta"`);
      else expect(JSON.parse(singleText).error).toBe(item.error);
    }
    const after = (await (await h.call(`/api/v1/jobs/${body.data.id}/results?after=1`)).text()).trim().split('\n');
    expect(after.map((l) => JSON.parse(l).index)).toEqual([2, 3]);
    const csv = await h.call(`/api/v1/jobs/${body.data.id}/results?format=csv`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = (await csv.text()).trim().split('\r\n');
    expect(rows[0]).toBe(
      'index,target,ok,status,error,data.domain,data.hosts,data.omittedExchanges,data.truncated,data.nullMx,data.rcode',
    );
    expect(rows[1]).toMatch(
      /^0,name5\.test,true,200,,name5\.test,"\[\{""priority"":10,""exchange"":""mx\.name5\.test""/,
    );
    expect(rows[2]).toMatch(/^1,"\{""domain"":""name6\.test""\}",true,200,/);
    expect(rows).toHaveLength(5);
  });

  it('validates every target first: a bad one is a 400 naming its index, with the single call reason; nothing charged', async () => {
    const before = Number((await h.call('/api/v1/mx-lookup?domain=name0.test')).headers.get('ratelimit-remaining'));
    const single = await (await h.call('/api/v1/mx-lookup?domain=bad_name..test')).json();
    const { response, body } = await submit({ tool: 'mx-lookup', targets: ['name1.test', 'bad_name..test'] });
    expect(response.status).toBe(400);
    expect(body).toMatchObject({ ok: false, meta: { tool: 'jobs' } });
    expect(body.error).toBe(`targets[1]: ${single.error}`);
    const missing = await submit({ tool: 'mx-lookup', targets: ['name1.test', {}] });
    expect(missing.body.error).toMatch(/^targets\[1\]: domain: missing required parameter/);
    const after = Number((await h.call('/api/v1/mx-lookup?domain=name0.test')).headers.get('ratelimit-remaining'));
    expect(after).toBe(before - COST);
  });

  it('refuses what is not a job: unknown tool, my-ip, no or too many targets, a bad body', async () => {
    expect((await submit({ tool: 'nope', targets: ['a.test'] })).body.error).toMatch(
      /tool: "nope" is not a tool a job can run/,
    );
    expect((await submit({ tool: 'my-ip', targets: ['a.test'] })).response.status).toBe(400);
    expect((await submit({ tool: 'mx-lookup', targets: [] })).body.error).toMatch(/1 to 40 targets/);
    const many = Array.from({ length: 41 }, (_, i) => `name${i}.test`);
    expect((await submit({ tool: 'mx-lookup', targets: many })).body.error).toMatch(/at most 40/);
    expect((await submit([1, 2])).response.status).toBe(400);
    expect((await submit({ tool: 'mx-lookup', targets: ['a.test'], extra: 1 })).body.error).toMatch(/unknown field/);
    const notJson = await h.call('/api/v1/jobs', {
      method: 'POST',
      body: undefined,
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    const tooLarge = await submit({ tool: 'mx-lookup', targets: ['x'.repeat(3 * 1024 * 1024)] });
    expect(tooLarge.response.status).toBe(413);
    const noKey = await fetch(`${h.base}/api/v1/jobs`, { method: 'POST' });
    expect(noKey.status).toBe(401);
    const wrongMethod = await h.call('/api/v1/jobs', { method: 'PUT' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, POST');
  });

  it('answers 429 when the allowance does not cover cost × targets, charging nothing', async () => {
    const poor = await startJobsHarness({ quota: { credits: 10 } }, 5);
    try {
      const response = await poor.call('/api/v1/jobs', {
        body: { tool: 'mx-lookup', targets: ['name1.test', 'name2.test', 'name3.test', 'name4.test'] },
      });
      expect(response.status).toBe(429);
      expect((await response.json()).error).toMatch(/this job costs 12 credits and 10 of 10 are left/);
      expect(response.headers.get('retry-after')).not.toBeNull();
      const ok = await poor.call('/api/v1/jobs', {
        body: { tool: 'mx-lookup', targets: ['name1.test', 'name2.test', 'name3.test'] },
      });
      expect(ok.status).toBe(202);
      expect(ok.headers.get('ratelimit-remaining')).toBe('1');
    } finally {
      await poor.close();
    }
  });
});

describe('reading, following, cancelling and listing', () => {
  it('streams progress and one end event; Last-Event-ID resumes; an ended job gets its end at once', async () => {
    const { body } = await submit({ tool: 'mx-lookup', targets: slowTargets(4) });
    const response = await h.call(`/api/v1/jobs/${body.data.id}/events`);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = await readEvents(response);
    expect(events[0]).toMatchObject({ event: 'progress', data: { total: 4 } });
    const end = events.at(-1)!;
    expect(end).toMatchObject({ event: 'end', id: '4', data: { id: body.data.id, status: 'done', done: 4 } });
    expect(events.filter((e) => e.event === 'end')).toHaveLength(1);
    const ids = events.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const again = await readEvents(
      await h.call(`/api/v1/jobs/${body.data.id}/events`, { headers: { 'last-event-id': '4' } }),
    );
    expect(again).toEqual([expect.objectContaining({ event: 'end', id: '4' })]);
  });

  it('sends progress at most once a second', async () => {
    const targets = slowTargets(12);
    const { body } = await submit({ tool: 'mx-lookup', targets });
    const started = Date.now();
    const events = await readEvents(await h.call(`/api/v1/jobs/${body.data.id}/events`));
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.length).toBeLessThanOrEqual(Math.floor((Date.now() - started) / 1000) + 1);
    expect(progress.length).toBeGreaterThanOrEqual(2);
  });

  it('cancels: running items finish, queued ones never start and are refunded', async () => {
    const before = Number((await h.call('/api/v1/mx-lookup?domain=name0.test')).headers.get('ratelimit-remaining'));
    const targets = slowTargets(10);
    const { body } = await submit({ tool: 'mx-lookup', targets });
    await new Promise((r) => setTimeout(r, SLOW_MS / 2));
    const response = await h.call(`/api/v1/jobs/${body.data.id}`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    const cancelled = (await response.json()).data;
    expect(cancelled.status).toBe('cancelled');
    // two slots: items 0 and 1, or only item 0 while items gave way to the interactive call just before
    const ran = 10 - cancelled.cancelled;
    expect(ran === 1 || ran === 2).toBe(true);
    const ended = await h.untilEnded(body.data.id);
    expect(ended).toMatchObject({ status: 'cancelled', done: ran, cancelled: 10 - ran });
    await new Promise((r) => setTimeout(r, 200));
    expect(ended.finishedAt).toEqual(expect.any(String));
    const lines = (await (await h.call(`/api/v1/jobs/${body.data.id}/results`)).text()).trim().split('\n');
    expect(lines).toHaveLength(ran);
    const after = Number((await h.call('/api/v1/mx-lookup?domain=name0.test')).headers.get('ratelimit-remaining'));
    expect(after).toBe(before - ran * COST - COST);
  });

  it("lists the key's jobs newest first with a cursor; another key gets 404 for them", async () => {
    const page1 = (await (await h.call('/api/v1/jobs?limit=2')).json()).data;
    expect(page1.jobs).toHaveLength(2);
    expect(page1.nextCursor).toBe(page1.jobs[1].id);
    const page2 = (await (await h.call(`/api/v1/jobs?limit=2&cursor=${page1.nextCursor}`)).json()).data;
    expect(page2.jobs[0].id < page1.jobs[1].id).toBe(true);
    expect(page1.jobs[0].id > page1.jobs[1].id).toBe(true);
    const id = page1.jobs[0].id;
    for (const [path, method] of [
      [`/api/v1/jobs/${id}`, 'GET'],
      [`/api/v1/jobs/${id}/results`, 'GET'],
      [`/api/v1/jobs/${id}/events`, 'GET'],
      [`/api/v1/jobs/${id}`, 'DELETE'],
    ] as const) {
      expect((await h.call(path, { method, key: OTHER_KEY })).status).toBe(404);
    }
    expect((await h.call('/api/v1/jobs/unknown-id')).status).toBe(404);
    const theirs = (await (await h.call('/api/v1/jobs', { key: OTHER_KEY })).json()).data;
    expect(theirs).toEqual({ jobs: [], nextCursor: null });
  });

  it('refuses a key more than jobs.maxActivePerKey queued or running jobs with 429', async () => {
    const slow = slowTargets;
    const a = await submit({ tool: 'mx-lookup', targets: slow(6) }, OTHER_KEY);
    const b = await submit({ tool: 'mx-lookup', targets: slow(6) }, OTHER_KEY);
    const c = await submit({ tool: 'mx-lookup', targets: slow(6) }, OTHER_KEY);
    expect([a.response.status, b.response.status]).toEqual([202, 202]);
    expect(c.response.status).toBe(429);
    expect(c.body.error).toMatch(/2 queued or running jobs.*jobs\.maxActivePerKey = 2/);
    await h.call(`/api/v1/jobs/${a.body.data.id}`, { method: 'DELETE', key: OTHER_KEY });
    await h.untilEnded(a.body.data.id, OTHER_KEY);
    const d = await submit({ tool: 'mx-lookup', targets: slow(1) }, OTHER_KEY);
    expect(d.response.status).toBe(202);
    await h.call(`/api/v1/jobs/${b.body.data.id}`, { method: 'DELETE', key: OTHER_KEY });
  });
});
