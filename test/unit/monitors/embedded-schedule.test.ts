/**
 * The embedded schedule (src/monitors/schedule/embedded-schedule.ts): a due time is handed out once, at
 * its time, by one timer; due times missed while the instance was down run once, not once per interval;
 * a hand-out not settled before a crash is handed out again at the next start; a run that throws is
 * handed out again after `retryMs`; `remove` stops a monitor's hand-outs; runs at once are bounded.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedDb } from '../../../src/platform/embedded-db.js';
import { EmbeddedSchedule, nextDueAfter } from '../../../src/monitors/schedule/embedded-schedule.js';
import type { DueRun } from '../../../src/monitors/schedule/monitor-schedule.js';

const started: EmbeddedSchedule[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.stop();
});

function scheduleIn(dataDir: string, now: () => number, retryMs = 60_000) {
  const schedule = new EmbeddedSchedule(openEmbeddedDb(dataDir), { now, retryMs });
  started.push(schedule);
  return schedule;
}

const until = async (what: string, done: () => boolean) => {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
};

describe('nextDueAfter', () => {
  it('is the first due time after now, skipping every missed one', () => {
    expect(nextDueAfter(1000, 100, 500)).toBe(1000);
    expect(nextDueAfter(1000, 100, 1000)).toBe(1100);
    expect(nextDueAfter(1000, 100, 1550)).toBe(1600);
  });
});

describe('EmbeddedSchedule', () => {
  it('hands a due time out at its time, once, then every `every`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nd-sched-'));
    const schedule = scheduleIn(dir, () => Date.now());
    const runs: DueRun[] = [];
    const first = Date.now() + 50;
    await schedule.upsert('mon_a', 100, first);
    await schedule.start(async (due) => void runs.push(due), 4);
    await until('three runs', () => runs.length >= 3);
    expect(runs.slice(0, 3)).toEqual([
      { monitorId: 'mon_a', dueAt: first },
      { monitorId: 'mon_a', dueAt: first + 100 },
      { monitorId: 'mon_a', dueAt: first + 200 },
    ]);
    await schedule.remove('mon_a');
    const count = runs.length;
    await new Promise((r) => setTimeout(r, 250));
    expect(runs.length).toBe(count);
  });

  it('runs the due times missed during a downtime once, and resumes a hand-out a crash left unsettled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nd-sched-'));
    let now = 1_000_000;
    // the process that crashes: not stopped in afterEach (its unsettled run never ends)
    const before = new EmbeddedSchedule(openEmbeddedDb(dir), { now: () => now, retryMs: 60_000 });
    await before.upsert('mon_missed', 1000, now);
    await before.upsert('mon_crashed', 1000, now);
    // the first process hands both out; mon_crashed's run never settles (the process dies)
    const handed: DueRun[] = [];
    await before.start(
      (due) =>
        due.monitorId === 'mon_crashed' ? new Promise(() => handed.push(due)) : Promise.resolve(void handed.push(due)),
      4,
    );
    await until('both handed out', () => handed.length === 2);
    // mon_missed's settlement is written after its run returns: wait for it, so that only mon_crashed's is
    // left unsettled, as the crash this stands for would leave it
    const handedOut = openEmbeddedDb(dir).openDB({ name: 'monitor-handed' });
    await until('mon_missed settled', () => [...handedOut.getKeys()].length === 1);
    // it hands out nothing more (its process is gone); its unsettled run is not waited for
    void before.stop();
    // ten intervals pass while the instance is down
    now += 10_500;
    const after = new EmbeddedSchedule(openEmbeddedDb(dir), { now: () => now, retryMs: 60_000 });
    started.push(after);
    const runs: DueRun[] = [];
    await after.start(async (due) => void runs.push(due), 4);
    await until('runs after the restart', () => runs.length >= 3);
    await new Promise((r) => setTimeout(r, 50));
    const of = (id: string) => runs.filter((r) => r.monitorId === id).map((r) => r.dueAt - 1_000_000);
    // the unsettled hand-out again (its run id is recognised by the store), then one run for the missed ones
    expect(of('mon_crashed')).toEqual([0, 1000]);
    expect(of('mon_missed')).toEqual([1000]);
    expect(after.dueAt('mon_missed')).toBe(1_000_000 + 11_000);
  });

  it('hands a run that threw out again after retryMs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nd-sched-'));
    const schedule = scheduleIn(dir, () => Date.now(), 30);
    const tries: DueRun[] = [];
    const dueAt = Date.now();
    await schedule.upsert('mon_fails', 3_600_000, dueAt);
    await schedule.start(async (due) => {
      tries.push(due);
      if (tries.length < 3) throw new Error('store unavailable');
    }, 1);
    await until('three tries', () => tries.length >= 3);
    expect(tries.every((t) => t.dueAt === dueAt)).toBe(true);
  });

  it('runs at most `concurrency` at once; the rest wait in the database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nd-sched-'));
    const schedule = scheduleIn(dir, () => Date.now());
    const now = Date.now();
    for (let i = 0; i < 6; i++) await schedule.upsert(`mon_${i}`, 3_600_000, now);
    let running = 0;
    let most = 0;
    let done = 0;
    await schedule.start(async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
      done++;
    }, 2);
    await until('six runs', () => done === 6);
    expect(most).toBe(2);
  });
});
