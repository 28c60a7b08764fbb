/**
 * docs/jobs.md "Durability": the compiled service (npm start) runs a job of mx-lookup items against
 * the DNS lab, is killed with SIGKILL (primary and worker) half-way, and is started again on the same
 * data directory: the job completes with every item exactly once in its results, in target order, items
 * that were running run at most once more, and nothing is charged for the resumed items.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHard, startService } from '../../helpers/process.js';
import { rr, startDnsLab, type DnsLab } from '../../lab/dns-server.js';

const KEY = 'durable-key-0123456789';
const N = 400;
const CREDITS = 100_000;
const COST = 3;
const CONCURRENCY = 8;

let lab: DnsLab;
beforeAll(async () => {
  const records = [];
  for (let i = 0; i < N; i++)
    records.push(rr.mx(`d${i}.test`, 10, `mx.d${i}.test`), rr.a(`mx.d${i}.test`, '192.0.2.7'));
  lab = await startDnsLab({ authoritative: false, records });
  // about 40 items a second with 8 slots: the job takes several seconds, so the kill lands mid-way
  lab.setBehaviour(/^d\d+\.test$/, { delayMs: 150 }, 'MX');
});
afterAll(async () => {
  await lab.close();
});

describe('a job survives a crash', { timeout: 120_000 }, () => {
  it('resumes after SIGKILL at about half: every item exactly once, charged once', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'nd-jobs-')), 'data');
    const config = {
      server: { host: '127.0.0.1', port: 0 },
      auth: { keys: [KEY] },
      quota: { credits: CREDITS },
      // a long time-out: on a loaded machine a question resent after part of it would count as a second run
      dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 10_000 },
      jobs: { concurrency: CONCURRENCY },
    };
    const env = { NETDIAG_DATA_DIR: dataDir };
    const first = startService(config, { env });
    let second: ReturnType<typeof startService> | undefined;
    try {
      const base1 = `http://${await first.listening}`;
      const targets = Array.from({ length: N }, (_, i) => `d${i}.test`);
      const submitted = await fetch(`${base1}/api/v1/jobs`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'mx-lookup', targets }),
      });
      expect(submitted.status).toBe(202);
      expect(Number(submitted.headers.get('ratelimit-remaining'))).toBe(CREDITS - N * COST);
      const { id } = (await submitted.json()).data;
      let doneAtKill = 0;
      for (;;) {
        const job = (await (await fetch(`${base1}/api/v1/jobs/${id}`, { headers: { 'x-api-key': KEY } })).json()).data;
        if (job.done >= N / 2) {
          doneAtKill = job.done;
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      killHard(first.child.pid!);
      await first.exited;
      expect(doneAtKill).toBeLessThan(N);

      second = startService(config, { env });
      const base2 = `http://${await second.listening}`;
      let job: any;
      for (let i = 0; i < 1200; i++) {
        job = (await (await fetch(`${base2}/api/v1/jobs/${id}`, { headers: { 'x-api-key': KEY } })).json()).data;
        if (job.finishedAt !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(job).toMatchObject({ status: 'done', total: N, done: N, failed: 0, cancelled: 0 });

      const lines = (
        await (await fetch(`${base2}/api/v1/jobs/${id}/results`, { headers: { 'x-api-key': KEY } })).text()
      )
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => l.index)).toEqual(targets.map((_, i) => i));
      expect(lines.map((l) => l.target)).toEqual(targets);
      expect(lines.every((l) => l.ok && l.data.hosts[0].exchange === `mx.${l.target}`)).toBe(true);

      // at most once more: an item asked its MX question once, or twice if it was running at the kill
      const asked = targets.map((t) => lab.countQueries(t, 'MX'));
      expect(asked.filter((n) => n !== 1 && n !== 2)).toEqual([]);
      expect(asked.filter((n) => n === 2).length).toBeLessThanOrEqual(CONCURRENCY + 256);

      // The credit ledger outlived the kill (its journal in the data directory), and the resumed items ran
      // prepaid: the charge is exactly cost × targets, and the probe call below adds its own.
      const probe = await fetch(`${base2}/api/v1/mx-lookup?domain=d0.test`, { headers: { 'x-api-key': KEY } });
      expect(Number(probe.headers.get('ratelimit-remaining'))).toBe(CREDITS - N * COST - COST);
    } finally {
      if (first.child.exitCode === null && first.child.signalCode === null) killHard(first.child.pid!);
      if (second) {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    }
  });
});
