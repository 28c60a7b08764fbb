/**
 * Jobs (issue 27; docs/jobs.md), in process on a loopback socket against the loopback DNS lab:
 * - throughput of a job of JOB_ITEMS mx-lookup items (`jobs.concurrency` 8) against the same number of
 *   single calls made by 8 keep-alive clients, same targets in the same order, DNS cache cleared before
 *   each (target: the job at 0.8× or more);
 * - 20 sequential interactive dns-lookup calls of another key, without and then during the job (target:
 *   p95 during the job under 2× the p95 without it);
 * - heap added by the job while it runs, over the heap before it (target: < 50 MB).
 * The targets cycle over DISTINCT_NAMES lab names: the lab scans its records for every question, so a
 * lab of 10,000 names would measure the lab. The lab runs in a process of its own (bench/jobs-dns-lab.ts),
 * as an upstream resolver would.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createApp } from '../src/app.js';
import { buildConfig } from '../src/config.js';
import { createServices } from '../src/create-services.js';
import { createHttpServer } from '../src/http-server.js';
import { silentLogger } from '../src/log.js';
import { seedIpData } from '../test/helpers/ip-data.js';
import { startJobsDnsLab } from './jobs-dns-lab-process.js';
import { KeepAliveClient } from './keep-alive-client.js';

const JOB_ITEMS = Number(process.env.BENCH_JOB_ITEMS ?? 10_000);
const DISTINCT_NAMES = 1000;
const CLIENTS = 8;
const JOB_KEY = 'bench-jobs-key-0123456789';
const INTERACTIVE_KEY = 'bench-interactive-key-0123';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
}

export async function benchJobs(): Promise<void> {
  const lab = await startJobsDnsLab(DISTINCT_NAMES);
  const dataDir = mkdtempSync(join(tmpdir(), 'netdiag-bench-jobs-'));
  seedIpData(dataDir);
  const services = await createServices(
    buildConfig({
      server: { dataDir },
      auth: { keys: [JOB_KEY, INTERACTIVE_KEY] },
      quota: { credits: 1_000_000 },
      dns: { system: [`127.0.0.1:${lab.port}`] },
      admission: { maxEventLoopDelayMs: 0 },
      metrics: { port: null },
    }),
    silentLogger,
  );
  const app = createApp(services);
  const server = createHttpServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const targets = Array.from({ length: JOB_ITEMS }, (_, i) => `n${i % DISTINCT_NAMES}.test`);

  // each call asks names no earlier call asked (nothing cached), without clearing the job's cache
  let probes = 0;
  const interactive = async (): Promise<number[]> => {
    const client = new KeepAliveClient(origin);
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const path = `/api/v1/dns-lookup?domain=probe${probes++}.test`;
      const status = await client.get(path, { 'x-api-key': INTERACTIVE_KEY }, 10_000);
      if (status !== 200) throw new Error(`dns-lookup answered ${status}`);
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
    client.close();
    return times;
  };

  // single calls: 8 keep-alive clients taking the targets in order
  services.dnsCache.clear();
  let next = 0;
  const singlesStarted = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = new KeepAliveClient(origin);
      while (next < targets.length) {
        const target = targets[next++]!;
        const status = await client.get(`/api/v1/mx-lookup?domain=${target}`, { 'x-api-key': JOB_KEY }, 30_000);
        if (status !== 200) throw new Error(`mx-lookup answered ${status}`);
      }
      client.close();
    }),
  );
  const singlesPerSecond = targets.length / ((performance.now() - singlesStarted) / 1000);

  const quiet = await interactive();

  // the job, then the same job again for its memory: the heap after a full collection, sampled while it
  // runs, over the heap before it (garbage between collections is not memory the job holds)
  const runJob = async (sample: () => void) => {
    const submitted = await fetch(`${origin}/api/v1/jobs`, {
      method: 'POST',
      headers: { 'x-api-key': JOB_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'mx-lookup', targets }),
    });
    if (submitted.status !== 202) throw new Error(`the job was refused: ${await submitted.text()}`);
    const { id } = (await submitted.json()).data;
    for (;;) {
      const job = (await (await fetch(`${origin}/api/v1/jobs/${id}`, { headers: { 'x-api-key': JOB_KEY } })).json())
        .data;
      sample();
      if (job.finishedAt !== null) return job as { done: number; failed: number };
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  services.dnsCache.clear();
  const jobStarted = performance.now();
  const during = interactive();
  const job = await runJob(() => undefined);
  const jobSeconds = (performance.now() - jobStarted) / 1000;
  const busy = await during;
  const jobPerSecond = JOB_ITEMS / jobSeconds;

  services.dnsCache.clear();
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  let sampled = 0;
  await runJob(() => {
    if (++sampled % 10 !== 0) return;
    gc();
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  });

  console.log(`\n## jobs: ${JOB_ITEMS} mx-lookup items against the loopback DNS lab`);
  console.log(
    `job ${jobPerSecond.toFixed(0)} items/s (${jobSeconds.toFixed(1)} s, ${job.done} done, ${job.failed} failed); ` +
      `single calls by ${CLIENTS} keep-alive clients ${singlesPerSecond.toFixed(0)}/s; ratio ${(jobPerSecond / singlesPerSecond).toFixed(2)}× (target ≥ 0.8×)`,
  );
  console.log(
    `interactive dns-lookup p95: ${p95(quiet).toFixed(1)} ms without the job, ${p95(busy).toFixed(1)} ms during it; ` +
      `ratio ${(p95(busy) / p95(quiet)).toFixed(2)}× (target < 2×)`,
  );
  console.log(
    `heap held by the running job (after full collections): ${((heapPeak - heapBefore) / 1048576).toFixed(1)} MB at most (target < 50 MB)`,
  );
  await app.stopBackground();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await services.close();
  lab.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await benchJobs();
