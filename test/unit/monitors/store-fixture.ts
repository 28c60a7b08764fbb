/** Monitors and runs the store tests share (./monitor-store-contract.ts, ./store-writer.ts). */
import type { RunOutcome } from '../../../src/monitors/evaluate.js';
import type { MonitorStore } from '../../../src/monitors/store/monitor-store.js';
import type { MonitorRecord } from '../../../src/monitors/store/records.js';
import { example } from './examples.js';

export const T0 = new Date('2026-12-01T00:00:00.000Z');
export const HOUR = 3_600_000;

export function monitorRecord(overrides: Partial<MonitorRecord> = {}): MonitorRecord {
  return {
    id: 'mon_test',
    keyId: 'key-a',
    name: 'sites',
    checks: ['tls-rating', 'whois'],
    targets: ['a.example', 'b.example'],
    params: {},
    every: '1h',
    everyMs: HOUR,
    warnDays: 1,
    public: false,
    paused: false,
    notify: null,
    secret: 'secret',
    createdAt: T0.toISOString(),
    updatedAt: T0.toISOString(),
    ...overrides,
  };
}

/** tls-rating's answer, graded A+ on even runs and B on odd ones: every run after the first is a change. */
export function ratingOf(run: number): RunOutcome {
  const data = example('tls-rating');
  data.grade.letter = run % 2 === 0 ? 'A+' : 'B';
  return { ok: true, status: 200, data };
}

export const RUNS = 40;

/** One run of a one-target, one-check monitor: begin, charge, the outcome, finish. */
export async function commitRun(store: MonitorStore, monitorId: string, run: number): Promise<void> {
  const at = new Date(T0.getTime() + run * HOUR);
  // run ids are ordered: the due time
  const runId = at.toISOString();
  const begun = await store.beginRun(monitorId, { runId, at, nextRunAt: new Date(at.getTime() + HOUR) });
  if (begun.outcome === 'start' || (begun.outcome === 'resume' && !begun.charged))
    await store.recordCharge(monitorId, runId, true, at);
  await store.recordOutcome(monitorId, { runId, targetIndex: 0, check: 'tls-rating', at, outcome: ratingOf(run) });
  await store.finishRun(monitorId, runId, at);
}
