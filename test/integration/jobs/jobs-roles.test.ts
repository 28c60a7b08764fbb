/**
 * docs/jobs.md "Where items run", with `store.redisUrl`: `server.role` splits an instance as BullMQ
 * deployments do. An `api` instance answers the job endpoints and starts no job worker; a `jobs` instance
 * opens no API port and runs the items; a job submitted to the first is run by the second.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../helpers/process.js';
import { rr, startDnsLab, type DnsLab } from '../../lab/dns-server.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';

const suite = redisServerPath ? describe : describe.skip;
if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

const KEY = 'roles-key-0123456789';
let lab: DnsLab;
let redis: RedisLab;

suite('instance roles on Redis', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    const records = [];
    for (let i = 0; i < 20; i++)
      records.push(rr.mx(`role${i}.test`, 10, `mx.role${i}.test`), rr.a(`mx.role${i}.test`, '192.0.2.3'));
    lab = await startDnsLab({ authoritative: false, records });
    redis = await startRedisLab();
  });
  afterAll(async () => {
    await lab?.close();
    await redis?.close();
  });

  it('runs a job submitted to an api instance on a jobs instance', async () => {
    const config = (role: string) => ({
      server: { host: '127.0.0.1', port: 0, role },
      auth: { keys: [KEY] },
      store: { redisUrl: redis.url },
      quota: { credits: 10_000 },
      dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 2000 },
    });
    const api = startService(config('api'));
    const jobs = startService(config('jobs'));
    try {
      const base = `http://${await api.listening}`;
      for (let i = 0; i < 200 && !jobs.output().includes('"event":"job_worker_ready"'); i++)
        await new Promise((r) => setTimeout(r, 50));
      const targets = Array.from({ length: 20 }, (_, i) => `role${i}.test`);
      const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
      const submitted = await fetch(`${base}/api/v1/jobs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ tool: 'mx-lookup', targets }),
      });
      expect(submitted.status).toBe(202);
      const { id } = (await submitted.json()).data;
      let job: any;
      for (let i = 0; i < 400; i++) {
        job = (await (await fetch(`${base}/api/v1/jobs/${id}`, { headers })).json()).data;
        if (job.finishedAt !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(job).toMatchObject({ status: 'done', done: 20, failed: 0 });
      // the api instance forked no job worker; the jobs instance opened no API port
      expect(api.output()).not.toContain('"event":"job_worker_ready"');
      expect(jobs.output()).toContain('"event":"job_worker_ready"');
      expect(jobs.output()).not.toContain('"event":"listening"');
    } finally {
      api.child.kill('SIGTERM');
      jobs.child.kill('SIGTERM');
      expect(await api.exited).toBe(0);
      expect(await jobs.exited).toBe(0);
    }
  });
});
