/**
 * Monitors (docs/monitors.md "Where monitors run"), on the compiled service as `npm start` runs it — a
 * primary, its API worker and the job worker — against the loopback DNS lab (TTL 0: every item asks it):
 * a monitor of TARGETS targets × 2 checks (mx-lookup, dns-lookup) every INTERVAL, against the same items
 * run as two jobs at once:
 * - each scheduled run's duration (the last pair's commit after the run's charge), within its interval;
 * - the run's throughput against the jobs' (target ≥ 0.8×);
 * - the job worker's CPU time for a run against the jobs' for the same items: the difference is what
 *   scheduling, committing, diffing and evaluating cost (the target: under a tenth of the run's CPU);
 * - sequential interactive dns-lookup calls of another key, without and during a run: the ratio of the
 *   p95s (target < 1.5×).
 * Figures on a shared machine are rough.
 */
import { readFileSync } from 'node:fs';
import { jobWorkerOf, startService } from '../test/helpers/process.js';
import { startJobsDnsLab } from './jobs-dns-lab-process.js';
import { KeepAliveClient } from './keep-alive-client.js';

const TARGETS = Number(process.env.BENCH_MONITOR_TARGETS ?? 1000);
const INTERVAL = process.env.BENCH_MONITOR_INTERVAL ?? '30s';
const INTERVAL_MS = Number(INTERVAL.slice(0, -1)) * 1000;
const CHECKS = ['mx-lookup', 'dns-lookup'];
const KEY = 'bench-monitors-key-0123456789';
const INTERACTIVE_KEY = 'bench-interactive-key-0123';
const INTERACTIVE_RESOLVER = '192.0.2.53';
const INTERACTIVE_CALLS = 100;
const LAB_NICENESS = 19;

function p95(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
}

/** user + system CPU seconds of a process (/proc/<pid>/stat fields 14 and 15, in clock ticks of 1/100 s) */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export async function benchMonitors(): Promise<void> {
  const lab = await startJobsDnsLab(TARGETS, LAB_NICENESS);
  const interactiveLab = await startJobsDnsLab(0);
  const service = startService({
    server: { host: '127.0.0.1', port: 0, workers: 1 },
    auth: { keys: [KEY, INTERACTIVE_KEY] },
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
    monitors: { minInterval: INTERVAL, maxPairsPerKey: TARGETS * CHECKS.length },
  });
  try {
    const origin = `http://${await service.listening}`;
    const call = async (path: string, init: RequestInit = {}) =>
      (
        await fetch(`${origin}${path}`, { ...init, headers: { 'x-api-key': KEY, 'content-type': 'application/json' } })
      ).json();
    let worker: number | null = null;
    for (let i = 0; i < 100 && worker === null; i++) {
      worker = jobWorkerOf(service.child.pid!);
      if (worker === null) await new Promise((r) => setTimeout(r, 50));
    }
    if (worker === null) throw new Error('no job worker');
    const targets = Array.from({ length: TARGETS }, (_, i) => `n${i}.test`);

    let probes = 0;
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

    /** the same items as two jobs at once: seconds and the job worker's CPU seconds */
    const asJobs = async () => {
      const cpu0 = cpuSeconds(worker!);
      const started = performance.now();
      const ids = await Promise.all(
        CHECKS.map(
          async (tool) =>
            (await call('/api/v1/jobs', { method: 'POST', body: JSON.stringify({ tool, targets }) })).data.id,
        ),
      );
      for (const id of ids)
        for (;;) {
          if ((await call(`/api/v1/jobs/${id}`)).data.finishedAt !== null) break;
          await new Promise((r) => setTimeout(r, 50));
        }
      return { seconds: (performance.now() - started) / 1000, cpu: cpuSeconds(worker!) - cpu0 };
    };

    await interactive(); // a fresh worker's first calls pay its warm-up
    await asJobs(); // and the job worker's first items
    const jobs = await asJobs();
    const items = TARGETS * CHECKS.length;

    const created = await call('/api/v1/monitors', {
      method: 'POST',
      body: JSON.stringify({ name: 'bench', checks: CHECKS, targets, every: INTERVAL }),
    });
    const id = created.data.id;
    /**
     * Waits for run `n` to have committed every pair: its seconds from its charge to the last commit. It
     * polls light answers (the list, one pair's last run) while the run goes, and reads the whole state
     * (every pair) only once the last pair has run, so that the polling does not weigh on the API worker
     * whose interactive calls are measured.
     */
    const lastPair = `target=${targets.at(-1)}&check=${CHECKS.at(-1)}&limit=1`;
    const untilRun = async (n: number) => {
      for (;;) {
        const listed = (await call('/api/v1/monitors?limit=1')).data.monitors[0];
        const last = listed.runs >= n ? (await call(`/api/v1/monitors/${id}/history?${lastPair}`)).data.runs[0] : null;
        if (last && last.at >= listed.lastRunAt) {
          const m = (await call(`/api/v1/monitors/${id}`)).data;
          if (m.state.every((s: { lastRunAt: string | null }) => s.lastRunAt !== null && s.lastRunAt >= m.lastRunAt)) {
            const at = Math.max(...m.state.map((s: { lastRunAt: string }) => Date.parse(s.lastRunAt)));
            return { seconds: (at - Date.parse(m.lastRunAt)) / 1000 };
          }
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await untilRun(1); // the baseline run (and the first commits of a fresh store)
    console.log(
      `\n## monitors: ${TARGETS} targets × ${CHECKS.join(' + ')} every ${INTERVAL} on the compiled service (1 API worker, the job worker) against the loopback DNS lab`,
    );
    console.log(
      `the same ${items} items as two jobs at once: ${(items / jobs.seconds).toFixed(0)} items/s, job worker CPU ${jobs.cpu.toFixed(2)} s`,
    );
    for (const n of [2, 3]) {
      const quiet = await interactive();
      let running = true;
      const cpu0 = cpuSeconds(worker);
      // the scheduled run starts by itself, INTERVAL after the one before
      const during = (async () => {
        for (;;) {
          const m = (await call('/api/v1/monitors?limit=1')).data.monitors[0];
          if (m.runs >= n) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        return interactive(() => running);
      })();
      const run = await untilRun(n);
      running = false;
      const busy = await during;
      const cpu = cpuSeconds(worker) - cpu0;
      const perSecond = items / run.seconds;
      const overhead = (cpu - jobs.cpu) / cpu;
      console.log(
        `run ${n}: ${run.seconds.toFixed(1)} s (interval ${INTERVAL_MS / 1000} s: ${run.seconds * 1000 < INTERVAL_MS ? 'within' : 'NOT within'}); ` +
          `${perSecond.toFixed(0)} items/s, ${(perSecond / (items / jobs.seconds)).toFixed(2)}× the jobs (target ≥ 0.8×); ` +
          `job worker CPU ${cpu.toFixed(2)} s, ${(overhead * 100).toFixed(1)} % more than the jobs' (scheduling, commits, diffing; target < 10 %); ` +
          `interactive dns-lookup p95 ${p95(quiet).toFixed(1)} ms without, ${p95(busy).toFixed(1)} ms during: ${(p95(busy) / p95(quiet)).toFixed(2)}× (target < 1.5×)`,
      );
    }
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    lab.close();
    interactiveLab.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMonitors();
