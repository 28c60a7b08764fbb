/**
 * docs/monitors.md "Durability": the compiled service (npm start) resumes a monitor run after its job
 * worker was killed with SIGKILL half-way (the scenario: ./kill-mid-run.ts).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startService } from '../../helpers/process.js';
import type { DnsLab } from '../../lab/dns-server.js';
import { durabilityConfig, killMidRunAndResume, startDurabilityLab } from './kill-mid-run.js';

let lab: DnsLab;
beforeAll(async () => {
  lab = await startDurabilityLab();
});
afterAll(async () => {
  await lab.close();
});

describe('a monitor run survives a crash of the job worker', { timeout: 120_000 }, () => {
  it('resumes after SIGKILL: each outcome and event once, charged once', async () => {
    await killMidRunAndResume(lab, startService(durabilityConfig(lab)));
  });
});
