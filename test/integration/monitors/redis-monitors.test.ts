/**
 * Monitors with `store.redisUrl` (docs/monitors.md "Where monitors run", "Durability"): three instances on
 * one Redis (the Debian redis-server, test/lab/redis.ts), each an in-process service on a real loopback
 * socket with its own DNS lab holding the same records. A and C run monitors (their role includes jobs);
 * B only answers (as an instance of role `api`: it writes schedules and reads the store). What one does,
 * the others read: create, ownership, run now, scheduled runs that two runners never run twice for one due
 * time, history, events over JSON, SSE and the GraphQL subscription on B for runs done elsewhere, the
 * webhook signed, in order and each event once across the runners, the badge, delete; and Redis down is a
 * 503 that says so.
 */
import { createHmac } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rr } from '../../lab/dns-server.js';
import { labPki } from '../../lab/pki.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../lab/webhook-receiver.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';
import { OTHER_KEY, readEvents, startJobsHarness, type JobsHarness } from '../jobs/jobs-harness.js';

const suite = redisServerPath ? describe : describe.skip;
if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

/** mx-lookup's price (quota.costs.default) */
const COST = 3;

let redis: RedisLab;
let hook: WebhookReceiver;
let hookPort: number;
/** runners */
let a: JobsHarness;
let c: JobsHarness;
/** answers only */
let b: JobsHarness;
const all = () => [a, b, c];

async function json(h: JobsHarness, path: string, init: Parameters<JobsHarness['call']>[1] = {}) {
  const response = await h.call(path, init);
  return { response, body: response.status === 204 ? null : await response.json() };
}

/** the value `read` gives once `done` holds (vitest's wait: it fails the test when it never does) */
const until = <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> =>
  vi
    .waitUntil(
      async () => {
        const value = await read();
        return done(value) ? { value } : false;
      },
      { timeout: 20_000, interval: 25 },
    )
    .then((held) => held.value);

const monitorOf = async (h: JobsHarness, id: string) => (await json(h, `/api/v1/monitors/${id}`)).body.data;
/** every pair has run in the last run (its lastRunAt at or after the monitor's) */
const isSettled = (m: any) => m.state.every((s: any) => s.lastRunAt !== null && s.lastRunAt >= m.lastRunAt);
/** read on B, which runs nothing: the runs are A's and C's */
const untilRuns = (id: string, runs: number) =>
  until(
    () => monitorOf(b, id),
    (m) => m.runs >= runs && isSettled(m),
  );

/** the same change in every instance's lab (TTL 0: nothing cached) */
function setAddress(host: string, address: string) {
  for (const h of all()) {
    h.lab.records = h.lab.records.filter((r) => r.name !== host);
    h.lab.records.push(rr.a(host, address, 0));
  }
}

