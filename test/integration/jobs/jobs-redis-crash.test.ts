/**
 * docs/jobs.md "Durability", with `store.redisUrl`: two compiled instances (npm start) share one
 * Redis; the one a job was submitted to is killed (SIGKILL, primary and worker) half-way, and the other
 * takes its items — the running ones again once their locks lapse (`jobs.staleAfterMs`) — so that the
 * job completes with every item exactly once in its results, and each item asked at most twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHard, startService } from '../../helpers/process.js';
import { rr, startDnsLab, type DnsLab } from '../../lab/dns-server.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';

const suite = redisServerPath ? describe : describe.skip;
if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

const KEY = 'redis-crash-key-0123456789';
const N = 240;

let lab: DnsLab;
let redis: RedisLab;

suite('a job on Redis survives the death of an instance', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const records = [];
    for (let i = 0; i < N; i++)
      records.push(rr.mx(`r${i}.test`, 10, `mx.r${i}.test`), rr.a(`mx.r${i}.test`, '192.0.2.9'));
    lab = await startDnsLab({ authoritative: false, records });
    lab.setBehaviour(/^r\d+\.test$/, { delayMs: 150 }, 'MX');
    redis = await startRedisLab();
  });
  afterAll(async () => {
    await lab?.close();
    await redis?.close();
  });

  it('completes on the surviving instance: every item exactly once', async () => {
    const config = {
      server: { host: '127.0.0.1', port: 0 },
      auth: { keys: [KEY] },
      store: { redisUrl: redis.url },
      quota: { credits: 100_000 },
      // a long time-out: on a loaded machine a question resent after part of it would count as a second run
      dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 10_000 },
      jobs: { concurrency: 4, staleAfterMs: 1500 },
    };
    const first = startService(config);
    const second = startService(config);
    try {
      const [base1, base2] = [`http://${await first.listening}`, `http://${await second.listening}`];
      const targets = Array.from({ length: N }, (_, i) => `r${i}.test`);
      const submitted = await fetch(`${base1}/api/v1/jobs`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'mx-lookup', targets }),
      });
      expect(submitted.status).toBe(202);
      const { id } = (await submitted.json()).data;
      const headers = { 'x-api-key': KEY };
      for (;;) {
        const job = (await (await fetch(`${base2}/api/v1/jobs/${id}`, { headers })).json()).data;
        if (job.done >= N / 3) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      killHard(first.child.pid!);
      await first.exited;
      let job: any;
      for (let i = 0; i < 1200; i++) {
        job = (await (await fetch(`${base2}/api/v1/jobs/${id}`, { headers })).json()).data;
        if (job.finishedAt !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(job).toMatchObject({ status: 'done', total: N, done: N, failed: 0 });
      const lines = (await (await fetch(`${base2}/api/v1/jobs/${id}/results`, { headers })).text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => l.index)).toEqual(targets.map((_, i) => i));
      expect(lines.every((l) => l.ok && l.data.hosts[0].exchange === `mx.${l.target}`)).toBe(true);
      const asked = targets.map((t) => lab.countQueries(t, 'MX'));
      expect(asked.filter((n) => n !== 1 && n !== 2)).toEqual([]);
      // the survivor charged nothing for the items it took over
      const probe = await fetch(`${base2}/api/v1/mx-lookup?domain=r0.test`, { headers });
      expect(Number(probe.headers.get('ratelimit-remaining'))).toBe(100_000 - N * 3 - 3);
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) killHard(first.child.pid!);
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
