/**
 * Threat: passing `jobs.maxActivePerKey` by submitting at once (issue 31: 12 concurrent submissions of
 * one key gave 4 × 202 with a limit of 3). The limit is checked in the store's own atomic step, so
 * submissions spread over the worker processes of one instance (embedded store), or over two instances
 * on one Redis, give exactly the limit's number of 202s.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../helpers/process.js';
import { rr, startDnsLab, type DnsLab } from '../lab/dns-server.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../lab/redis.js';
import { startJobsHarness, type JobsHarness } from '../integration/jobs/jobs-harness.js';

const KEY = 'limit-key-0123456789';
const LIMIT = 3;
const SUBMISSIONS = 12;
/** slow enough that no job ends while the submissions arrive */
const JOB = { tool: 'mx-lookup', targets: Array.from({ length: 4 }, (_, i) => `slow${i}.test`) };

/** One POST on a connection of its own (closed after it), so that submissions land on different workers. */
function post(base: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      new URL('/api/v1/jobs', base),
      {
        method: 'POST',
        agent: false,
        headers: { 'x-api-key': key, 'content-type': 'application/json', connection: 'close' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    r.on('error', reject);
    r.end(JSON.stringify(JOB));
  });
}

describe('the active-job limit under concurrent submissions', { timeout: 90_000 }, () => {
  let lab: DnsLab;
  beforeAll(async () => {
    const records = [];
    for (let i = 0; i < 4; i++)
      records.push(rr.mx(`slow${i}.test`, 10, `mx.slow${i}.test`), rr.a(`mx.slow${i}.test`, '192.0.2.1'));
    lab = await startDnsLab({ authoritative: false, records });
    lab.setBehaviour(/slow/, { delayMs: 3_000 });
  });
  afterAll(async () => {
    await lab?.close();
  });

  it('holds across the worker processes of one instance (embedded store)', async () => {
    // other keys' jobs in the store: a check that read them (as before the fix) widened the race
    const others = Array.from({ length: 10 }, (_, i) => `other-key-${i}-0123456789`);
    const s = startService({
      server: { host: '127.0.0.1', port: 0, workers: 2 },
      auth: { keys: [KEY, ...others] },
      quota: { credits: 100_000 },
      dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 5_000 },
      jobs: { maxActivePerKey: LIMIT },
    });
    try {
      const base = `http://${await s.listening}`;
      for (const other of others) await Promise.all([post(base, other), post(base, other), post(base, other)]);
      const statuses = await Promise.all(Array.from({ length: SUBMISSIONS }, () => post(base, KEY)));
      expect(statuses.filter((status) => status === 202)).toHaveLength(LIMIT);
      expect(statuses.filter((status) => status === 429)).toHaveLength(SUBMISSIONS - LIMIT);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });

  const redisSuite = redisServerPath ? it : it.skip;
  if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);
  redisSuite('holds across two instances on one Redis', async () => {
    const redis: RedisLab = await startRedisLab();
    const config = { store: { redisUrl: redis.url }, quota: { credits: 100_000 }, jobs: { maxActivePerKey: LIMIT } };
    let a: JobsHarness | undefined;
    let b: JobsHarness | undefined;
    try {
      a = await startJobsHarness(config, 4);
      b = await startJobsHarness(config, 4);
      a.lab.setBehaviour(/slow/, { delayMs: 3_000 });
      b.lab.setBehaviour(/slow/, { delayMs: 3_000 });
      const bases = [a.base, b.base];
      const statuses = await Promise.all(
        Array.from({ length: SUBMISSIONS }, (_, i) => post(bases[i % 2]!, 'test-key-0123456789')),
      );
      expect(statuses.filter((status) => status === 202)).toHaveLength(LIMIT);
      expect(statuses.filter((status) => status === 429)).toHaveLength(SUBMISSIONS - LIMIT);
    } finally {
      await a?.close();
      await b?.close();
      await redis.close();
    }
  });
});