suite('monitors on Redis, three instances', () => {
  beforeAll(async () => {
    redis = await startRedisLab();
    const pki = await labPki();
    hook = await startWebhookReceiver();
    hookPort = hook.port;
    const config = {
      store: { redisUrl: redis.url },
      quota: { credits: 100_000 },
      monitors: { minInterval: '1s' },
      targets: { allow: ['127.0.0.0/8'] },
      jobs: { callbackBackoffMs: 50 },
    };
    const overrides = { connections: { tlsCa: pki.root.cert } };
    [a, b, c] = await Promise.all([
      startJobsHarness(config, 10, overrides),
      startJobsHarness(config, 10, overrides, { jobs: { kind: 'elsewhere' }, monitors: { kind: 'elsewhere' } }),
      startJobsHarness(config, 10, overrides),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), c?.close()]);
    await redis?.close();
    await hook?.close();
  });

  it('creates on one instance and reads, lists and runs it from the others, charged once; another key gets 404', async () => {
    const before = Number((await b.call('/api/v1/mx-lookup?domain=name9.test')).headers.get('ratelimit-remaining'));
    const created = await json(b, '/api/v1/monitors', {
      body: { name: 'mail', checks: ['mx-lookup'], targets: ['name1.test', 'name2.test'], every: '1h' },
    });
    expect(created.response.status).toBe(201);
    const id = created.body.data.id;
    const monitor = await untilRuns(id, 1);
    expect(monitor.state).toEqual([
      expect.objectContaining({ target: 'name1.test', check: 'mx-lookup', status: 'ok' }),
      expect.objectContaining({ target: 'name2.test', check: 'mx-lookup', status: 'ok' }),
    ]);
    // B runs nothing: the run was A's or C's
    expect(b.lab.countQuestions('name1.test', 'MX')).toBe(0);
    expect(a.lab.countQuestions('name1.test', 'MX') + c.lab.countQuestions('name1.test', 'MX')).toBe(1);
    expect((await monitorOf(a, id)).runs).toBe(1);
    expect((await json(c, '/api/v1/monitors')).body.data.monitors.map((m: any) => m.id)).toContain(id);
    const history = (await json(a, `/api/v1/monitors/${id}/history?target=name2.test`)).body.data.runs;
    expect(history).toEqual([expect.objectContaining({ target: 'name2.test', check: 'mx-lookup', ok: true })]);
    // the one run charged once, on the ledger the instances share
    const after = Number((await a.call('/api/v1/mx-lookup?domain=name9.test')).headers.get('ratelimit-remaining'));
    expect(after).toBe(before - 2 * COST - COST);

    for (const [h, method, path] of [
      [a, 'GET', `/api/v1/monitors/${id}`],
      [c, 'GET', `/api/v1/monitors/${id}/history`],
      [b, 'GET', `/api/v1/monitors/${id}/events`],
      [c, 'POST', `/api/v1/monitors/${id}/run`],
      [a, 'DELETE', `/api/v1/monitors/${id}`],
    ] as const)
      expect((await h.call(path, { method, key: OTHER_KEY })).status, `${method} ${path}`).toBe(404);
    expect((await json(a, '/api/v1/monitors', { key: OTHER_KEY })).body.data.monitors).toEqual([]);

    // run now, asked of an instance that runs nothing
    expect((await b.call(`/api/v1/monitors/${id}/run`, { method: 'POST' })).status).toBe(202);
    await untilRuns(id, 2);
    expect((await json(c, `/api/v1/monitors/${id}/history`)).body.data.runs).toHaveLength(4);
    expect((await c.call(`/api/v1/monitors/${id}`, { method: 'DELETE' })).status).toBe(204);
    for (const h of all()) expect((await h.call(`/api/v1/monitors/${id}`)).status).toBe(404);
  });

  it('makes one changed event per change, streamed on B (SSE and GraphQL) and POSTed signed, in order, once each', async () => {
    for (const h of all()) h.lab.records.push(rr.mx('change.test', 10, 'mx1.change.test', 0));
    setAddress('mx1.change.test', '192.0.2.10');
    const { body } = await json(b, '/api/v1/monitors', {
      body: {
        checks: ['mx-lookup'],
        targets: ['change.test'],
        every: '1h',
        notify: { webhook: `https://good.lab.test:${hookPort}/hook` },
      },
    });
    const id = body.data.id;
    const secret = body.data.secret;
    await untilRuns(id, 1);
    const stream = await b.call(`/api/v1/monitors/${id}/events`, { headers: { accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const streamed = readEvents(stream, 3);
    const subscription = await b.call('/graphql', {
      headers: { accept: 'text/event-stream' },
      body: { query: 'subscription($id: ID!) { monitorEvents(id: $id) { id kind check } }', variables: { id } },
    });
    expect(subscription.status).toBe(200);
    const subscribed = readEvents(subscription, 3);
    // the streams have read where they start
    await new Promise((r) => setTimeout(r, 200));

    // three changes, each asked of another instance; then a run without a change
    for (const [i, h] of [a, b, c].entries()) {
      setAddress('mx1.change.test', `192.0.2.${20 + i}`);
      expect((await h.call(`/api/v1/monitors/${id}/run`, { method: 'POST' })).status).toBe(202);
      await untilRuns(id, i + 2);
    }
    await json(a, `/api/v1/monitors/${id}/run`, { method: 'POST' });
    await untilRuns(id, 5);
    const events = (await json(c, `/api/v1/monitors/${id}/events`)).body.data.events.reverse();
    expect(events.map((e: any) => [e.id, e.kind])).toEqual([
      [`${id}.1`, 'changed'],
      [`${id}.2`, 'changed'],
      [`${id}.3`, 'changed'],
    ]);
    for (const [i, event] of events.entries())
      expect(event.changes).toEqual([
        {
          path: 'hosts[mx1.change.test].addresses',
          before: [`192.0.2.${i === 0 ? 10 : 19 + i}`],
          after: [`192.0.2.${20 + i}`],
        },
      ]);

    expect(await streamed).toEqual(events.map((e: any) => ({ event: 'monitor', id: e.id, data: e })));
    expect((await subscribed).map((e) => e.data.data.monitorEvents)).toEqual(
      events.map((e: any) => ({ id: e.id, kind: 'changed', check: 'mx-lookup' })),
    );
    // resumed on another instance with Last-Event-ID
    const resumed = await a.call(`/api/v1/monitors/${id}/events`, {
      headers: { accept: 'text/event-stream', 'last-event-id': `${id}.1` },
    });
    expect((await readEvents(resumed, 2)).map((e) => e.id)).toEqual([`${id}.2`, `${id}.3`]);

    // the webhook: each event once, in order, signed over "<timestamp>.<body>"
    await until(
      () => monitorOf(b, id),
      (m) => m.notify.status === 'ok',
    );
    await until(
      async () => hook.received.filter((r) => String(r.headers['x-netdiag-event-id']).startsWith(`${id}.`)),
      (r) => r.length >= 3,
    );
    // a second deliverer, had there been one, would have sent by now
    await new Promise((r) => setTimeout(r, 500));
    const mine = hook.received.filter((r) => String(r.headers['x-netdiag-event-id']).startsWith(`${id}.`));
    expect(mine.map((r) => r.headers['x-netdiag-event-id'])).toEqual([`${id}.1`, `${id}.2`, `${id}.3`]);
    for (const [i, { headers, body: sent }] of mine.entries()) {
      expect(JSON.parse(sent)).toEqual(events[i]);
      const timestamp = headers['x-netdiag-timestamp'] as string;
      expect(headers['x-netdiag-signature']).toBe(
        `sha256=${createHmac('sha256', secret).update(`${timestamp}.${sent}`).digest('hex')}`,
      );
    }
    expect((await monitorOf(a, id)).notify).toMatchObject({ status: 'ok', failedEvents: 0 });
    await b.call(`/api/v1/monitors/${id}`, { method: 'DELETE' });
  });

  it("delivers, in order, what a deliverer that died holding the monitor's lease left, once the lease lapsed", async () => {
    for (const h of all()) h.lab.records.push(rr.mx('lease.test', 10, 'mx.lease.test', 0));
    setAddress('mx.lease.test', '192.0.2.60');
    const { body } = await json(b, '/api/v1/monitors', {
      body: {
        checks: ['mx-lookup'],
        targets: ['lease.test'],
        every: '1h',
        notify: { webhook: `https://good.lab.test:${hookPort}/hook` },
      },
    });
    const id = body.data.id;
    await untilRuns(id, 1);
    const mine = () => hook.received.filter((r) => String(r.headers['x-netdiag-event-id']).startsWith(`${id}.`));
    // as an instance that took the monitor's deliveries and died: its lease, not renewed
    const raw = new Redis(redis.url);
    try {
      await raw.set(`netdiag:monitors:deliverer:${id}`, 'a-dead-process', 'PX', 1_500);
      setAddress('mx.lease.test', '192.0.2.61');
      await b.call(`/api/v1/monitors/${id}/run`, { method: 'POST' });
      await untilRuns(id, 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(mine()).toEqual([]);
      await until(
        () => raw.exists(`netdiag:monitors:deliverer:${id}`),
        (exists) => exists === 0,
      );
    } finally {
      raw.disconnect();
    }
    // the next event wakes a deliverer, which sends what was left first
    setAddress('mx.lease.test', '192.0.2.62');
    await b.call(`/api/v1/monitors/${id}/run`, { method: 'POST' });
    await until(
      async () => mine(),
      (r) => r.length >= 2,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(mine().map((r) => r.headers['x-netdiag-event-id'])).toEqual([`${id}.1`, `${id}.2`]);
    await b.call(`/api/v1/monitors/${id}`, { method: 'DELETE' });
  });

  it('runs every `every` on the runners, never one due time twice; paused, it does not run; deleted, it is gone', async () => {
    for (const h of all()) {
      h.lab.records.push(rr.mx('tick.test', 10, 'mx.tick.test', 0), rr.a('mx.tick.test', '192.0.2.40', 0));
      h.lab.clearQueries();
    }
    const { body } = await json(b, '/api/v1/monitors', {
      body: { checks: ['mx-lookup'], targets: ['tick.test'], every: '1s', public: true },
    });
    const id = body.data.id;
    await untilRuns(id, 5);
    const paused = await json(c, `/api/v1/monitors/${id}`, { method: 'PATCH', body: { paused: true } });
    expect(paused.body.data.paused).toBe(true);
    // a run handed out before the pause ends; none starts after
    await new Promise((r) => setTimeout(r, 1_500));
    const { runs } = await monitorOf(b, id);
    const asked = () => a.lab.countQuestions('tick.test', 'MX') + c.lab.countQuestions('tick.test', 'MX');
    // one question per run: a due time run twice (by both runners) would ask twice
    expect(asked()).toBe(runs);
    expect(b.lab.countQuestions('tick.test', 'MX')).toBe(0);
    const history = (await json(a, `/api/v1/monitors/${id}/history?limit=100`)).body.data.runs;
    expect(history).toHaveLength(runs);
    expect(new Set(history.map((r: any) => r.at)).size).toBe(runs);
    await new Promise((r) => setTimeout(r, 1_200));
    expect((await monitorOf(b, id)).runs).toBe(runs);
    expect(asked()).toBe(runs);

    // the badge, drawn by an instance that runs nothing, without a key, and never starting a run
    const badge = await fetch(`${b.base}/badge/${id}/mx-lookup.svg`);
    expect(badge.status).toBe(200);
    expect(badge.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await badge.text()).toContain('mx-lookup');
    const etag = badge.headers.get('etag')!;
    expect((await fetch(`${c.base}/badge/${id}/mx-lookup.svg`, { headers: { 'if-none-match': etag } })).status).toBe(
      304,
    );
    expect(asked()).toBe(runs);

    expect((await b.call(`/api/v1/monitors/${id}`, { method: 'DELETE' })).status).toBe(204);
    for (const h of all()) expect((await h.call(`/api/v1/monitors/${id}`)).status).toBe(404);
    expect((await fetch(`${a.base}/badge/${id}/mx-lookup.svg`)).status).toBe(404);
  });

  it('answers 503 with a message while Redis is down, and works again when it is back', async () => {
    await redis.stop();
    try {
      for (const h of all()) {
        const { response, body } = await json(h, '/api/v1/monitors');
        expect(response.status).toBe(503);
        expect(body.error).toMatch(/monitor store is unavailable|shared store/);
      }
    } finally {
      await redis.start();
    }
    // the test's Redis keeps nothing: an empty list, from every instance, once reconnected
    for (const h of all())
      await until(
        () => h.call('/api/v1/monitors').then((r) => r.status),
        (status) => status === 200,
      );
  });
});
