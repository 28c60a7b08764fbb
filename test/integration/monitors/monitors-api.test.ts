/**
 * The monitor endpoints over a real socket (docs/contract/monitors.md, its endpoints), against the loopback
 * DNS lab: create, validation, ownership, run now, scheduled runs, history, events (JSON and SSE with
 * resume), the webhook (signature, event id, order), the badge, pause and resume on the allowance, delete.
 */
import { createHmac } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labPki } from '../../lab/pki.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../lab/webhook-receiver.js';
import { rr } from '../../lab/dns-server.js';
import { OTHER_KEY, readEvents, startJobsHarness, type JobsHarness } from '../jobs/jobs-harness.js';
import { monitorCalls } from './monitor-calls.js';

let h: JobsHarness;
let hook: WebhookReceiver;
let hookPort: number;
/** mx-lookup's price (quota.costs.default) */
const COST = 3;

beforeAll(async () => {
  const pki = await labPki();
  hook = await startWebhookReceiver();
  hookPort = hook.port;
  h = await startJobsHarness(
    {
      quota: { credits: 100_000 },
      monitors: { minInterval: '1s' },
      targets: { allow: ['127.0.0.0/8'] },
      jobs: { callbackBackoffMs: 50 },
    },
    10,
    { connections: { tlsCa: pki.root.cert } },
  );
});
afterAll(async () => {
  await h?.close();
  await hook?.close();
});

const { json, until, monitorOf, untilRuns } = monitorCalls(() => h);

async function create(body: Record<string, unknown>, key?: string) {
  return json('/api/v1/monitors', { body: { every: '1h', ...body }, ...(key ? { key } : {}) });
}

describe('POST /api/v1/monitors', () => {
  it('creates with 201, Location and the contract fields, runs at once and charges cost × targets × checks', async () => {
    const before = Number((await h.call('/api/v1/mx-lookup?domain=name9.test')).headers.get('ratelimit-remaining'));
    const { response, body } = await create({
      name: 'mail',
      checks: ['mx-lookup'],
      targets: ['name1.test', 'name2.test'],
    });
    expect(response.status).toBe(201);
    const id = body.data.id;
    expect(id).toMatch(/^mon_[A-Za-z0-9_-]{22}$/);
    expect(response.headers.get('location')).toBe(`/api/v1/monitors/${id}`);
    expect(body.data).toMatchObject({
      name: 'mail',
      checks: ['mx-lookup'],
      targets: 2,
      every: '1h',
      paused: false,
      public: false,
      createdAt: expect.any(String),
      nextRunAt: expect.any(String),
      links: {
        self: `/api/v1/monitors/${id}`,
        history: `/api/v1/monitors/${id}/history`,
        events: `/api/v1/monitors/${id}/events`,
      },
    });
    expect(body.data.links.badge).toBeUndefined();
    const monitor = await untilRuns(id, 1);
    expect(monitor.state).toEqual([
      expect.objectContaining({ target: 'name1.test', check: 'mx-lookup', status: 'ok', grade: null }),
      expect.objectContaining({ target: 'name2.test', check: 'mx-lookup', status: 'ok' }),
    ]);
    const after = Number((await h.call('/api/v1/mx-lookup?domain=name9.test')).headers.get('ratelimit-remaining'));
    expect(after).toBe(before - 2 * COST - COST);
    // the history holds the single call's data
    const history = (await json(`/api/v1/monitors/${id}/history?target=name1.test`)).body.data;
    expect(history.runs).toHaveLength(1);
    const single = await (await h.call('/api/v1/mx-lookup?domain=name1.test')).json();
    expect(history.runs[0]).toMatchObject({ target: 'name1.test', check: 'mx-lookup', ok: true, status: 200 });
    expect(history.runs[0].data).toEqual(single.data);
    // the first run is a baseline: no event
    expect((await json(`/api/v1/monitors/${id}/events`)).body.data).toEqual({ events: [], nextCursor: null });
  });

  it('refuses a bad submission with a 400 naming the index, the check and the reason', async () => {
    const bad = await create({ checks: ['mx-lookup'], targets: ['name1.test', 'exa mple..test'] });
    expect(bad.response.status).toBe(400);
    expect(bad.body.error).toMatch(/^targets\[1\] \(mx-lookup\): /);
    const unknown = await create({ checks: ['no-such-tool'], targets: ['name1.test'] });
    expect(unknown.response.status).toBe(400);
    expect(unknown.body.error).toContain('checks[0]');
    const short = await create({ checks: ['mx-lookup'], targets: ['name1.test'], every: '500s', warnDays: 0 });
    expect(short.response.status).toBe(400);
    const http = await create({
      checks: ['mx-lookup'],
      targets: ['name1.test'],
      notify: { webhook: 'http://good.lab.test/' },
    });
    expect(http.response.status).toBe(400);
    expect(http.body.error).toContain('notify.webhook');
    const guarded = await create({
      checks: ['mx-lookup'],
      targets: ['name1.test'],
      notify: { webhook: 'https://10.0.0.1/' },
    });
    expect(guarded.response.status).toBe(400);
    expect(guarded.body.error).toContain('notify.webhook');
  });
});

