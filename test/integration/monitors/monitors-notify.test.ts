/**
 * docs/contract/monitors.md "Events" and "Behaviour" over a real socket, the points monitors-api.test.ts
 * leaves: `expiring` (a lab certificate within `warnDays`, once per threshold), `failing` after two error
 * answers in a row and `recovered` after them, a webhook that fails at delivery (three tries, then
 * `notify: { status, lastError, failedEvents }`, and the next event still delivered, in order), a webhook
 * the target guard refuses at delivery time (its name now resolves to a loopback address outside `targets.allow`:
 * nothing is sent), the per-key cap on event streams (SSE and the GraphQL subscription), and the history's
 * `limit` and `before` cursor, and a due time skipped (and counted) while the run before still goes.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labPki } from '../../lab/pki.js';
import { rr } from '../../lab/dns-server.js';
import { readEvents, startJobsHarness, type JobsHarness } from '../jobs/jobs-harness.js';
import { monitorCalls } from './monitor-calls.js';

let h: JobsHarness;
let site: Server;
let sitePort: number;
let hook: Server;
let hookPort: number;
/** what the webhook answers next: a status per request */
let hookAnswers: number[] = [];
const received: { eventId: string; status: number }[] = [];

beforeAll(async () => {
  const pki = await labPki();
  site = createServer({ key: pki.good.key, cert: pki.good.chain }, (_request, response) => response.end('ok'));
  hook = createServer({ key: pki.good.key, cert: pki.good.chain }, (request, response) => {
    request.resume();
    request.on('end', () => {
      const status = hookAnswers.shift() ?? 204;
      received.push({ eventId: String(request.headers['x-netdiag-event-id']), status });
      response.writeHead(status).end();
    });
  });
  for (const server of [site, hook]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sitePort = (site.address() as AddressInfo).port;
  hookPort = (hook.address() as AddressInfo).port;
  h = await startJobsHarness(
    {
      quota: { credits: 100_000 },
      monitors: { minInterval: '1s' },
      targets: { allow: ['127.0.0.1/32'] },
      jobs: { callbackBackoffMs: 20, maxStreamsPerKey: 1 },
    },
    4,
    { connections: { tlsCa: pki.root.cert } },
  );
  h.lab.records.push(rr.a('hook.lab.test', '127.0.0.1', 0));
});
afterAll(async () => {
  await h?.close();
  for (const server of [site, hook]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
});

const { json, until, monitorOf, eventsOf, untilRuns } = monitorCalls(() => h);

async function create(body: Record<string, unknown>): Promise<string> {
  const { response, body: answer } = await json('/api/v1/monitors', { body: { every: '1h', ...body } });
  expect(response.status, JSON.stringify(answer)).toBe(201);
  return answer.data.id;
}

async function runNow(id: string, runs: number) {
  expect((await h.call(`/api/v1/monitors/${id}/run`, { method: 'POST' })).status).toBe(202);
  return untilRuns(id, runs);
}

describe('expiring', () => {
  it('announces a certificate within warnDays once, and not again on the next run', async () => {
    // the lab's good certificate ends 90 days after it was made: within 100 days, outside 7
    const id = await create({
      checks: ['ssl-checker'],
      targets: [`https://good.lab.test:${sitePort}/`],
      warnDays: 100,
    });
    await untilRuns(id, 1);
    const events = await eventsOf(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'expiring', check: 'ssl-checker', severity: 'info', changes: [] });
    expect(events[0].summary).toMatch(/ends in (89|90) days, on \d{4}-\d{2}-\d{2}\.$/);
    await runNow(id, 2);
    expect(await eventsOf(id)).toHaveLength(1);
  });

  it('says nothing for a certificate outside warnDays', async () => {
    const id = await create({ checks: ['ssl-checker'], targets: [`https://good.lab.test:${sitePort}/`], warnDays: 30 });
    await untilRuns(id, 1);
    expect(await eventsOf(id)).toEqual([]);
    expect((await monitorOf(id)).state[0]).toMatchObject({ status: 'ok' });
  });
});

describe('failing and recovered', () => {
  it('makes failing at the second error answer in a row and recovered at the next answer', async () => {
    h.lab.records.push(rr.mx('flaky.test', 10, 'mx.flaky.test', 0), rr.a('mx.flaky.test', '192.0.2.40', 0));
    const id = await create({ checks: ['mx-lookup'], targets: ['flaky.test'] });
    await untilRuns(id, 1);
    h.lab.setBehaviour('flaky.test', { servfail: true });
    try {
      const once = await runNow(id, 2);
      expect(once.state[0].status).toBe('error');
      expect(await eventsOf(id)).toEqual([]);
      await runNow(id, 3);
    } finally {
      h.lab.clearBehaviours();
    }
    const failing = await eventsOf(id);
    expect(failing.map((e) => e.kind)).toEqual(['failing']);
    expect(failing[0]).toMatchObject({ target: 'flaky.test', check: 'mx-lookup', severity: expect.any(String) });
    expect(failing[0].summary.length).toBeGreaterThan(10);
    await runNow(id, 4);
    const events = await eventsOf(id);
    expect(events.map((e) => e.kind)).toEqual(['recovered', 'failing']);
    // the answer after the failure is the same as before it: nothing changed
    await runNow(id, 5);
    expect(await eventsOf(id)).toHaveLength(2);
  });
});

describe('a webhook that fails at delivery', () => {
  it('tries three times, records the failure, and still delivers the next event in order', async () => {
    h.lab.records.push(rr.mx('hooked.test', 10, 'mx.hooked.test', 0), rr.a('mx.hooked.test', '192.0.2.50', 0));
    const id = await create({
      checks: ['mx-lookup'],
      targets: ['hooked.test'],
      notify: { webhook: `https://hook.lab.test:${hookPort}/hook` },
    });
    await untilRuns(id, 1);
    const mine = () => received.filter((r) => r.eventId.startsWith(`${id}.`));
    hookAnswers = [500, 500, 500];
    h.lab.records = h.lab.records.filter((r) => r.name !== 'mx.hooked.test');
    h.lab.records.push(rr.a('mx.hooked.test', '192.0.2.51', 0));
    await runNow(id, 2);
    const failed = await until(
      'the failure recorded',
      () => monitorOf(id),
      (m) => m.notify.failedEvents === 1,
    );
    expect(failed.notify).toMatchObject({ status: 'failing', failedEvents: 1 });
    expect(failed.notify.lastError).toContain('500');
    expect(mine()).toEqual([1, 2, 3].map(() => ({ eventId: `${id}.1`, status: 500 })));

    h.lab.records = h.lab.records.filter((r) => r.name !== 'mx.hooked.test');
    h.lab.records.push(rr.a('mx.hooked.test', '192.0.2.52', 0));
    await runNow(id, 3);
    const recovered = await until(
      'the next delivery',
      () => monitorOf(id),
      (m) => m.notify.status === 'ok',
    );
    // the failure stays counted, and the event given up is not sent again after the next one
    expect(recovered.notify).toMatchObject({ status: 'ok', failedEvents: 1 });
    expect(mine().map((r) => r.eventId)).toEqual([`${id}.1`, `${id}.1`, `${id}.1`, `${id}.2`]);
  });

  it('is refused by the target guard when its name resolves outside targets.allow, and nothing is sent', async () => {
    h.lab.records.push(
      rr.mx('guarded.test', 10, 'mx.guarded.test', 0),
      rr.a('mx.guarded.test', '192.0.2.60', 0),
      rr.a('moved.lab.test', '127.0.0.1', 0),
    );
    const id = await create({
      checks: ['mx-lookup'],
      targets: ['guarded.test'],
      notify: { webhook: `https://moved.lab.test:${hookPort}/hook` },
    });
    await untilRuns(id, 1);
    // the name now points at 127.0.0.2: loopback outside targets.allow (and nothing listens there)
    h.lab.records = h.lab.records.filter((r) => r.name !== 'moved.lab.test' && r.name !== 'mx.guarded.test');
    h.lab.records.push(rr.a('moved.lab.test', '127.0.0.2', 0), rr.a('mx.guarded.test', '192.0.2.61', 0));
    await runNow(id, 2);
    const refused = await until(
      'the refusal recorded',
      () => monitorOf(id),
      (m) => m.notify.failedEvents === 1,
    );
    expect(refused.notify.status).toBe('failing');
    expect(refused.notify.lastError).toContain('moved.lab.test resolves to 127.0.0.2');
    expect(refused.notify.lastError).toContain('are refused');
    expect(received.filter((r) => r.eventId.startsWith(`${id}.`))).toEqual([]);
  });
});

describe('event streams per key', () => {
  it('holds at most jobs.maxStreamsPerKey streams, SSE and subscriptions together, and frees one when it closes', async () => {
    h.lab.records.push(rr.mx('streamed.test', 10, 'mx.streamed.test', 0), rr.a('mx.streamed.test', '192.0.2.70', 0));
    const id = await create({ checks: ['mx-lookup'], targets: ['streamed.test'] });
    await untilRuns(id, 1);
    const sse = () => h.call(`/api/v1/monitors/${id}/events`, { headers: { accept: 'text/event-stream' } });
    const subscription = () =>
      h.call('/graphql', {
        headers: { accept: 'text/event-stream' },
        body: { query: 'subscription($id: ID!) { monitorEvents(id: $id) { id } }', variables: { id } },
      });
    const first = await sse();
    expect(first.status).toBe(200);
    const second = await sse();
    expect(second.status).toBe(429);
    expect((await second.json()).error).toMatch(/stream/i);
    const refusedSubscription = await subscription();
    const [refusal] = await readEvents(refusedSubscription, 1);
    expect(JSON.stringify(refusal?.data)).toMatch(/stream/i);

    await first.body!.cancel();
    const again = await until('a stream freed', sse, (r) => {
      if (r.status !== 200) void r.body?.cancel();
      return r.status === 200;
    });
    expect(again.status).toBe(200);
    await again.body!.cancel();
  });
});

describe('history', () => {
  it('pages newest first with limit and the before cursor', async () => {
    h.lab.records.push(rr.mx('paged.test', 10, 'mx.paged.test', 0), rr.a('mx.paged.test', '192.0.2.80', 0));
    const id = await create({ checks: ['mx-lookup'], targets: ['paged.test'] });
    await untilRuns(id, 1);
    await runNow(id, 2);
    await runNow(id, 3);
    const all = (await json(`/api/v1/monitors/${id}/history`)).body.data;
    expect(all.runs).toHaveLength(3);
    expect(all.nextCursor).toBeNull();
    const ats = all.runs.map((r: any) => r.at);
    expect([...ats].sort().reverse()).toEqual(ats);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=1&target=paged.test&check=mx-lookup${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`;
      const page = (await json(`/api/v1/monitors/${id}/history${query}`)).body.data;
      expect(page.runs.length).toBeLessThanOrEqual(1);
      seen.push(...page.runs.map((r: any) => r.runId));
      cursor = page.nextCursor;
    } while (cursor && seen.length < 10);
    expect(seen).toEqual(all.runs.map((r: any) => r.runId));
    expect(all.runs[0]).toMatchObject({ target: 'paged.test', check: 'mx-lookup', ok: true, status: 200 });
    expect(all.runs[0].data.records ?? all.runs[0].data).toBeTruthy();
  });
});

describe('overlapping runs', () => {
  it('skips a due time while the run before is still going, and counts it', async () => {
    h.lab.records.push(rr.mx('sluggish.test', 10, 'mx.sluggish.test', 0), rr.a('mx.sluggish.test', '192.0.2.90', 0));
    // a run takes 2.5 s; the monitor is due every second
    h.lab.setBehaviour('sluggish.test', { delayMs: 2500 });
    try {
      const id = await create({ checks: ['mx-lookup'], targets: ['sluggish.test'], every: '1s' });
      const monitor = await until(
        'a skipped due time',
        () => monitorOf(id),
        (m) => m.skippedRuns >= 1,
      );
      expect(monitor.runs).toBe(1);
      await h.call(`/api/v1/monitors/${id}`, { method: 'DELETE' });
    } finally {
      h.lab.clearBehaviours();
    }
  });
});
