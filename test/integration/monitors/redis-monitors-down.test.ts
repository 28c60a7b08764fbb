/**
 * docs/monitors.md "Durability", with `store.redisUrl`: an instance started (as npm start runs it) while
 * Redis is down starts all the same; the monitors' endpoints answer 503 with a message, the log says so
 * without a line per reconnect attempt, and once Redis is back monitors run and their events reach the
 * instance's streams. SIGTERM stops it cleanly, Redis down or not.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startService } from '../../helpers/process.js';
import { rr, startDnsLab, type DnsLab } from '../../lab/dns-server.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';
import { readEvents } from '../jobs/jobs-harness.js';

const suite = redisServerPath ? describe : describe.skip;
if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

const KEY = 'down-key-0123456789';
let lab: DnsLab;
let redis: RedisLab;

const setAddress = (address: string) => {
  lab.records = lab.records.filter((r) => r.name !== 'mx.down.test');
  lab.records.push(rr.a('mx.down.test', address, 0));
};

suite('monitors on an instance started while Redis is down', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    lab = await startDnsLab({ authoritative: false, records: [rr.mx('down.test', 10, 'mx.down.test', 0)] });
    setAddress('192.0.2.70');
    redis = await startRedisLab();
    // its port stays reserved for start()
    await redis.stop();
  });
  afterAll(async () => {
    await lab?.close();
    await redis?.close();
  });

  it('answers 503 with a message, then runs monitors and streams their events once Redis is back', async () => {
    const service = startService({
      server: { host: '127.0.0.1', port: 0, workers: 1 },
      auth: { keys: [KEY] },
      store: { redisUrl: redis.url },
      quota: { credits: 10_000 },
      monitors: { minInterval: '1s' },
      dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 2000 },
    });
    try {
      const base = `http://${await service.listening}`;
      const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
      const call = (path: string, init: RequestInit = {}) =>
        fetch(`${base}${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
      const down = await call('/api/v1/monitors');
      expect(down.status).toBe(503);
      expect((await down.json()).error).toMatch(/monitors store unavailable: the shared store is unreachable/);
      await vi.waitUntil(() => service.output().includes('"event":"job_worker_ready"'), { timeout: 60_000 });
      // a while of reconnect attempts: BullMQ's are not logged one by one
      await new Promise((r) => setTimeout(r, 1_000));
      expect(service.output()).not.toContain('monitor_schedule_error');

      await redis.start();
      const created = await vi.waitUntil(
        async () => {
          const response = await call('/api/v1/monitors', {
            method: 'POST',
            body: JSON.stringify({ checks: ['mx-lookup'], targets: ['down.test'], every: '1h' }),
          });
          return response.status === 201 ? response.json() : false;
        },
        { timeout: 30_000, interval: 200 },
      );
      const id = created.data.id;
      const settled = async () => {
        const m = (await (await call(`/api/v1/monitors/${id}`)).json()).data;
        return m.runs >= 1 && m.state[0].lastRunAt !== null && m.state[0].lastRunAt >= m.lastRunAt;
      };
      await vi.waitUntil(settled, { timeout: 30_000, interval: 100 });
      const stream = await call(`/api/v1/monitors/${id}/events`, { headers: { accept: 'text/event-stream' } });
      const streamed = readEvents(stream, 1);
      await new Promise((r) => setTimeout(r, 200));
      setAddress('192.0.2.71');
      expect((await call(`/api/v1/monitors/${id}/run`, { method: 'POST' })).status).toBe(202);
      const [event] = await streamed;
      expect(event).toMatchObject({ id: `${id}.1`, data: { kind: 'changed', target: 'down.test' } });
      // the events came over the bus, subscribed once Redis was back
      expect(service.output()).not.toContain('"event":"monitor_bus_subscribe_failed"');
    } finally {
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    }
  });
});