describe('a monitor belongs to its key', () => {
  it('answers another key 404 everywhere, as for an unknown id', async () => {
    const { body } = await create({ checks: ['mx-lookup'], targets: ['name3.test'] });
    const id = body.data.id;
    for (const [path, method] of [
      [`/api/v1/monitors/${id}`, 'GET'],
      [`/api/v1/monitors/${id}`, 'DELETE'],
      [`/api/v1/monitors/${id}/run`, 'POST'],
      [`/api/v1/monitors/${id}/history`, 'GET'],
      [`/api/v1/monitors/${id}/events`, 'GET'],
    ] as const) {
      const response = await h.call(path, { method, key: OTHER_KEY });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    const patched = await h.call(`/api/v1/monitors/${id}`, { method: 'PATCH', key: OTHER_KEY, body: { name: 'x' } });
    expect(patched.status).toBe(404);
    const listed = (await json('/api/v1/monitors', { key: OTHER_KEY })).body.data.monitors;
    expect(listed.map((m: any) => m.id)).not.toContain(id);
    expect((await json('/api/v1/monitors')).body.data.monitors.map((m: any) => m.id)).toContain(id);
  });
});

describe('changes between runs', () => {
  it('makes exactly one changed event with the paths, sent on SSE, resumed with Last-Event-ID, and POSTed signed to the webhook', async () => {
    h.lab.records.push(rr.mx('change.test', 10, 'mx1.change.test', 0), rr.a('mx1.change.test', '192.0.2.10', 0));
    const { body } = await create({
      checks: ['mx-lookup'],
      targets: ['change.test'],
      notify: { webhook: `https://good.lab.test:${hookPort}/hook` },
    });
    const id = body.data.id;
    const secret = body.data.secret;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    await untilRuns(id, 1);
    // a stream opened now follows what comes next
    const stream = await h.call(`/api/v1/monitors/${id}/events`, { headers: { accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const streamed = readEvents(stream, 1);

    h.lab.records = h.lab.records.filter((r) => r.name !== 'mx1.change.test');
    h.lab.records.push(rr.a('mx1.change.test', '192.0.2.20', 0));
    const run = await json(`/api/v1/monitors/${id}/run`, { method: 'POST' });
    expect(run.response.status).toBe(202);
    await untilRuns(id, 2);
    const events = (await json(`/api/v1/monitors/${id}/events`)).body.data.events;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      id: `${id}.1`,
      monitorId: id,
      target: 'change.test',
      check: 'mx-lookup',
      kind: 'changed',
      severity: expect.any(String),
      summary: expect.stringContaining('changed'),
    });
    expect(events[0].changes.map((c: any) => c.path).sort()).toEqual(
      expect.arrayContaining([expect.stringContaining('mx1.change.test')]),
    );
    const paths = events[0].changes.map((c: any) => c.path);
    expect(paths.every((p: string) => p.includes('addresses'))).toBe(true);

    const [sent] = await streamed;
    expect(sent).toEqual({ event: 'monitor', id: `${id}.1`, data: events[0] });

    // a third run with nothing changed: no event
    await json(`/api/v1/monitors/${id}/run`, { method: 'POST' });
    await untilRuns(id, 3);
    expect((await json(`/api/v1/monitors/${id}/events`)).body.data.events).toHaveLength(1);
    // ?since= : only what is newer
    expect((await json(`/api/v1/monitors/${id}/events?since=${id}.1`)).body.data.events).toEqual([]);
    expect((await json(`/api/v1/monitors/${id}/events?since=${id}.0`)).body.data.events).toEqual(events);

    // resume: Last-Event-ID before the event sends it again
    const resumed = await h.call(`/api/v1/monitors/${id}/events`, {
      headers: { accept: 'text/event-stream', 'last-event-id': `${id}.0` },
    });
    const [again] = await readEvents(resumed, 1);
    expect(again!.id).toBe(`${id}.1`);

    // the webhook: the event as JSON, signed over "<timestamp>.<body>", with its id
    const delivered = await until(
      'the webhook',
      async () => hook.received.filter((r) => r.headers['x-netdiag-event-id'] === `${id}.1`),
      (r) => r.length > 0,
    );
    const { headers, body: sentBody } = delivered[0]!;
    expect(JSON.parse(sentBody)).toEqual(events[0]);
    const timestamp = headers['x-netdiag-timestamp'] as string;
    const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${sentBody}`).digest('hex')}`;
    expect(headers['x-netdiag-signature']).toBe(expected);
    const monitor = await until(
      'the delivery recorded',
      () => monitorOf(id),
      (m) => m.notify.status === 'ok',
    );
    expect(monitor.notify).toEqual({
      webhook: `https://good.lab.test:${hookPort}/hook`,
      status: 'ok',
      lastError: null,
      failedEvents: 0,
    });
  });
});

describe('changes of a page and a header', () => {
  it('make exactly one changed event each, naming the title and the header', async () => {
    let version = 1;
    const site = createHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html', 'x-version': String(version) });
      response.end(`<html><head><title>page ${version}</title></head><body></body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
      const { body } = await create({ checks: ['open-graph-checker', 'http-headers'], targets: [url] });
      const id = body.data.id;
      await untilRuns(id, 1);
      version = 2;
      await json(`/api/v1/monitors/${id}/run`, { method: 'POST' });
      await untilRuns(id, 2);
      const events = (await json(`/api/v1/monitors/${id}/events`)).body.data.events;
      const byCheck = Object.fromEntries(events.map((e: any) => [e.check, e]));
      expect(events).toHaveLength(2);
      expect(byCheck['open-graph-checker']).toMatchObject({ kind: 'changed', target: url });
      expect(byCheck['open-graph-checker'].changes).toEqual([{ path: 'title', before: 'page 1', after: 'page 2' }]);
      expect(byCheck['http-headers'].changes.map((c: any) => c.path)).toEqual([expect.stringContaining('x-version')]);
      expect(byCheck['http-headers'].changes[0]).toMatchObject({ before: '1', after: '2' });
    } finally {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    }
  });
});

describe('scheduled runs', () => {
  it('runs every `every` by itself, and not after DELETE', async () => {
    const { body } = await create({ checks: ['mx-lookup'], targets: ['name4.test'], every: '1s' });
    const id = body.data.id;
    const monitor = await untilRuns(id, 3);
    expect(monitor.nextRunAt > monitor.lastRunAt).toBe(true);
    const deleted = await h.call(`/api/v1/monitors/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await h.call(`/api/v1/monitors/${id}`)).status).toBe(404);
    expect((await h.call(`/badge/${id}/mx-lookup.svg`)).status).toBe(404);
  });

  it('PATCH pauses and resumes; a paused monitor does not run', async () => {
    const { body } = await create({ checks: ['mx-lookup'], targets: ['name5.test'] });
    const id = body.data.id;
    await untilRuns(id, 1);
    const paused = await json(`/api/v1/monitors/${id}`, { method: 'PATCH', body: { paused: true, name: 'quiet' } });
    expect(paused.response.status).toBe(200);
    expect(paused.body.data).toMatchObject({ paused: true, name: 'quiet' });
    await json(`/api/v1/monitors/${id}/run`, { method: 'POST' });
    await new Promise((r) => setTimeout(r, 300));
    expect((await monitorOf(id)).runs).toBe(1);
    await json(`/api/v1/monitors/${id}`, { method: 'PATCH', body: { paused: false } });
    await json(`/api/v1/monitors/${id}/run`, { method: 'POST' });
    await untilRuns(id, 2);
  });
});

describe('GET /badge/{id}/{check}.svg', () => {
  it('draws a public monitor without a key, with an ETag and a 304, never starting a run', async () => {
    const { body } = await create({ checks: ['mx-lookup'], targets: ['name6.test'], public: true });
    const id = body.data.id;
    expect(body.data.links.badge).toBe(`/badge/${id}/mx-lookup.svg`);
    await untilRuns(id, 1);
    const response = await fetch(`${h.base}/badge/${id}/mx-lookup.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('max-age=300');
    const svg = await response.text();
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('mx-lookup');
    expect(svg).toContain('ok');
    const etag = response.headers.get('etag')!;
    const again = await fetch(`${h.base}/badge/${id}/mx-lookup.svg`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await monitorOf(id)).runs).toBe(1);
    expect((await fetch(`${h.base}/badge/${id}/dns-lookup.svg`)).status).toBe(404);
    const hidden = await create({ checks: ['mx-lookup'], targets: ['name7.test'] });
    expect((await fetch(`${h.base}/badge/${hidden.body.data.id}/mx-lookup.svg`)).status).toBe(404);
  });
});
