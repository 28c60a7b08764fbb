/**
 * docs/monitors.md "Durability", as `npm start` runs it: a monitor of mx-lookup over N targets of the DNS
 * lab; after its baseline run the lab's answers change for every target, a run starts, and the job worker
 * (where runs happen) is killed with SIGKILL half-way. The primary starts a new one, which resumes the run:
 * every pair's second outcome is committed once, each change makes exactly one `changed` event (ids
 * unique and in order), items that were running or waiting for their commit run at most once more, and the
 * run is charged once. The embedded mode and the Redis mode run this one scenario
 * (./monitors-durability.test.ts, ./redis-monitors-durability.test.ts).
 */
import { expect } from 'vitest';
import { jobWorkerOf, killHard, type startService } from '../../helpers/process.js';
import { rr, startDnsLab, type DnsLab } from '../../lab/dns-server.js';

const KEY = 'durable-key-0123456789';
const N = 200;
const CREDITS = 100_000;
const COST = 3;
const CONCURRENCY = 8;

const records = (address: string) => {
  const out = [];
  for (let i = 0; i < N; i++) out.push(rr.mx(`m${i}.test`, 10, `mx.m${i}.test`, 0), rr.a(`mx.m${i}.test`, address, 0));
  return out;
};

export async function startDurabilityLab(): Promise<DnsLab> {
  const lab = await startDnsLab({ authoritative: false, records: records('192.0.2.7') });
  // about 50 items a second with 8 slots: a run takes several seconds, so the kill lands mid-way
  lab.setBehaviour(/^m\d+\.test$/, { delayMs: 150 }, 'MX');
  return lab;
}

/** The configuration of the service the scenario runs on, with `extra` (the Redis mode's `store`, `jobs`). */
export function durabilityConfig(lab: DnsLab, extra: { store?: object; jobs?: object } = {}) {
  return {
    server: { host: '127.0.0.1', port: 0, workers: 1 },
    auth: { keys: [KEY] },
    quota: { credits: CREDITS },
    dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 2000 },
    ...(extra.store ? { store: extra.store } : {}),
    jobs: { concurrency: CONCURRENCY, ...extra.jobs },
  };
}

/** The scenario on `service`, started (test/helpers/process.ts) with `durabilityConfig`; it is stopped after. */
export async function killMidRunAndResume(lab: DnsLab, service: ReturnType<typeof startService>): Promise<void> {
  try {
    const base = `http://${await service.listening}`;
    const call = async (path: string, init: RequestInit = {}) =>
      (
        await fetch(`${base}${path}`, { ...init, headers: { 'x-api-key': KEY, 'content-type': 'application/json' } })
      ).json();
    const targets = Array.from({ length: N }, (_, i) => `m${i}.test`);
    const created = await call('/api/v1/monitors', {
      method: 'POST',
      body: JSON.stringify({ checks: ['mx-lookup'], targets, every: '1d' }),
    });
    const id = created.data.id;
    const monitor = () => call(`/api/v1/monitors/${id}`).then((b) => b.data);
    for (;;) {
      const m = await monitor();
      if (m.state.every((s: any) => s.lastRunAt !== null) && m.lastRunAt !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    lab.clearQueries();
    lab.records = records('192.0.2.8');
    expect((await call(`/api/v1/monitors/${id}/run`, { method: 'POST' })).ok).toBe(true);
    for (;;) {
      const events = (await call(`/api/v1/monitors/${id}/events?limit=100`)).data.events;
      if (events.length >= N / 4) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const atKill = (await monitor()).state.filter((s: any) => s.lastChangeAt !== null).length;
    const worker = jobWorkerOf(service.child.pid!);
    expect(worker).not.toBeNull();
    process.kill(worker!, 'SIGKILL');

    let m: any;
    for (let i = 0; i < 1200; i++) {
      m = await monitor();
      if (m.state.every((s: any) => s.lastChangeAt !== null)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // killed mid-run, and the new job worker resumed that run (not a new one)
    expect(atKill).toBeLessThan(N);
    expect(service.output()).toContain('"event":"monitor_run_resumed"');
    expect(m.runs).toBe(2);
    const events: any[] = [];
    let since = `${id}.0`;
    for (;;) {
      const page = (await call(`/api/v1/monitors/${id}/events?since=${since}&limit=100`)).data;
      events.push(...page.events);
      if (page.events.length === 0) break;
      since = page.events.at(-1).id;
    }
    expect(events).toHaveLength(N);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => `${id}.${i + 1}`));
    expect(new Set(events.map((e) => e.target)).size).toBe(N);
    expect(events.every((e) => e.kind === 'changed')).toBe(true);
    for (const target of ['m0.test', `m${N - 1}.test`]) {
      const history = (await call(`/api/v1/monitors/${id}/history?target=${target}`)).data.runs;
      expect(history).toHaveLength(2);
    }
    // at most once more: each target asked once in the second run, or twice if it was running at the kill
    // questions, not queries: a resend of one the resolver thought lost (a busy machine) is the same question
    const asked = targets.map((t) => lab.countQuestions(t, 'MX'));
    expect(asked.every((n) => n === 1 || n === 2)).toBe(true);
    // (the items running, and those finished whose outcome was waiting for its commit: at most 64)
    expect(asked.filter((n) => n === 2).length).toBeLessThanOrEqual(CONCURRENCY + 64);
    // two runs charged, each once; the probe adds its own price
    const probe = await fetch(`${base}/api/v1/mx-lookup?domain=m0.test`, { headers: { 'x-api-key': KEY } });
    expect(Number(probe.headers.get('ratelimit-remaining'))).toBe(CREDITS - 2 * N * COST - COST);
  } finally {
    if (service.child.exitCode === null && service.child.signalCode === null) killHard(service.child.pid!);
    await service.exited;
  }
}
