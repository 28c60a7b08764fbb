/**
 * docs/monitors.md "Durability", with `store.redisUrl`: the compiled service (npm start) on the Debian
 * redis-server resumes a monitor run after its job worker was killed with SIGKILL half-way (the scenario:
 * ./kill-mid-run.ts). The run's BullMQ job is handed to the new job worker once its lock ran out
 * (`jobs.staleAfterMs`, short here), with the same due time, so the store resumes that run.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startService } from '../../helpers/process.js';
import type { DnsLab } from '../../lab/dns-server.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';
import { durabilityConfig, killMidRunAndResume, startDurabilityLab } from './kill-mid-run.js';

const suite = redisServerPath ? describe : describe.skip;
if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

let lab: DnsLab;
let redis: RedisLab;
beforeAll(async () => {
  lab = await startDurabilityLab();
  if (redisServerPath) redis = await startRedisLab();
});
afterAll(async () => {
  await lab.close();
  await redis?.close();
});

suite('a monitor run on Redis survives a crash of the job worker', { timeout: 120_000 }, () => {
  it('resumes after SIGKILL: each outcome and event once, charged once', async () => {
    await killMidRunAndResume(
      lab,
      startService(durabilityConfig(lab, { store: { redisUrl: redis.url }, jobs: { staleAfterMs: 1_000 } })),
    );
  });
});
