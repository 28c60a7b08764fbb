/**
 * docs/monitors.md "Where monitors run", with `store.redisUrl`, as `npm start` runs it: an instance of role
 * `api` (API workers only) and one of role `jobs` (its job worker only) on one Redis. A monitor created on
 * the first is run by the second's job worker; its event reaches the first's SSE stream over Redis and is
 * POSTed once to the webhook. The lab's certificates are trusted through NODE_EXTRA_CA_CERTS, as an
 * operator would add a private CA.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startService } from '../../helpers/process.js';
import { rr, startDnsLab, type DnsLab } from '../../lab/dns-server.js';
import { labPki } from '../../lab/pki.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../lab/webhook-receiver.js';
import { readEvents } from '../jobs/jobs-harness.js';

const suite = redisServerPath ? describe : describe.skip;
if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

const KEY = 'roles-key-0123456789';
let lab: DnsLab;
let redis: RedisLab;
let hook: WebhookReceiver;
let caFile: string;

const setAddress = (address: string) => {
  lab.records = lab.records.filter((r) => r.name !== 'mx.watched.test');
  lab.records.push(rr.a('mx.watched.test', address, 0));
};

suite('monitors on instances of role api and jobs', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    lab = await startDnsLab({
      authoritative: false,
      records: [rr.a('good.lab.test', '127.0.0.1'), rr.mx('watched.test', 10, 'mx.watched.test', 0)],
    });
    setAddress('192.0.2.50');
    redis = await startRedisLab();
    hook = await startWebhookReceiver();
    caFile = join(mkdtempSync(join(tmpdir(), 'nd-ca-')), 'root.pem');
    writeFileSync(caFile, (await labPki()).root.cert);
  });
  afterAll(async () => {
    await hook?.close();
    await lab?.close();
    await redis?.close();
  });

  it('runs on the jobs instance what the api instance schedules; its events reach the api instance and the webhook once', async () => {
    const config = (role: string) => ({
      server: { host: '127.0.0.1', port: 0, role, workers: 1 },
      auth: { keys: [KEY] },
      store: { redisUrl: redis.url },
      quota: { credits: 10_000 },
      monitors: { minInterval: '1s' },
      targets: { allow: ['127.0.0.0/8'] },
      jobs: { callbackBackoffMs: 50 },
      dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 2000 },
    });
    const env = { NODE_EXTRA_CA_CERTS: caFile };
    const api = startService(config('api'), { env });
    const jobs = startService(config('jobs'), { env });
    try {
      const base = `http://${await api.listening}`;
      await vi.waitUntil(() => jobs.output().includes('"event":"job_worker_ready"'), { timeout: 60_000, interval: 50 });
      const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
      const call = (path: string, init: RequestInit = {}) =>
        fetch(`${base}${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
      const created = await call('/api/v1/monitors', {
        method: 'POST',
        body: JSON.stringify({
          checks: ['mx-lookup'],
          targets: ['watched.test'],
          every: '1h',
          notify: { webhook: `https://good.lab.test:${hook.port}/hook` },
        }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()).data;
      const runs = async () => {
        const m = (await (await call(`/api/v1/monitors/${id}`)).json()).data;
        return m.state[0].lastRunAt !== null && m.state[0].lastRunAt >= m.lastRunAt ? m.runs : 0;
      };
      await vi.waitUntil(async () => (await runs()) >= 1, { timeout: 30_000, interval: 50 });

      const stream = await call(`/api/v1/monitors/${id}/events`, { headers: { accept: 'text/event-stream' } });
      expect(stream.status).toBe(200);
      const streamed = readEvents(stream, 1);
      await new Promise((r) => setTimeout(r, 200));
      setAddress('192.0.2.51');
      expect((await call(`/api/v1/monitors/${id}/run`, { method: 'POST' })).status).toBe(202);
      const [event] = await streamed;
      expect(event).toMatchObject({
        event: 'monitor',
        id: `${id}.1`,
        data: { kind: 'changed', target: 'watched.test' },
      });
      const mine = () => hook.received.filter((r) => String(r.headers['x-netdiag-event-id']).startsWith(`${id}.`));
      await vi.waitUntil(() => mine().length >= 1, { timeout: 30_000, interval: 50 });
      await new Promise((r) => setTimeout(r, 500));
      expect(mine().map((r) => r.headers['x-netdiag-event-id'])).toEqual([`${id}.1`]);
      expect(JSON.parse(mine()[0]!.body)).toEqual(event!.data);

      // the api instance forked no job worker: the runs were the jobs instance's
      expect(api.output()).not.toContain('"event":"job_worker_ready"');
      expect(api.output()).not.toContain('monitors_unavailable');
      expect(jobs.output()).not.toContain('monitors_unavailable');
    } finally {
      api.child.kill('SIGTERM');
      jobs.child.kill('SIGTERM');
      const codes = [await api.exited, await jobs.exited];
      if (codes.some((c) => c !== 0))
        console.log(codes, api.output().slice(-3000), api.errors(), jobs.output().slice(-3000), jobs.errors());
      expect(await api.exited).toBe(0);
      expect(await jobs.exited).toBe(0);
    }
  });
});
