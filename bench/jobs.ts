/**
 * Jobs (docs/jobs.md "Where items run"), on the compiled service as `npm start` runs it — a primary, its
 * API worker(s) and the job worker — against the loopback DNS lab, which answers with TTL 0 so that every
 * item and call asks it:
 * - throughput of a job of JOB_ITEMS mx-lookup items (`jobs.concurrency` 8) against the same number of
 *   single calls made by 8 keep-alive clients (target: the job at 0.8× or more);
 * - sequential interactive dns-lookup calls of another key, without and then during the job, in RUNS runs:
 *   the ratio of the p95 during the job to the p95 without it, printed for each run (target: < 1.5×);
 * - the job worker's resident memory while the job runs, over its memory before (target: < 50 MB).
 * The targets cycle over DISTINCT_NAMES lab names: the lab scans its records for every question, so a
 * lab of 10,000 names would measure the lab. The lab runs in a process of its own, as a resolver would,
 * and the interactive calls ask another one (a public resolver of the configuration, `resolver=` of
 * dns-lookup): one process answering the job's questions as fast as they come would make every other
 * question wait its turn there, which a real resolver does not.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { startService } from '../test/helpers/process.js';
import { startJobsDnsLab } from './jobs-dns-lab-process.js';
import { KeepAliveClient } from './keep-alive-client.js';

const JOB_ITEMS = Number(process.env.BENCH_JOB_ITEMS ?? 10_000);
const RUNS = Number(process.env.BENCH_JOB_RUNS ?? 5);
const API_WORKERS = Number(process.env.BENCH_JOB_API_WORKERS ?? 1);
const DISTINCT_NAMES = 1000;
const CLIENTS = 8;
const INTERACTIVE_CALLS = 100;
/** the job's lab stands for resolvers elsewhere: it runs at the job worker's priority (bench/jobs-dns-lab-process.ts) */
const LAB_NICENESS = 19;
const JOB_KEY = 'bench-jobs-key-0123456789';
const INTERACTIVE_KEY = 'bench-interactive-key-0123';
/** what the interactive calls name as their resolver: the configuration sends its questions to a lab of its own */
const INTERACTIVE_RESOLVER = '192.0.2.53';

function p95(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
}

/** the job worker: the primary's child whose environment marks it (src/cluster/job-worker-process.ts) */
function jobWorkerPid(primary: number): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== primary) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').includes('NETDIAG_JOB_WORKER=1')) return Number(entry);
    } catch {
      // a process that ended meanwhile
    }
  }
  return null;
}

function residentBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) * 1024 : 0;
}

export async function benchJobs(): Promise<void> {
  const lab = await startJobsDnsLab(DISTINCT_NAMES, LAB_NICENESS);
  const interactiveLab = await startJobsDnsLab(0);
  const service = startService({
    server: { host: '127.0.0.1', port: 0, workers: API_WORKERS },
    auth: { keys: [JOB_KEY, INTERACTIVE_KEY] },
    quota: { credits: 1_000_000_000 },
    dns: {
      system: [`127.0.0.1:${lab.port}`],
      publicResolvers: [
        {
          name: 'interactive',
          ip: INTERACTIVE_RESOLVER,
          countryCode: 'ZZ',
          address: `127.0.0.1:${interactiveLab.port}`,
        },
      ],
    },
    jobs: { maxActivePerKey: 10 },
  });
  try {
    const origin = `http://${await service.listening}`;
    const targets = Array.from({ length: JOB_ITEMS }, (_, i) => `n${i % DISTINCT_NAMES}.test`);
    let jobWorker: number | null = null;
    for (let i = 0; i < 100 && jobWorker === null; i++) {
      jobWorker = jobWorkerPid(service.child.pid!);
      if (jobWorker === null) await new Promise((r) => setTimeout(r, 50));
    }

    let probes = 0;
    /** sequential calls, INTERACTIVE_CALLS of them or, with `going`, as long as it says */
    const interactive = async (going?: () => boolean): Promise<number[]> => {
      const client = new KeepAliveClient(origin);
      const times: number[] = [];
      for (let i = 0; going ? going() : i < INTERACTIVE_CALLS; i++) {
        const t0 = performance.now();
        const path = `/api/v1/dns-lookup?domain=probe${probes++ % 40}.test&resolver=${INTERACTIVE_RESOLVER}`;
        const status = await client.get(path, { 'x-api-key': INTERACTIVE_KEY }, 10_000);
        if (status !== 200) throw new Error(`dns-lookup answered ${status}`);
        times.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
      client.close();
      return times;
    };

    // single calls: 8 keep-alive clients taking the targets in order
    await interactive(); // the first calls of a fresh worker pay its warm-up: not measured
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

    const runJob = async (sample: () => void, items = targets) => {
      const submitted = await fetch(`${origin}/api/v1/jobs`, {
        method: 'POST',
        headers: { 'x-api-key': JOB_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'mx-lookup', targets: items }),
      });
      if (submitted.status !== 202) throw new Error(`the job was refused: ${await submitted.text()}`);
      const { id } = (await submitted.json()).data;
      const started = performance.now();
      for (;;) {
        const job = (await (await fetch(`${origin}/api/v1/jobs/${id}`, { headers: { 'x-api-key': JOB_KEY } })).json())
          .data;
        sample();
        if (job.finishedAt !== null)
          return { ...(job as { done: number; failed: number }), seconds: (performance.now() - started) / 1000 };
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    // the first items of a fresh job worker pay its warm-up (loading and compiling the checks): not measured
    await runJob(() => undefined, targets.slice(0, 500));
    console.log(
      `\n## jobs: ${JOB_ITEMS} mx-lookup items on the compiled service (${API_WORKERS} API worker, the job worker) against the loopback DNS lab`,
    );
    console.log(`single calls by ${CLIENTS} keep-alive clients: ${singlesPerSecond.toFixed(0)}/s`);
    const ratios: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const quiet = await interactive();
      const before = jobWorker ? residentBytes(jobWorker) : 0;
      let peak = before;
      let running = true;
      const during = interactive(() => running);
      const job = await runJob(() => {
        if (jobWorker) peak = Math.max(peak, residentBytes(jobWorker));
      });
      running = false;
      const busy = await during;
      const ratio = p95(busy) / p95(quiet);
      ratios.push(ratio);
      const perSecond = JOB_ITEMS / job.seconds;
      console.log(
        `run ${run}: interactive dns-lookup p95 ${p95(quiet).toFixed(1)} ms without the job, ${p95(busy).toFixed(1)} ms during it: ratio ${ratio.toFixed(2)}× (target < 1.5×); ` +
          `job ${perSecond.toFixed(0)} items/s (${job.done} done, ${job.failed} failed): ${(perSecond / singlesPerSecond).toFixed(2)}× the single calls (target ≥ 0.8×); ` +
          `job worker memory +${((peak - before) / 1048576).toFixed(1)} MB (target < 50 MB)`,
      );
    }
    console.log(`interactive ratio over the runs: ${ratios.map((r) => `${r.toFixed(2)}×`).join(', ')}`);
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    lab.close();
    interactiveLab.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchJobs();
