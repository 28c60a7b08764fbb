/**
 * A small closed-loop load generator over undici (loopback only): `connections` clients each send
 * the next request as soon as the previous answer is read, for `durationMs`. Reports throughput and
 * latency percentiles.
 */
import { Pool } from 'undici';

export interface LoadResult {
  requests: number;
  errors: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** every request's latency, sorted */
  latenciesMs: number[];
  elapsedMs: number;
}

export async function runLoad(options: {
  origin: string;
  path: string;
  headers?: Record<string, string>;
  connections: number;
  durationMs: number;
  expectStatus?: number;
}): Promise<LoadResult> {
  if (!/^http:\/\/(127\.\d+\.\d+\.\d+|\[::1\]|localhost)(:\d+)?$/.test(options.origin)) {
    throw new Error(`benchmarks only target loopback, not ${options.origin}`);
  }
  const pool = new Pool(options.origin, { connections: options.connections, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + options.durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const res = await pool.request({ method: 'GET', path: options.path, headers: options.headers });
        await res.body.arrayBuffer();
        if (res.statusCode !== (options.expectStatus ?? 200)) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.connections }, worker));
  const elapsed = performance.now() - started;
  await pool.close();
  return summarise(latencies, errors, elapsed);
}

function summarise(latencies: number[], errors: number, elapsedMs: number): LoadResult {
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return {
    requests: latencies.length,
    errors,
    perSecond: (latencies.length / elapsedMs) * 1000,
    p50Ms: pct(50),
    p99Ms: pct(99),
    latenciesMs: latencies,
    elapsedMs,
  };
}

/** Runs of the same load taken apart in time (alternating with another's) as one: their requests over their time. */
export function combineLoads(runs: readonly LoadResult[]): LoadResult {
  return summarise(
    runs.flatMap((r) => r.latenciesMs),
    runs.reduce((s, r) => s + r.errors, 0),
    runs.reduce((s, r) => s + r.elapsedMs, 0),
  );
}

export function formatLoad(name: string, r: LoadResult): string {
  return `${name.padEnd(28)} ${r.perSecond.toFixed(0).padStart(7)} req/s   p50 ${r.p50Ms.toFixed(2).padStart(6)} ms   p99 ${r.p99Ms.toFixed(2).padStart(6)} ms   (${r.requests} requests, ${r.errors} errors)`;
}
