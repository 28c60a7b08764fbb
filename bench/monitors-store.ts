/**
 * The monitors' stores, embedded and on Redis (issue 34 "Targets"; src/monitors/store/): 100,000 stored
 * runs (5 monitors × 100 targets × 2 checks — tls-rating and mailhealth-check, the largest answers — × 100
 * runs, `monitors.keepRuns` 100), written through the store's commit (diff, state and events included);
 * then reading one target × check's last 100 runs (target < 20 ms) and the heap of the process holding
 * the store (after a full collection; target < 60 MB). The figures are measured in a child process of
 * their own (`--measure <store>`), so that no other benchmark's heap is counted. The Redis store's run
 * is against a redis-server the benchmark starts on loopback (test/lab/redis.ts), skipped without one.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { RunOutcome } from '../src/monitors/evaluate.js';
import { EmbeddedMonitorStore } from '../src/monitors/store/embedded-monitor-store.js';
import type { MonitorStore } from '../src/monitors/store/monitor-store.js';
import type { MonitorRecord } from '../src/monitors/store/records.js';
import { createRedisMonitorStore } from '../src/monitors/store/redis-monitor-store.js';
import { openEmbeddedDb } from '../src/platform/embedded-db.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab } from '../test/lab/redis.js';

const MONITORS = 5;
const TARGETS = 100;
const CHECKS = ['tls-rating', 'mailhealth-check'];
const RUNS = 100;
const READS = 300;
const MB = 1_048_576;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * p) - 1)]!;
}

async function measureIn(args: string[]): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--expose-gc', import.meta.filename, '--measure', ...args],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the monitors' store benchmark (${args[0]}) exited with ${code}`);
}

export async function benchMonitorsStore(): Promise<void> {
  await measureIn(['embedded']);
  if (!redisServerPath) {
    console.log(`\n## monitors' store on Redis: skipped (${REDIS_MISSING_MESSAGE})`);
    return;
  }
  const lab = await startRedisLab();
  try {
    await measureIn(['redis', lab.url]);
  } finally {
    await lab.close();
  }
}

/** The store measured, where it keeps its data, and what that takes (on disk, or in Redis' memory). */
interface Measured {
  readonly store: MonitorStore;
  readonly title: string;
  size(): Promise<string>;
  close(): Promise<void>;
}

function openMeasured(kind: string, url: string | undefined): Measured {
  const settings = { keepRuns: RUNS, keepEventsDays: 90 };
  if (kind === 'redis') {
    const client = new Redis(url!);
    return {
      store: createRedisMonitorStore({ redis: client, ...settings }),
      title: 'on Redis (a loopback redis-server; the process holds no runs)',
      async size() {
        const memory = /used_memory:(\d+)/.exec(await client.info('memory'))?.[1];
        return `Redis' used memory ${(Number(memory) / MB).toFixed(0)} MB`;
      },
      async close() {
        client.disconnect();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-bench-monitors-'));
  return {
    store: new EmbeddedMonitorStore(openEmbeddedDb(dir), settings),
    title: 'in the embedded database (lmdb)',
    async size() {
      const kb = Number(
        execFileSync('du', ['-sk', join(dir, 'db')])
          .toString()
          .split('\t')[0],
      );
      return `database ${(kb / 1024).toFixed(0)} MB on disk`;
    },
    async close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function measure(kind: string, url: string | undefined): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const examples = JSON.parse(readFileSync(join(import.meta.dirname, '../data/openapi-examples.json'), 'utf8'));
  const answers = Object.fromEntries(CHECKS.map((check) => [check, examples[check].body.data]));
  const measured = openMeasured(kind, url);
  const { store } = measured;
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = Date.parse('2026-12-01T00:00:00.000Z');
  const ids = Array.from({ length: MONITORS }, (_, m) => `mon_bench${m}`);
  for (const id of ids) {
    const monitor: MonitorRecord = {
      id,
      keyId: 'bench-key',
      name: id,
      checks: CHECKS,
      targets: Array.from({ length: TARGETS }, (_, t) => `site${t}.example`),
      params: {},
      every: '15m',
      everyMs: 900_000,
      warnDays: 21,
      public: false,
      paused: false,
      notify: null,
      secret: 's',
      createdAt: new Date(t0).toISOString(),
      updatedAt: new Date(t0).toISOString(),
    };
    await store.create(monitor, { maxPerKey: 100, maxPairsPerKey: 1_000_000 });
  }

  // the writes: each run of each monitor as the scheduler will make it, its items committed concurrently
  const writeStarted = performance.now();
  for (let run = 0; run < RUNS; run++) {
    const at = new Date(t0 + run * 900_000);
    const runId = at.toISOString();
    const outcomes = Object.fromEntries(
      CHECKS.map((check) => {
        const data = structuredClone(answers[check]);
        // a change every tenth run, so that events are made and stored as in life
        if (check === 'tls-rating') data.grade.letter = Math.floor(run / 10) % 2 === 0 ? 'A+' : 'B';
        return [check, { ok: true, status: 200, data } as RunOutcome];
      }),
    );
    await Promise.all(
      ids.map(async (id) => {
        await store.beginRun(id, { runId, at, nextRunAt: new Date(at.getTime() + 900_000) });
        await store.recordCharge(id, runId, true, at);
        const commits: Promise<unknown>[] = [];
        for (let targetIndex = 0; targetIndex < TARGETS; targetIndex++)
          for (const check of CHECKS)
            commits.push(store.recordOutcome(id, { runId, targetIndex, check, at, outcome: outcomes[check]! }));
        await Promise.all(commits);
        await store.finishRun(id, runId, at);
      }),
    );
  }
  const writeSeconds = (performance.now() - writeStarted) / 1000;
  const stored = MONITORS * TARGETS * CHECKS.length * RUNS;

  gc();
  const heapAfterWrites = process.memoryUsage().heapUsed;

  // the reads: a target × check's last 100 runs, at random
  const pairTimes: number[] = [];
  for (let i = 0; i < READS; i++) {
    const id = ids[i % MONITORS]!;
    const started = performance.now();
    const page = await store.history(id, {
      targetIndex: Math.floor(Math.random() * TARGETS),
      check: CHECKS[i % CHECKS.length]!,
      limit: 100,
    });
    pairTimes.push(performance.now() - started);
    if (page.items.length !== 100) throw new Error(`read ${page.items.length} runs`);
  }
  const monitorTimes: number[] = [];
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    await store.history(ids[i % MONITORS]!, { limit: 100 });
    monitorTimes.push(performance.now() - started);
  }
  const stateTimes: number[] = [];
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    await store.states(ids[i % MONITORS]!);
    stateTimes.push(performance.now() - started);
  }
  gc();
  const heapAfterReads = process.memoryUsage().heapUsed;
  const size = await measured.size();
  const events = (await store.events(ids[0]!, { limit: 1000 })).items.length;

  console.log(`\n## monitors' store: ${stored} stored runs ${measured.title}`);
  console.log(
    `writes: ${(stored / writeSeconds).toFixed(0)} outcomes/s committed with their state and events (${writeSeconds.toFixed(1)} s); ` +
      `${events} events per monitor; ${size}`,
  );
  console.log(
    `a target × check's last 100 runs: median ${percentile(pairTimes, 0.5).toFixed(2)} ms, p95 ${percentile(pairTimes, 0.95).toFixed(2)} ms (target < 20 ms); ` +
      `a monitor's last 100 runs across pairs: p95 ${percentile(monitorTimes, 0.95).toFixed(2)} ms; ` +
      `a monitor's ${TARGETS * CHECKS.length} pair states: p95 ${percentile(stateTimes, 0.95).toFixed(2)} ms`,
  );
  console.log(
    `heap after a full collection: ${(heapAfterWrites / MB).toFixed(1)} MB after the writes, ${(heapAfterReads / MB).toFixed(1)} MB after the reads ` +
      `(${(heapBefore / MB).toFixed(1)} MB before; target < 60 MB); rss ${(process.memoryUsage().rss / MB).toFixed(0)} MB (the map of the embedded database's pages counts in rss, not the heap)`,
  );
  await store.close();
  await measured.close();
}

const measuring = process.argv.indexOf('--measure');
if (measuring >= 0) await measure(process.argv[measuring + 1]!, process.argv[measuring + 2]);
else if (import.meta.url === `file://${process.argv[1]}`) await benchMonitorsStore();
